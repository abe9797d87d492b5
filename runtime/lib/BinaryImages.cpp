//===- BinaryImages.cpp - Verified kernel binaries --------------*- C++ -*-===//

#include "BinaryImages.h"

#include "FileIO.h"
#include "Sha256.h"

namespace tilert::detail {

namespace {

/// Checks that `image` (binary `index` of `metadata`) has the metadata's
/// digest.
Status checkDigest(const KernelMetadata &metadata, size_t index,
                   const BinaryImage &image) {
  const BinaryInfo &Info = metadata.Binaries[index];
  std::string Digest = sha256Hex(image.Bytes);
  if (Digest != Info.Sha256)
    return makeError(TILERT_ERROR_CHECKSUM, metadata.Path, ": binaries[", index,
                     "]: sha256 of '", image.Path, "' is ", Digest,
                     " but the metadata records ", Info.Sha256);
  return Status::success();
}

} // namespace

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
    TILERT_TRY(checkDigest(metadata, I, Image));
    Images.push_back(std::move(Image));
  }
  out = std::move(Images);
  return Status::success();
}

Status copyBinaryImages(const KernelMetadata &metadata,
                        const tilertBinary *binaries, int32_t count,
                        std::vector<BinaryImage> &out) {
  if (count < 0 || static_cast<size_t>(count) != metadata.Binaries.size())
    return makeError(TILERT_ERROR_INVALID_ARGUMENT, metadata.Path, ": ", count,
                     " binaries given but the metadata names ",
                     metadata.Binaries.size());
  if (count > 0 && !binaries)
    return makeError(TILERT_ERROR_INVALID_ARGUMENT, metadata.Path,
                     ": the binary array is NULL");
  std::vector<BinaryImage> Images;
  for (size_t I = 0; I < metadata.Binaries.size(); ++I) {
    const BinaryInfo &Info = metadata.Binaries[I];
    if (!binaries[I].data && binaries[I].size)
      return makeError(TILERT_ERROR_INVALID_ARGUMENT, metadata.Path,
                       ": binaries[", I, "] has ", binaries[I].size,
                       " bytes at NULL");
    BinaryImage Image{Info.Kind, strCat(metadata.Path, ":", Info.File), {}};
    if (binaries[I].size)
      Image.Bytes.assign(static_cast<const char *>(binaries[I].data),
                         binaries[I].size);
    TILERT_TRY(checkDigest(metadata, I, Image));
    Images.push_back(std::move(Image));
  }
  out = std::move(Images);
  return Status::success();
}

} // namespace tilert::detail
