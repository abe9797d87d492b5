//===- SharedLayoutChoice.cpp - Which layout a shared tile gets -----------===//
//
// Why the rule of chooseSharedLayout is conflict-free (32 banks of 4 bytes:
// a warp's 16-byte accesses are served 8 lanes at a time, and 8 lanes are
// conflict-free iff their addresses lie in 8 distinct 16-byte chunks modulo
// 128 bytes; buffers start on a 128-byte boundary). Let a row have C chunks
// and M = min(8, largest power of two dividing C), P = 8 / M. The swizzle
// XORs the chunk index c of row r with s(r) = (r / P) % M < M:
//
// * cp.async writes: 8 lanes write the 8 consecutive chunks 8k..8k+7 of the
//   dense row-major order. M divides C and 8, so these chunks are whole
//   aligned groups of M chunks, which the XOR only permutes within
//   themselves: the lanes hit 8 consecutive chunks of the buffer.
// * ldmatrix reads: 8 lanes read chunk c of 8 consecutive rows. Row r starts
//   at chunk r * C; r * C mod 8 is a multiple of M, and equals that of row
//   r' iff P divides r - r' (C / M and P are coprime). Rows of one such
//   class are P apart, so their s(r) are consecutive values mod M, distinct
//   in the low log2 M bits of the chunk; rows of different classes differ
//   in the bits above. 8 distinct chunks modulo 8.
//
// For C = 8k this is the 128-byte swizzle (chunk ^= row % 8), for C = 4 the
// 64-byte one and for C = 2 the 32-byte one (TENSORCORES.md §4). Padding
// rows to an odd number of chunks also serves ldmatrix, but not cp.async
// once a warp's 8 lanes span two rows (C < 8), so it is only the fallback.
//
//===----------------------------------------------------------------------===//

#include "passes/Layout/SharedLayoutChoice.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace tilec;

/// Bytes of one vector access of the tensor-core path (cp.async, a row of
/// an ldmatrix matrix).
static constexpr int64_t kVectorBytes = 16;
/// Chunks of 16 bytes that the 32 banks of 4 bytes serve at once.
static constexpr int64_t kBankChunks = 8;

FailureOr<std::optional<tile::LayoutKind>>
tilec::getRequestedLayout(Value buffer) {
  std::optional<tile::LayoutKind> requested;
  Operation *requestedBy = nullptr;
  auto type = cast<tile::BufferType>(buffer.getType());
  if (auto layout = dyn_cast_or_null<tile::LayoutAttr>(type.getLayout())) {
    requested = layout.getKind();
    requestedBy = buffer.getDefiningOp();
  }
  // In program order, so that the error is at the later annotation.
  WalkResult result =
      buffer.getParentRegion()->walk([&](tile::AnnotateLayoutOp annotation) {
        if (annotation.getBuffer() != buffer)
          return WalkResult::advance();
        tile::LayoutKind kind = annotation.getLayout().getKind();
        if (requested && *requested != kind) {
          InFlightDiagnostic diag =
              annotation.emitOpError("asks for a ")
              << tile::stringifyLayoutKind(kind) << " layout, but the buffer "
              << "already has a " << tile::stringifyLayoutKind(*requested)
              << " one";
          if (requestedBy)
            diag.attachNote(requestedBy->getLoc()) << "asked for here";
          return WalkResult::interrupt();
        }
        requested = kind;
        requestedBy = annotation;
        return WalkResult::advance();
      });
  if (result.wasInterrupted())
    return failure();
  return requested;
}

tile::SharedLayoutAttrInterface
tilec::chooseSharedLayout(MLIRContext *context, ArrayRef<int64_t> shape,
                          unsigned elementBits,
                          std::optional<tile::LayoutKind> requested) {
  if (shape.empty() || shape.back() < 1 ||
      !llvm::is_contained({8u, 16u, 32u, 64u}, elementBits))
    return {};
  int64_t vec = kVectorBytes * 8 / elementBits;
  int64_t rowBytes = shape.back() * elementBits / 8;
  tile::LayoutKind kind = requested.value_or(tile::LayoutKind::Swizzled);
  if (kind == tile::LayoutKind::Linear)
    return tile::PaddedLayoutAttr::get(context, 0);
  if (kind == tile::LayoutKind::Padded) {
    // The next odd number of chunks: 8 consecutive rows then start in 8
    // distinct chunks modulo 128 bytes.
    int64_t chunks = llvm::divideCeil(rowBytes, kVectorBytes) | 1;
    return tile::PaddedLayoutAttr::get(context, chunks * vec - shape.back());
  }
  if (rowBytes % kVectorBytes != 0)
    return requested ? tile::SharedLayoutAttrInterface()
                     : tile::PaddedLayoutAttr::get(context, 0);
  int64_t chunks = rowBytes / kVectorBytes;
  int64_t maxPhase = std::min<int64_t>(kBankChunks, chunks & -chunks);
  if (maxPhase == 1 && !requested)
    return tile::PaddedLayoutAttr::get(context, 0);
  // A tile of fewer rows than one period of the swizzle is no ldmatrix or
  // wgmma operand (those read 8 rows at a time), and its 16-byte accesses in
  // row-major order are conflict-free as they are. Left plain, it can be
  // staged by a pipelined loop (stages must hold whole periods).
  int64_t rows = 1;
  for (int64_t extent : shape.drop_back())
    rows *= extent;
  if (rows < kBankChunks && !requested)
    return tile::PaddedLayoutAttr::get(context, 0);
  // Rows longer than 128 bytes are cut into 128-byte panels (rank 2 and
  // more): the layout TMA boxes write and wgmma descriptors describe, and as
  // free of conflicts as whole rows.
  int64_t panel = 0;
  if (maxPhase == kBankChunks && chunks > kBankChunks && shape.size() >= 2)
    panel = kBankChunks * vec;
  return tile::SwizzledLayoutAttr::get(context, vec, kBankChunks / maxPhase,
                                       maxPhase, panel);
}
