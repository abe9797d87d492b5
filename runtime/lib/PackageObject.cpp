//===- PackageObject.cpp - What a tilertPackage handle holds ----*- C++ -*-===//

#include "PackageObject.h"

#include "DType.h"
#include "FileIO.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace tilert::detail {

namespace {

namespace fs = std::filesystem;

/// "variant 'NAME' (ARCH)", as messages name a variant.
std::string describeVariant(const PackageVariantInfo &variant) {
  return strCat("variant '", variant.Name, "' (", variant.Target.Name, ")");
}

std::string describeShape(const KernelMetadata &metadata,
                          const TensorParam &tensor) {
  std::vector<std::string> Entries;
  for (const ShapeEntry &Entry : tensor.Shape)
    Entries.push_back(Entry.Dim >= 0 ? metadata.Dims[Entry.Dim]
                                     : std::to_string(Entry.Value));
  return "[" + joinNames(Entries) + "]";
}

template <typename Param>
std::vector<std::string> paramNames(const std::vector<Param> &params) {
  std::vector<std::string> Names;
  for (const Param &Each : params)
    Names.push_back(Each.Name);
  return Names;
}

bool sameShape(const TensorParam &a, const TensorParam &b) {
  return std::equal(
      a.Shape.begin(), a.Shape.end(), b.Shape.begin(), b.Shape.end(),
      [](const ShapeEntry &x, const ShapeEntry &y) {
        return x.Dim == y.Dim && (x.Dim >= 0 || x.Value == y.Value);
      });
}

/// Checks that `variant` has the launch signature of `first`: the same
/// tensors (name, dtype, shape), dims and scalars (name, dtype). `where`
/// prefixes every message.
Status checkSignature(const PackageVariant &first,
                      const PackageVariant &variant, const std::string &where) {
  const KernelMetadata &Want = first.Metadata;
  const KernelMetadata &Got = variant.Metadata;
  std::string Other = describeVariant(first.Info);
  auto Mismatch = [&](const auto &...parts) {
    return makeError(TILERT_ERROR_METADATA, where, parts...,
                     " (every variant of a package must have the kernel's "
                     "launch signature)");
  };
  if (Got.Dims != Want.Dims)
    return Mismatch("has the dims (", joinNames(Got.Dims), ") but ", Other,
                    " has (", joinNames(Want.Dims), ")");
  // Tensors and scalars: the same count, names and dtypes in order.
  auto CheckParams = [&](const auto &GotParams, const auto &WantParams,
                         const char *What) -> Status {
    if (GotParams.size() != WantParams.size())
      return Mismatch("has ", GotParams.size(), " ", What, "s (",
                      joinNames(paramNames(GotParams)), ") but ", Other,
                      " has ", WantParams.size(), " (",
                      joinNames(paramNames(WantParams)), ")");
    for (size_t I = 0; I < WantParams.size(); ++I) {
      const auto &A = GotParams[I], &B = WantParams[I];
      if (A.Name != B.Name)
        return Mismatch("has ", What, " '", A.Name, "' at index ", I, " but ",
                        Other, " has ", What, " '", B.Name, "'");
      if (A.DType != B.DType)
        return Mismatch(What, " '", A.Name, "' has dtype ",
                        dtypeName(A.DType), " but in ", Other, " it has ",
                        dtypeName(B.DType));
    }
    return Status::success();
  };
  TILERT_TRY(CheckParams(Got.Tensors, Want.Tensors, "tensor"));
  for (size_t I = 0; I < Want.Tensors.size(); ++I) {
    const TensorParam &A = Got.Tensors[I], &B = Want.Tensors[I];
    if (A.Shape.size() != B.Shape.size() || !sameShape(A, B))
      return Mismatch("tensor '", A.Name, "' has shape ", describeShape(Got, A),
                      " but in ", Other, " it has ", describeShape(Want, B));
  }
  TILERT_TRY(CheckParams(Got.Scalars, Want.Scalars, "scalar"));
  return Status::success();
}

/// Reads the metadata of `info` into `out` and checks that it describes the
/// variant the index says: kernel `kernel`, the variant's arch, and the cubin
/// among its binaries.
Status loadVariant(const PackageVariantInfo &info, const std::string &kernel,
                   const std::string &where, PackageVariant &out) {
  out.Info = info;
  TILERT_TRY(loadMetadata(info.MetadataPath, out.Metadata).withPrefix(where));
  const KernelMetadata &Metadata = out.Metadata;
  if (Metadata.Name != kernel)
    return makeError(TILERT_ERROR_METADATA, where, "its metadata '",
                     info.MetadataPath, "' is of kernel '", Metadata.Name,
                     "', not the package's kernel '", kernel, "'");
  if (Metadata.Target.Name != info.Target.Name)
    return makeError(TILERT_ERROR_METADATA, where, "its metadata '",
                     info.MetadataPath, "' is for ", Metadata.Target.Name,
                     ", not ", info.Target.Name);
  fs::path Cubin = fs::path(info.CubinPath).lexically_normal();
  std::vector<std::string> Files;
  for (const BinaryInfo &Binary : Metadata.Binaries) {
    fs::path File = fs::path(siblingPath(Metadata.Path, Binary.File));
    if (Binary.Kind == BinaryKind::Cubin && File.lexically_normal() == Cubin)
      return Status::success();
    Files.push_back(File.string());
  }
  return makeError(TILERT_ERROR_METADATA, where, "its cubin '", info.CubinPath,
                   "' (files.cubin) is not the cubin its metadata names (",
                   joinNames(Files), ")");
}

bool sameBinding(const KernelMetadata &signature,
                 const KernelMetadata &metadata) {
  for (size_t I = 0; I < signature.Tensors.size(); ++I)
    if (signature.Tensors[I].Alignment != metadata.Tensors[I].Alignment)
      return false;
  return true;
}

/// Makes `package`'s signature from its variants (whose signatures agree).
void describeSignature(tilertPackage_st &package, const std::string &path) {
  KernelMetadata &Signature = package.Signature;
  const KernelMetadata &First = package.Variants.front().Metadata;
  Signature.Path = path;
  Signature.Name = First.Name;
  Signature.Tensors = First.Tensors;
  Signature.Dims = First.Dims;
  Signature.Scalars = First.Scalars;
  for (const PackageVariant &Variant : package.Variants)
    for (size_t I = 0; I < Signature.Tensors.size(); ++I)
      Signature.Tensors[I].Alignment =
          std::min(Signature.Tensors[I].Alignment,
                   Variant.Metadata.Tensors[I].Alignment);
  for (PackageVariant &Variant : package.Variants)
    Variant.BindsLikeSignature = sameBinding(Signature, Variant.Metadata);
  describeShapes(Signature, package.ShapeNames, package.ShapeValues);
}

} // namespace

Status openPackage(const std::string &dir,
                   std::unique_ptr<tilertPackage_st> &out) {
  auto Package = std::make_unique<tilertPackage_st>();
  Package->Directory = dir;
  std::string IndexPath = (fs::path(dir) / PackageIndexFile).string();
  std::string IndexText;
  TILERT_TRY(readFile(IndexPath, IndexText));
  TILERT_TRY(parsePackageIndex(IndexText, IndexPath, Package->Index));
  const PackageIndex &Index = Package->Index;
  for (const PackageVariantInfo &Info : Index.Variants) {
    std::string Where = strCat(IndexPath, ": ", describeVariant(Info), ": ");
    PackageVariant Variant;
    TILERT_TRY(loadVariant(Info, Index.Kernel, Where, Variant));
    if (!Package->Variants.empty())
      TILERT_TRY(checkSignature(Package->Variants.front(), Variant, Where));
    Package->Variants.push_back(std::move(Variant));
  }
  describeSignature(*Package, IndexPath);

  std::string TuningPath = (fs::path(dir) / TuningDatabaseFile).string();
  std::error_code Error;
  if (fs::exists(TuningPath, Error)) {
    std::string TuningText;
    TILERT_TRY(readFile(TuningPath, TuningText));
    TILERT_TRY(parseTuningDatabase(TuningText, TuningPath, Index,
                                   Package->Signature.Dims, IndexText,
                                   Package->Tuning));
    Package->Tuned = true;
  }
  out = std::move(Package);
  return Status::success();
}

} // namespace tilert::detail
