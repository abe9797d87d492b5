//===- Sha256.h - SHA-256 digests -------------------------------*- C++ -*-===//
//
// A self-contained SHA-256 (FIPS 180-4) used to verify kernel binaries against
// the digests recorded in their metadata.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_SHA256_H
#define TILERT_LIB_SHA256_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tilert::detail {

/// Incremental SHA-256 hasher.
class Sha256 {
public:
  /// A 32-byte digest.
  using Digest = std::array<uint8_t, 32>;

  Sha256();

  /// Appends `size` bytes at `data` to the message.
  void update(const void *data, size_t size);

  /// Pads the message and returns its digest. The hasher must not be used
  /// afterwards.
  Digest finish();

private:
  void processBlock(const uint8_t *block);

  std::array<uint32_t, 8> State;
  std::array<uint8_t, 64> Buffer;
  size_t BufferSize = 0;
  uint64_t TotalBytes = 0;
};

/// Returns the lowercase hex SHA-256 digest of `data`.
std::string sha256Hex(std::string_view data);

} // namespace tilert::detail

#endif // TILERT_LIB_SHA256_H
