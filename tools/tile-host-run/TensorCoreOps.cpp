//===- TensorCoreOps.cpp - ldmatrix, mma.sync and wgmma on the host -------===//
//
// The BlockScheduler's tensor-core instructions (BlockScheduler.h): each
// lane computes its registers from the fragments its warp exchanged (or,
// for wgmma's shared operands, from the matrices its descriptors describe)
// as the PTX ISA defines them.
//
//===----------------------------------------------------------------------===//

#include "BlockScheduler.h"

#include "llvm/ADT/APFloat.h"

#include <cstring>
#include <optional>
#include <vector>

using namespace tilehost;

namespace {

/// The float that the f16 `bits` hold.
float halfToFloat(uint16_t bits) {
  return llvm::APFloat(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits))
      .convertToFloat();
}

/// `value` rounded to f16 (to nearest, ties to even).
uint16_t floatToHalf(float value) {
  llvm::APFloat half(value);
  bool losesInfo;
  half.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
               &losesInfo);
  return uint16_t(half.bitcastToAPInt().getZExtValue());
}

/// The float that the bf16 `bits` hold.
float bfloatToFloat(uint16_t bits) {
  uint32_t word = uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &word, sizeof(value));
  return value;
}

/// Element `half` (0: low 16 bits) of a word of A or B, as a float.
float element(MmaKind kind, uint32_t word, unsigned half) {
  uint16_t bits = uint16_t(word >> (16 * half));
  return kind == MmaKind::BF16F32 ? bfloatToFloat(bits) : halfToFloat(bits);
}

/// The shared offset of element (`mn`, `k`) of a wgmma operand of 16-bit
/// elements that `descriptor` describes, K-major (each row of MN holds K
/// contiguously) or MN-major; null after an unsupported layout. PTX's
/// canonical swizzled layouts (../shared/design/TENSORCORES.md, section 5):
/// rows of W = swizzle bytes, 8 rows an atom, SBO between the atoms along
/// the strided dimension, LBO between W-byte panels of a contiguous MN,
/// then the swizzle on the byte address.
std::optional<uint32_t> operandOffset(uint64_t descriptor, bool mnMajor,
                                      uint32_t mn, uint32_t k) {
  constexpr uint32_t kElementBytes = 2;
  uint32_t start = uint32_t(descriptor & 0x3fff) << 4;
  uint32_t leading = uint32_t(descriptor >> 16 & 0x3fff) << 4;
  uint32_t stride = uint32_t(descriptor >> 32 & 0x3fff) << 4;
  uint32_t layout = uint32_t(descriptor >> 62);
  uint32_t width = layout == 1 ? 128 : layout == 2 ? 64 : layout == 3 ? 32 : 0;
  if (!width || (descriptor >> 49 & 7))
    return std::nullopt;
  uint32_t offset;
  if (mnMajor) {
    uint32_t perRow = width / kElementBytes;
    offset = start + k / 8 * stride + k % 8 * width + mn / perRow * leading +
             mn % perRow * kElementBytes;
  } else {
    offset = start + mn / 8 * stride + mn % 8 * width + k * kElementBytes;
  }
  uint32_t chunkBits = width == 128 ? 7 : width == 64 ? 3 : 1;
  return offset ^ ((offset >> 7 & chunkBits) << 4);
}

} // namespace

void BlockScheduler::loadMatrices(uint32_t count, bool transpose,
                                  const char *address, uint32_t *registers) {
  // Lanes 8i to 8i + 7 give the addresses of the 8 rows (16 bytes each) of
  // matrix i; the others' addresses are not used.
  constexpr uint32_t kRowBytes = 16;
  uint32_t lane = currentThread() % kWarpSize;
  uint32_t offset = 0;
  if (lane < 8 * count) {
    std::optional<uint32_t> checked =
        sharedOffset(address, kRowBytes, "ldmatrix");
    if (!checked)
      return;
    offset = *checked;
  }
  unsigned slot = exchange(~0u, &offset, 1, "ldmatrix");
  const Warp &warp = warps[currentThread() / kWarpSize];
  // The b16 element (row, column) of matrix `matrix`.
  auto at = [&](uint32_t matrix, uint32_t row, uint32_t column) {
    uint16_t bits;
    std::memcpy(&bits,
                sharedMemory + warp.values[slot][8 * matrix + row][0] +
                    2 * column,
                sizeof(bits));
    return uint32_t(bits);
  };
  // Lane l holds (row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1) of each
  // matrix, or of its transpose with .trans.
  uint32_t row = lane / 4, column = 2 * (lane % 4);
  for (uint32_t matrix = 0; matrix < count; ++matrix)
    registers[matrix] =
        transpose ? at(matrix, column, row) | at(matrix, column + 1, row) << 16
                  : at(matrix, row, column) | at(matrix, row, column + 1) << 16;
}

void BlockScheduler::multiplyAccumulate(MmaKind kind, const uint32_t *operands,
                                        uint32_t *result) {
  unsigned slot = exchange(~0u, operands, kMmaAWords + kMmaBWords, "mma.sync");
  const Warp &warp = warps[currentThread() / kWarpSize];
  // PTX's m16n8k16 fragments: lane l holds A (row l / 4 [+ 8], columns
  // 2 (l % 4) [+ 8] and the next) in a0-a3, B (rows 2 (l % 4) [+ 8] and
  // the next, column l / 4) in b0-b1, C and D (row l / 4 [+ 8], columns
  // 2 (l % 4) and the next) in c0-c3.
  auto a = [&](uint32_t row, uint32_t k) {
    uint32_t lane = 4 * (row % 8) + (k % 8) / 2;
    uint32_t word = (row >= 8 ? 1 : 0) + (k >= 8 ? 2 : 0);
    return element(kind, warp.values[slot][lane][word], k % 2);
  };
  auto b = [&](uint32_t k, uint32_t column) {
    uint32_t lane = 4 * column + (k % 8) / 2;
    uint32_t word = kMmaAWords + (k >= 8 ? 1 : 0);
    return element(kind, warp.values[slot][lane][word], k % 2);
  };
  uint32_t lane = currentThread() % kWarpSize;
  const uint32_t *c = operands + kMmaAWords + kMmaBWords;
  for (uint32_t index = 0; index < 4; ++index) {
    uint32_t row = lane / 4 + (index >= 2 ? 8 : 0);
    uint32_t column = 2 * (lane % 4) + index % 2;
    // The products are exact; they add up in double, then round once.
    double sum;
    if (kind == MmaKind::F16F16) {
      sum = halfToFloat(uint16_t(c[index / 2] >> (16 * (index % 2))));
    } else {
      float accumulator;
      std::memcpy(&accumulator, &c[index], sizeof(accumulator));
      sum = accumulator;
    }
    for (uint32_t k = 0; k < 16; ++k)
      sum += double(a(row, k)) * double(b(k, column));
    if (kind == MmaKind::F16F16) {
      uint32_t half = floatToHalf(float(sum));
      if (index % 2 == 0)
        result[index / 2] = half;
      else
        result[index / 2] |= half << 16;
    } else {
      float rounded = float(sum);
      std::memcpy(&result[index], &rounded, sizeof(rounded));
    }
  }
}

void BlockScheduler::warpgroupMma(const WgmmaInstruction &instruction,
                                  uint32_t *accumulators) {
  MmaKind kind = instruction.kind;
  uint32_t thread = currentThread();
  uint32_t warp = thread % kWarpgroupSize / kWarpSize;
  uint32_t lane = thread % kWarpSize;
  // RS: the lanes of a warp exchange their A words (the warp's 16 rows).
  unsigned slot = 0;
  if (instruction.aRegisters)
    slot = exchange(~0u, instruction.aRegisters, kMmaAWords, "wgmma");
  const Warp &exchanged = warps[thread / kWarpSize];
  bool failed = false;
  // A 16-bit element of a shared operand.
  auto shared = [&](uint64_t descriptor, bool mnMajor, uint32_t mn,
                    uint32_t k) -> float {
    std::optional<uint32_t> offset = operandOffset(descriptor, mnMajor, mn, k);
    if (!offset || *offset + 2 > kSharedMemoryBytes) {
      if (!failed)
        fail("wgmma.mma_async with a descriptor (" +
             std::to_string(descriptor) +
             ") of an unsupported layout or outside shared memory");
      failed = true;
      return 0;
    }
    uint16_t bits;
    std::memcpy(&bits, sharedMemory + *offset, sizeof(bits));
    return element(kind, bits, 0);
  };
  // The thread's rows of A (warp row g and g + 8 of its warp's 16) and
  // every column of B, for the 16 k.
  uint32_t rows[2] = {16 * warp + lane / 4, 16 * warp + lane / 4 + 8};
  float a[2][16];
  for (uint32_t r = 0; r < 2; ++r) {
    for (uint32_t k = 0; k < 16; ++k) {
      if (instruction.aRegisters) {
        // As mma.sync's A: lane 4 (row % 8) + (k % 8) / 2, word
        // (row >= 8) + 2 (k >= 8).
        uint32_t source = 4 * (lane / 4) + (k % 8) / 2;
        uint32_t word = r + (k >= 8 ? 2 : 0);
        a[r][k] = element(kind, exchanged.values[slot][source][word], k % 2);
      } else {
        a[r][k] =
            shared(instruction.descriptorA, instruction.transposeA, rows[r], k);
      }
      a[r][k] *= float(instruction.scaleA);
    }
  }
  std::vector<float> b(instruction.n * 16);
  for (uint32_t column = 0; column < instruction.n; ++column)
    for (uint32_t k = 0; k < 16; ++k)
      b[column * 16 + k] =
          float(instruction.scaleB) *
          shared(instruction.descriptorB, instruction.transposeB, column, k);
  if (failed)
    return;
  // Register i: row g + 8 ((i >> 1) & 1), column 8 (i >> 2) + 2 t + (i & 1)
  // (packed by twos for an f16 D).
  for (uint32_t index = 0; index < instruction.n / 2; ++index) {
    uint32_t r = index >> 1 & 1;
    uint32_t column = 8 * (index >> 2) + 2 * (lane % 4) + (index & 1);
    double sum = 0;
    if (instruction.accumulate) {
      if (kind == MmaKind::F16F16) {
        sum = halfToFloat(
            uint16_t(accumulators[index / 2] >> (16 * (index % 2))));
      } else {
        float accumulator;
        std::memcpy(&accumulator, &accumulators[index], sizeof(accumulator));
        sum = accumulator;
      }
    }
    for (uint32_t k = 0; k < 16; ++k)
      sum += double(a[r][k]) * double(b[column * 16 + k]);
    if (kind == MmaKind::F16F16) {
      uint32_t half = floatToHalf(float(sum));
      uint32_t &word = accumulators[index / 2];
      word = index % 2 ? (word & 0xffffu) | half << 16 : half;
    } else {
      float rounded = float(sum);
      std::memcpy(&accumulators[index], &rounded, sizeof(rounded));
    }
  }
}

void tilehost::hostLoadMatrices(BlockScheduler *scheduler, uint32_t count,
                                uint32_t transpose, const char *address,
                                uint32_t *registers) {
  scheduler->loadMatrices(count, transpose != 0, address, registers);
}

void tilehost::hostMultiplyAccumulate(BlockScheduler *scheduler, uint32_t kind,
                                      const uint32_t *operands,
                                      uint32_t *result) {
  scheduler->multiplyAccumulate(MmaKind(kind), operands, result);
}

void tilehost::hostWarpgroupMma(BlockScheduler *scheduler, uint32_t n,
                                uint32_t kind, uint32_t *accumulators,
                                const uint32_t *aRegisters,
                                uint64_t descriptorA, uint64_t descriptorB,
                                uint32_t accumulate, int32_t scaleA,
                                int32_t scaleB, uint32_t transposeA,
                                uint32_t transposeB) {
  WgmmaInstruction instruction;
  instruction.n = n;
  instruction.kind = MmaKind(kind);
  instruction.descriptorA = descriptorA;
  instruction.aRegisters = aRegisters;
  instruction.descriptorB = descriptorB;
  instruction.accumulate = accumulate != 0;
  instruction.scaleA = scaleA;
  instruction.scaleB = scaleB;
  instruction.transposeA = transposeA != 0;
  instruction.transposeB = transposeB != 0;
  scheduler->warpgroupMma(instruction, accumulators);
}
