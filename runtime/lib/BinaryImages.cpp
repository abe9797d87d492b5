//===- BinaryImages.cpp - Verified kernel binaries --------------*- C++ -*-===//

#include "BinaryImages.h"

#include "FileIO.h"
#include "Sha256.h"

namespace tilert::detail {

Status loadBinaryImages(const KernelMetadata &metadata,
                        std::vector<BinaryImage> &out) {
  std::vector<BinaryImage> Images;
  for (size_t I = 0; I < metadata.Binaries.size(); ++I) {
    const BinaryInfo &Info = metadata.Binaries[I];
    BinaryImage Image{Info.Kind, siblingPath(metadata.Path, Info.File), {}};
    Status Read = readFile(Image.Path, Image.Bytes);
    if (!Read.ok())
      return Read.withPrefix(strCat(metadata.Path, ": binaries[", I, "] (",
                                    binaryKindName(Info.Kind), "): "));
    std::string Digest = sha256Hex(Image.Bytes);
    if (Digest != Info.Sha256)
      return makeError(TILERT_ERROR_CHECKSUM, metadata.Path, ": binaries[", I,
                       "]: sha256 of '", Image.Path, "' is ", Digest,
                       " but the metadata records ", Info.Sha256);
    Images.push_back(std::move(Image));
  }
  out = std::move(Images);
  return Status::success();
}

} // namespace tilert::detail
