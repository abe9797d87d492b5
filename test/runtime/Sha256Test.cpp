//===- Sha256Test.cpp - SHA-256 against known digests ---------------------===//

#include "Sha256.h"

#include <catch2/catch.hpp>

using tilert::detail::Sha256;
using tilert::detail::sha256Hex;

TEST_CASE("sha256 matches the FIPS 180-4 examples", "[sha256]") {
  CHECK(sha256Hex("") ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256Hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sha256Hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256 pads correctly around block boundaries", "[sha256]") {
  // Digests of N 'x' bytes, from coreutils sha256sum.
  const std::pair<size_t, const char *> Cases[] = {
      {55, "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"},
      {56, "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e"},
      {63, "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2"},
      {64, "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"},
      {65, "9537c5fdf120482f7d58d25e9ed583f52c02b4e304ea814db1633ad565aed7e9"},
      {119, "000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029e0d9fa5fb0c"},
      {120, "13f05a0b594787f5ecd315edc96141bd3243203d1b7d4f0836f37308b276ba98"},
  };
  for (const auto &[Length, Digest] : Cases) {
    INFO("length " << Length);
    CHECK(sha256Hex(std::string(Length, 'x')) == Digest);
  }
}

TEST_CASE("incremental sha256 equals one-shot sha256", "[sha256]") {
  std::string Message;
  for (int I = 0; I < 1000; ++I)
    Message.push_back(static_cast<char>(I * 37 + 11));
  std::string Expected = sha256Hex(Message);
  for (size_t Chunk : {1u, 3u, 63u, 64u, 65u, 200u}) {
    Sha256 Hasher;
    for (size_t Offset = 0; Offset < Message.size(); Offset += Chunk)
      Hasher.update(Message.data() + Offset,
                    std::min(Chunk, Message.size() - Offset));
    std::string Hex;
    for (uint8_t Byte : Hasher.finish()) {
      static constexpr char Digits[] = "0123456789abcdef";
      Hex += Digits[Byte >> 4];
      Hex += Digits[Byte & 15];
    }
    INFO("chunk " << Chunk);
    CHECK(Hex == Expected);
  }
}
