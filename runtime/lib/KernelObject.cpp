//===- KernelObject.cpp - What a tilertKernel handle holds ------*- C++ -*-===//

#include "KernelObject.h"

namespace tilert::detail {

namespace {

/// Fills the parameter tables of `kernel`, whose metadata is loaded.
void describeShapes(tilertKernel_st &kernel) {
  const KernelMetadata &Metadata = kernel.Metadata;
  for (const TensorParam &Tensor : Metadata.Tensors) {
    std::vector<const char *> Names;
    std::vector<int64_t> Values;
    for (const ShapeEntry &Entry : Tensor.Shape) {
      Names.push_back(Entry.Dim >= 0 ? Metadata.Dims[Entry.Dim].c_str()
                                     : nullptr);
      Values.push_back(Entry.Dim >= 0 ? -1 : Entry.Value);
    }
    kernel.ShapeNames.push_back(std::move(Names));
    kernel.ShapeValues.push_back(std::move(Values));
  }
}

} // namespace

Status loadKernel(const std::string &path,
                  std::unique_ptr<tilertKernel_st> &out) {
  auto Kernel = std::make_unique<tilertKernel_st>();
  TILERT_TRY(loadMetadata(path, Kernel->Metadata));
  TILERT_TRY(loadBinaryImages(Kernel->Metadata, Kernel->Images));
  describeShapes(*Kernel);
  out = std::move(Kernel);
  return Status::success();
}

Status loadKernelFromMemory(std::string_view json, const std::string &name,
                            const tilertBinary *binaries, int32_t count,
                            std::unique_ptr<tilertKernel_st> &out) {
  auto Kernel = std::make_unique<tilertKernel_st>();
  TILERT_TRY(parseMetadata(json, name, Kernel->Metadata));
  TILERT_TRY(
      copyBinaryImages(Kernel->Metadata, binaries, count, Kernel->Images));
  describeShapes(*Kernel);
  out = std::move(Kernel);
  return Status::success();
}

} // namespace tilert::detail
