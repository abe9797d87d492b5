//===- KernelObject.cpp - What a tilertKernel handle holds ------*- C++ -*-===//

#include "KernelObject.h"

namespace tilert::detail {

void describeShapes(const KernelMetadata &metadata,
                    std::vector<std::vector<const char *>> &names,
                    std::vector<std::vector<int64_t>> &values) {
  names.clear();
  values.clear();
  for (const TensorParam &Tensor : metadata.Tensors) {
    std::vector<const char *> Names;
    std::vector<int64_t> Values;
    for (const ShapeEntry &Entry : Tensor.Shape) {
      Names.push_back(Entry.Dim >= 0 ? metadata.Dims[Entry.Dim].c_str()
                                     : nullptr);
      Values.push_back(Entry.Dim >= 0 ? -1 : Entry.Value);
    }
    names.push_back(std::move(Names));
    values.push_back(std::move(Values));
  }
}

Status makeKernel(KernelMetadata metadata,
                  std::unique_ptr<tilertKernel_st> &out) {
  auto Kernel = std::make_unique<tilertKernel_st>();
  Kernel->Metadata = std::move(metadata);
  TILERT_TRY(loadBinaryImages(Kernel->Metadata, Kernel->Images));
  describeShapes(Kernel->Metadata, Kernel->ShapeNames, Kernel->ShapeValues);
  out = std::move(Kernel);
  return Status::success();
}

Status loadKernel(const std::string &path,
                  std::unique_ptr<tilertKernel_st> &out) {
  KernelMetadata Metadata;
  TILERT_TRY(loadMetadata(path, Metadata));
  return makeKernel(std::move(Metadata), out);
}

Status loadKernelFromMemory(std::string_view json, const std::string &name,
                            const tilertBinary *binaries, int32_t count,
                            std::unique_ptr<tilertKernel_st> &out) {
  auto Kernel = std::make_unique<tilertKernel_st>();
  TILERT_TRY(parseMetadata(json, name, Kernel->Metadata));
  TILERT_TRY(
      copyBinaryImages(Kernel->Metadata, binaries, count, Kernel->Images));
  describeShapes(Kernel->Metadata, Kernel->ShapeNames, Kernel->ShapeValues);
  out = std::move(Kernel);
  return Status::success();
}

} // namespace tilert::detail
