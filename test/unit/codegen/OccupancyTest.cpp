//===- OccupancyTest.cpp - Resident blocks and their search ---------------===//

#include "codegen/Occupancy.h"

#include <catch2/catch.hpp>

#include <vector>

using namespace tilec;

namespace {
const TargetDescription &hopper() { return *lookupTarget("sm_90a"); }
const TargetDescription &ada() { return *lookupTarget("sm_89"); }

/// A kernel whose ptxas, under `.minnctapersm B`, allots the registers that
/// fit B blocks of 256 threads and spills below `fewestRegisters`.
struct FakePtxas {
  unsigned fewestRegisters;
  std::vector<unsigned> asked;

  llvm::Expected<AssembledKernel> operator()(unsigned blocks) {
    asked.push_back(blocks);
    AssembledKernel kernel;
    kernel.ptx = ".minnctapersm " + std::to_string(blocks);
    kernel.minBlocks = blocks;
    // 8 warps a block; 4 sub-partitions of 16384 registers.
    unsigned warpsPerSubPartition = (blocks * 8 + 3) / 4;
    unsigned registers = 16384 / warpsPerSubPartition / 32 / 8 * 8;
    kernel.resources.registers = std::min(registers, 255u);
    if (kernel.resources.registers < fewestRegisters) {
      kernel.resources.registers = fewestRegisters;
      kernel.resources.spillStores = 44;
      kernel.resources.spillLoads = 44;
    }
    return kernel;
  }
};

AssembledKernel firstAssembly(unsigned registers) {
  AssembledKernel kernel;
  kernel.resources.registers = registers;
  return kernel;
}
} // namespace

TEST_CASE("resident blocks: the register limit", "[occupancy]") {
  // 256 threads: 8 warps. 62 registers are allotted as 64 (2048 a warp), so
  // a sub-partition holds 8 warps, the multiprocessor 32: 4 blocks.
  CHECK(getResidentBlocks(hopper(), {256, 62, 160}) == 4);
  CHECK(getResidentBlocks(hopper(), {256, 47, 160}) == 5);
  CHECK(getResidentBlocks(hopper(), {256, 40, 160}) == 6);
  CHECK(getResidentBlocks(hopper(), {256, 32, 160}) == 8);
  CHECK(getResidentBlocks(hopper(), {1024, 255, 0}) == 0);
  CHECK(getResidentBlocks(hopper(), {128, 168, 0}) == 3);
}

TEST_CASE("resident blocks: threads, blocks and shared memory", "[occupancy]") {
  CHECK(getResidentBlocksWithoutRegisterLimit(hopper(), {256, 0, 0}) == 8);
  CHECK(getResidentBlocksWithoutRegisterLimit(hopper(), {32, 0, 0}) == 32);
  // sm_89: 1536 threads and 24 blocks.
  CHECK(getResidentBlocksWithoutRegisterLimit(ada(), {256, 0, 0}) == 6);
  CHECK(getResidentBlocksWithoutRegisterLimit(ada(), {32, 0, 0}) == 24);
  // Partial warps take whole warps.
  CHECK(getResidentBlocksWithoutRegisterLimit(hopper(), {100, 0, 0}) == 16);
  // 227 KiB a block, 1 KiB reserved for each: two 100 KiB blocks fit, three
  // do not.
  CHECK(getResidentBlocksWithoutRegisterLimit(hopper(), {128, 0, 100 << 10}) ==
        2);
  CHECK(getResidentBlocksWithoutRegisterLimit(hopper(), {128, 0, 228 << 10}) ==
        0);
  CHECK(getResidentBlocks(hopper(), {0, 32, 0}) == 0);
}

TEST_CASE("raiseResidentBlocks finds the most blocks without spills",
          "[occupancy]") {
  FakePtxas ptxas{40, {}};
  llvm::Expected<std::optional<AssembledKernel>> raised =
      raiseResidentBlocks(hopper(), 256, 160, firstAssembly(62),
                          [&](unsigned blocks) { return ptxas(blocks); });
  REQUIRE(static_cast<bool>(raised));
  REQUIRE(raised->has_value());
  CHECK((*raised)->ptx == ".minnctapersm 6");
  CHECK((*raised)->minBlocks == 6);
  CHECK((*raised)->resources.registers == 40);
  // Bisection over 5..8: a handful of ptxas runs, never the first's count.
  CHECK(ptxas.asked.size() <= 3);
  for (unsigned blocks : ptxas.asked)
    CHECK(blocks > 4);
}

TEST_CASE("raiseResidentBlocks keeps a kernel it cannot improve",
          "[occupancy]") {
  SECTION("every higher count spills") {
    FakePtxas ptxas{64, {}};
    auto raised =
        raiseResidentBlocks(hopper(), 256, 0, firstAssembly(62),
                            [&](unsigned blocks) { return ptxas(blocks); });
    REQUIRE(static_cast<bool>(raised));
    CHECK(!raised->has_value());
  }
  SECTION("the threads already limit it") {
    FakePtxas ptxas{0, {}};
    auto raised =
        raiseResidentBlocks(hopper(), 256, 0, firstAssembly(32),
                            [&](unsigned blocks) { return ptxas(blocks); });
    REQUIRE(static_cast<bool>(raised));
    CHECK(!raised->has_value());
    CHECK(ptxas.asked.empty());
  }
  SECTION("the first assembly spills") {
    FakePtxas ptxas{0, {}};
    AssembledKernel first = firstAssembly(255);
    first.resources.spillStores = 8;
    auto raised =
        raiseResidentBlocks(hopper(), 256, 0, first,
                            [&](unsigned blocks) { return ptxas(blocks); });
    REQUIRE(static_cast<bool>(raised));
    CHECK(!raised->has_value());
    CHECK(ptxas.asked.empty());
  }
}

TEST_CASE("raiseResidentBlocks returns the errors of ptxas", "[occupancy]") {
  auto raised =
      raiseResidentBlocks(hopper(), 256, 0, firstAssembly(62),
                          [](unsigned) -> llvm::Expected<AssembledKernel> {
                            return llvm::createStringError("ptxas failed");
                          });
  REQUIRE(!raised);
  CHECK(llvm::toString(raised.takeError()) == "ptxas failed");
}
