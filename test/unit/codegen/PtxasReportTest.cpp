//===- PtxasReportTest.cpp - Parsing `ptxas -v` reports -------------------===//

#include "codegen/PtxasReport.h"

#include <catch2/catch.hpp>

using tilec::parsePtxasReport;
using tilec::PtxasResources;

TEST_CASE("ptxas report of an sm_80 kernel with smem and cmem", "[ptxas]") {
  const char *report =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
      "ptxas info    : Function properties for k\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 14 registers, used 1 barriers, 1024 bytes smem, "
      "368 bytes cmem[0]\n"
      "ptxas info    : Compile time = 11.587 ms\n";
  auto entries = parsePtxasReport(report);
  REQUIRE(entries.size() == 1);
  const PtxasResources &k = entries.find("k")->second;
  CHECK(k.registers == 14);
  CHECK(k.barriers == 1);
  CHECK(k.staticSmem == 1024);
  CHECK(k.spillStores == 0);
  CHECK(k.spillLoads == 0);
  CHECK(k.localBytes == 0);
}

TEST_CASE("ptxas report with spills, a stack and a callee", "[ptxas]") {
  const char *report =
      "ptxas warning : For profile sm_80 adjusting per thread register count "
      "of 16 to lower bound of 24\n"
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'k2' for 'sm_80'\n"
      "ptxas info    : Function properties for k2\n"
      "    256 bytes stack frame, 40 bytes spill stores, 36 bytes spill loads\n"
      "ptxas info    : Used 24 registers, used 0 barriers, 288 bytes "
      "cumulative stack size, 364 bytes cmem[0]\n"
      "ptxas info    : Compile time = 2.014 ms\n"
      "ptxas info    : Function properties for helper\n"
      "    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";
  auto entries = parsePtxasReport(report);
  REQUIRE(entries.size() == 1);
  const PtxasResources &k = entries.find("k2")->second;
  CHECK(k.registers == 24);
  CHECK(k.spillStores == 40);
  CHECK(k.spillLoads == 36);
  // The cumulative stack (callees included) exceeds the entry's own frame.
  CHECK(k.localBytes == 288);
  CHECK(k.staticSmem == 0);
}

TEST_CASE("ptxas report with several entries for sm_90a", "[ptxas]") {
  const char *report =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'a' for 'sm_90a'\n"
      "ptxas info    : Function properties for a\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 18 registers, used 0 barriers\n"
      "ptxas info    : Compiling entry function 'b' for 'sm_90a'\n"
      "ptxas info    : Function properties for b\n"
      "    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 40 registers, used 1 barriers, 49152 bytes smem\n";
  auto entries = parsePtxasReport(report);
  REQUIRE(entries.size() == 2);
  CHECK(entries.find("a")->second.registers == 18);
  CHECK(entries.find("a")->second.localBytes == 0);
  CHECK(entries.find("b")->second.registers == 40);
  CHECK(entries.find("b")->second.localBytes == 16);
  CHECK(entries.find("b")->second.staticSmem == 49152);
}

TEST_CASE("text without a report has no entries", "[ptxas]") {
  CHECK(parsePtxasReport("").empty());
  CHECK(parsePtxasReport("ptxas fatal   : Unresolved extern function 'f'\n")
            .empty());
}

TEST_CASE("ptxas report with numbered notes on serialized wgmma", "[ptxas]") {
  const char *report =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'gemm' for 'sm_90a'\n"
      "ptxas info    : (C7519) warpgroup.arrive is injected in around line "
      "803 by compiler to allow use of registers in GMMA in function 'gemm'\n"
      "ptxas info    : (C7520) Potential Performance Loss: wgmma.mma_async "
      "instructions are serialized due to program dependence on "
      "compiler-inserted WG.AR in divergent path in the function 'gemm'\n"
      "ptxas info    : (C7508) a note that names no function\n"
      "ptxas info    : (not a note) in function 'gemm'\n"
      "ptxas info    : Function properties for gemm\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 168 registers, used 2 barriers\n"
      "ptxas info    : Compiling entry function 'clean' for 'sm_90a'\n"
      "ptxas info    : Function properties for clean\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 8 registers, used 0 barriers\n";
  auto entries = parsePtxasReport(report);
  REQUIRE(entries.size() == 2);
  const PtxasResources &gemm = entries.find("gemm")->second;
  CHECK(gemm.registers == 168);
  REQUIRE(gemm.performanceWarnings.size() == 3);
  CHECK(gemm.performanceWarnings[0] ==
        "C7519: warpgroup.arrive is injected in around line 803 by compiler "
        "to allow use of registers in GMMA");
  CHECK(gemm.performanceWarnings[1] ==
        "C7520: Potential Performance Loss: wgmma.mma_async instructions are "
        "serialized due to program dependence on compiler-inserted WG.AR in "
        "divergent path");
  // A note without a function belongs to the entry being compiled.
  CHECK(gemm.performanceWarnings[2] == "C7508: a note that names no function");
  CHECK(entries.find("clean")->second.performanceWarnings.empty());
}
