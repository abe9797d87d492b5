//===- BinaryImages.h - Verified kernel binaries ----------------*- C++ -*-===//
//
// Reads every binary a kernel's metadata names and verifies its sha256, so a
// kernel that loads has exactly the bytes its metadata describes.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_BINARYIMAGES_H
#define TILERT_LIB_BINARYIMAGES_H

#include "Metadata.h"
#include "Status.h"

#include <string>
#include <vector>

namespace tilert::detail {

/// The verified contents of one binary.
struct BinaryImage {
  /// What the bytes hold.
  BinaryKind Kind = BinaryKind::Cubin;
  /// The file they were read from.
  std::string Path;
  /// The file's bytes; c_str() gives the NUL-terminated text the PTX JIT needs.
  std::string Bytes;
};

/// Reads `metadata`'s binaries (relative to its JSON) into `out`, in metadata
/// order. A missing or unreadable file is TILERT_ERROR_IO; a digest that
/// differs from the metadata's is TILERT_ERROR_CHECKSUM.
Status loadBinaryImages(const KernelMetadata &metadata,
                        std::vector<BinaryImage> &out);

/// Copies the `count` binaries at `binaries`, one per metadata binary in
/// metadata order, into `out`, verifying each one's sha256 (the
/// metadata's path names them in messages). A count other than the
/// metadata's or a NULL pointer is TILERT_ERROR_INVALID_ARGUMENT; a digest
/// that differs is TILERT_ERROR_CHECKSUM.
Status copyBinaryImages(const KernelMetadata &metadata,
                        const tilertBinary *binaries, int32_t count,
                        std::vector<BinaryImage> &out);

} // namespace tilert::detail

#endif // TILERT_LIB_BINARYIMAGES_H
