//===- KernelObject.cpp - What a tilertKernel handle holds ------*- C++ -*-===//

#include "KernelObject.h"

namespace tilert::detail {

Status loadKernel(const std::string &path,
                  std::unique_ptr<tilertKernel_st> &out) {
  auto Kernel = std::make_unique<tilertKernel_st>();
  TILERT_TRY(loadMetadata(path, Kernel->Metadata));
  TILERT_TRY(loadBinaryImages(Kernel->Metadata, Kernel->Images));
  const KernelMetadata &Metadata = Kernel->Metadata;
  for (const TensorParam &Tensor : Metadata.Tensors) {
    std::vector<const char *> Names;
    std::vector<int64_t> Values;
    for (const ShapeEntry &Entry : Tensor.Shape) {
      Names.push_back(Entry.Dim >= 0 ? Metadata.Dims[Entry.Dim].c_str()
                                     : nullptr);
      Values.push_back(Entry.Dim >= 0 ? -1 : Entry.Value);
    }
    Kernel->ShapeNames.push_back(std::move(Names));
    Kernel->ShapeValues.push_back(std::move(Values));
  }
  out = std::move(Kernel);
  return Status::success();
}

} // namespace tilert::detail
