//===- DepFileTest.cpp - Make-style dependency files ----------------------===//

#include "compiler/DepFile.h"

#include <catch2/catch.hpp>

using namespace tilec;

TEST_CASE("plain paths are written as they are", "[depfile]") {
  CHECK(escapeMakePath("out/vector_add.sm_90a.cubin") ==
        "out/vector_add.sm_90a.cubin");
  CHECK(escapeMakePath("/a/b-c_d+e.tile") == "/a/b-c_d+e.tile");
  CHECK(escapeMakePath("C:\\dir\\k.tile") == "C:\\dir\\k.tile");
}

TEST_CASE("spaces, hashes and dollars are escaped as clang does", "[depfile]") {
  CHECK(escapeMakePath("my dir/k.tile") == "my\\ dir/k.tile");
  CHECK(escapeMakePath("a#b") == "a\\#b");
  CHECK(escapeMakePath("$HOME/k") == "$$HOME/k");
  // Backslashes in front of a space are doubled, so that Make does not read
  // them as the escape.
  CHECK(escapeMakePath("a\\ b") == "a\\\\\\ b");
  CHECK(escapeMakePath("a\\\\#b") == "a\\\\\\\\\\#b");
}

TEST_CASE("a rule lists the targets, a colon, then the prerequisites",
          "[depfile]") {
  CHECK(formatMakeRule({"o/k.sm_80.cubin", "o/k.sm_80.json"}, {"/s/k.tile"}) ==
        "o/k.sm_80.cubin o/k.sm_80.json: /s/k.tile\n");
  CHECK(formatMakeRule({"o/a b.json"}, {"x y.tile", "z.tile"}) ==
        "o/a\\ b.json: x\\ y.tile z.tile\n");
  CHECK(formatMakeRule({"o/k.json"}, {}) == "o/k.json:\n");
}
