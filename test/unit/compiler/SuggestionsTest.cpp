//===- SuggestionsTest.cpp - "Did you mean" suggestions -------------------===//

#include "compiler/Suggestions.h"

#include <catch2/catch.hpp>

using namespace tilec;

TEST_CASE("the closest candidate within a third of the name's length",
          "[suggestions]") {
  std::vector<std::string_view> Ranges = {"parallel", "pipelined", "serial",
                                          "unroll"};
  CHECK(closestName("paralel", Ranges) == "parallel");
  CHECK(closestName("serail", Ranges) == "serial");
  CHECK(closestName("xyz", Ranges).empty());
  // The name itself is no suggestion.
  CHECK(closestName("serial", Ranges).empty());
}

TEST_CASE("a swap of adjacent letters is one edit", "[suggestions]") {
  std::vector<std::string_view> Keywords = {"let",  "for",  "if",
                                            "else", "with", "return"};
  CHECK(closestName("wiht", Keywords) == "with");
  CHECK(closestName("fro", Keywords) == "for");
  CHECK(closestName("retrun", Keywords) == "return");
  CHECK(closestName("lett", Keywords) == "let");
  CHECK(closestName("total", Keywords).empty());
}

TEST_CASE("ties prefer a case-only difference, then alphabetical order",
          "[suggestions]") {
  CHECK(closestName("Max", {"max", "mix"}) == "max");
  CHECK(closestName("bx", {"by", "ax"}) == "ax");
}
