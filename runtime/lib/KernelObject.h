//===- KernelObject.h - What a tilertKernel handle holds --------*- C++ -*-===//

#ifndef TILERT_LIB_KERNELOBJECT_H
#define TILERT_LIB_KERNELOBJECT_H

#include "BinaryImages.h"
#include "Metadata.h"
#include "ModuleCache.h"
#include "TensorMapCache.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

/// A loaded kernel: validated metadata, verified binaries and the devices it
/// has been loaded on. Immutable after creation except for the thread-safe
/// module and tensor map caches.
struct tilertKernel_st {
  tilert::detail::KernelMetadata Metadata;
  std::vector<tilert::detail::BinaryImage> Images;
  tilert::detail::ModuleCache Modules;
  /// The tensor maps encoded by earlier launches.
  tilert::detail::TensorMapCache TensorMaps;
  /// Per tensor and dim: the dim name (nullptr for a constant extent), as
  /// tilertTensorParam::dim_names exposes it.
  std::vector<std::vector<const char *>> ShapeNames;
  /// Per tensor and dim: the constant extent (-1 for a named dim), as
  /// tilertTensorParam::dim_values exposes it.
  std::vector<std::vector<int64_t>> ShapeValues;
};

namespace tilert::detail {

/// Sets `names` and `values` to the shape tables of `metadata`'s tensors,
/// as tilertTensorParam exposes them: per tensor and dim, the dim name
/// (pointing into metadata.Dims; nullptr for a constant extent) and the
/// constant extent (-1 for a named dim).
void describeShapes(const KernelMetadata &metadata,
                    std::vector<std::vector<const char *>> &names,
                    std::vector<std::vector<int64_t>> &values);

/// Makes a new kernel of the validated `metadata`, reading the binaries it
/// names and verifying them.
Status makeKernel(KernelMetadata metadata,
                  std::unique_ptr<tilertKernel_st> &out);

/// Loads the metadata at `path` and its verified binaries into a new kernel.
Status loadKernel(const std::string &path,
                  std::unique_ptr<tilertKernel_st> &out);

/// Makes a new kernel of metadata `json`, called `name` in messages, and
/// the `count` binaries at `binaries` (verified; see
/// tilertKernelLoadFromMemory).
Status loadKernelFromMemory(std::string_view json, const std::string &name,
                            const tilertBinary *binaries, int32_t count,
                            std::unique_ptr<tilertKernel_st> &out);

} // namespace tilert::detail

#endif // TILERT_LIB_KERNELOBJECT_H
