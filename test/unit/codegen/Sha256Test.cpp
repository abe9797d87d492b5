//===- Sha256Test.cpp - SHA-256 digests -----------------------------------===//

#include "codegen/Sha256.h"

#include <catch2/catch.hpp>

TEST_CASE("SHA-256 test vectors (FIPS 180-2)", "[sha256]") {
  CHECK(tilec::sha256Hex("") ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(tilec::sha256Hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(tilec::sha256Hex(
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("SHA-256 of binary data with NUL bytes", "[sha256]") {
  std::string bytes("\0\x01\xff", 3);
  CHECK(tilec::sha256Hex(bytes).size() == 64);
  CHECK(tilec::sha256Hex(bytes) != tilec::sha256Hex(""));
}
