//===- CacheManifestTest.cpp - Tests of compile cache manifests -----------===//

#include "compiler/Cache/CacheManifest.h"

#include <catch2/catch.hpp>

using namespace tilec;

namespace {
const std::string Hash(64, 'c');

CacheManifest getManifest() {
  CacheManifest Manifest;
  Manifest.Key = std::string(64, 'a');
  Manifest.Files = {{"gemm.sm_90a.cubin", "0-gemm.sm_90a.cubin", 61336, Hash},
                    {"gemm.sm_90a.json", "1-gemm.sm_90a.json", 1753, Hash}};
  Manifest.Messages = {"gemm sm_90a: 168 registers"};
  Manifest.Inputs = {{"kernel", "gemm"}};
  return Manifest;
}

/// Parses `Text` and returns the problem ("" if none).
std::string problemOf(const std::string &Text) {
  CacheManifest Manifest;
  return parseCacheManifest(Text, Manifest);
}

/// Returns the text of getManifest() with `From` replaced by `To`.
std::string edited(const std::string &From, const std::string &To) {
  std::string Text = printCacheManifest(getManifest());
  std::size_t At = Text.find(From);
  REQUIRE(At != std::string::npos);
  return Text.replace(At, From.size(), To);
}
} // namespace

TEST_CASE("cache manifest: round trip", "[cache]") {
  std::string Text = printCacheManifest(getManifest());
  CacheManifest Parsed;
  REQUIRE(parseCacheManifest(Text, Parsed) == "");
  CHECK(Parsed.Key == getManifest().Key);
  REQUIRE(Parsed.Files.size() == 2);
  CHECK(Parsed.Files[0].Name == "gemm.sm_90a.cubin");
  CHECK(Parsed.Files[0].Stored == "0-gemm.sm_90a.cubin");
  CHECK(Parsed.Files[0].Size == 61336);
  CHECK(Parsed.Files[1].Sha256 == Hash);
  CHECK(Parsed.Messages == getManifest().Messages);
  CHECK(Parsed.Inputs["kernel"] == "gemm");
  CHECK(printCacheManifest(Parsed) == Text);
}

TEST_CASE("cache manifest: damaged ones are refused", "[cache]") {
  CHECK(problemOf("") == "the manifest is not valid JSON");
  CHECK(problemOf("{\"format\": ") == "the manifest is not valid JSON");
  std::string Text = printCacheManifest(getManifest());
  CHECK(problemOf(Text.substr(0, Text.size() / 2)) ==
        "the manifest is not valid JSON");
  CHECK(problemOf("[]") == "the manifest is not a JSON object");
  CHECK(problemOf(edited("tilec-cache-entry/1", "tilec-cache-entry/2")) ==
        "the manifest's format is not 'tilec-cache-entry/1'");
  CHECK(problemOf(edited(std::string(64, 'a'), "aa")) ==
        "the manifest's key is not 64 hex digits");
  CHECK(problemOf(edited("\"files\": [", "\"files\": 1, \"x\": [")) ==
        "the manifest has no list of files");
  CHECK(problemOf(edited("\"messages\"", "\"notes\"")) ==
        "the manifest has no list of messages");
  CHECK(problemOf(edited("61336", "-1")) == "the manifest's file 1 has no size");
  CHECK(problemOf(edited("61336", "\"61336\"")) ==
        "the manifest's file 1 has no size");
  CHECK(problemOf(edited("\"name\": \"gemm.sm_90a.json\"", "\"name\": 3")) ==
        "the manifest's file 2 has no name");
  CHECK(problemOf(edited(Hash, "C" + Hash.substr(1))) ==
        "the manifest's file 1 has no SHA-256 of 64 hex digits");
  CHECK(problemOf(edited("\"0-gemm.sm_90a.cubin\"", "\"../x\"")) ==
        "the manifest's file 1 has the stored name '../x', which is not a "
        "file of the entry");
  CHECK(problemOf(edited("\"0-gemm.sm_90a.cubin\"", "\"manifest.json\"")) ==
        "the manifest's file 1 has the stored name 'manifest.json', which "
        "is not a file of the entry");
  CHECK(problemOf(edited("\"0-gemm.sm_90a.cubin\"",
                         "\"1-gemm.sm_90a.json\"")) ==
        "the manifest stores two files as '1-gemm.sm_90a.json'");
  CHECK(problemOf(edited("\"gemm.sm_90a.json\"", "\"gemm.sm_90a.cubin\"")) ==
        "the manifest names 'gemm.sm_90a.cubin' twice");
  CHECK(problemOf(edited("\"gemm sm_90a: 168 registers\"", "7")) ==
        "the manifest's messages are not all strings");
}

TEST_CASE("cache manifest: stored names are plain file names", "[cache]") {
  CHECK(getStoredFileName(0, "gemm.sm_90a.cubin") == "0-gemm.sm_90a.cubin");
  CHECK(getStoredFileName(12, "a b/c\xff") == "12-a_b_c_");
  CHECK(isValidManifestString("gemm"));
  CHECK_FALSE(isValidManifestString("\xff"));
}
