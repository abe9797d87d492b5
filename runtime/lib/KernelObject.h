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
