//===- TuningDatabase.h - A kernel package's tuning.json --------*- C++ -*-===//
//
// Parses and validates the tuning database the benchmark phase writes beside
// a package's index (schema tilec.tuning/1, docs/runtime.md "Kernel packages
// and dispatch"): per device name, the tuned shapes and the best variant of
// each. Only what dispatch uses is read, strictly; other keys are ignored.
// Every error is TILERT_ERROR_METADATA naming tuning.json and the field at
// fault.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_TUNINGDATABASE_H
#define TILERT_LIB_TUNINGDATABASE_H

#include "PackageIndex.h"
#include "Status.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilert::detail {

/// The tuning schema this runtime reads; any minor version of its major is
/// accepted.
inline constexpr std::string_view TuningSchemaPrefix = "tilec.tuning/";
/// The tuning schema major version this runtime reads.
inline constexpr int TuningSchemaMajor = 1;

/// One tuned problem shape.
struct TunedShape {
  /// The value of every dim, in the kernel's order of dims (each >= 1).
  std::vector<int64_t> Dims;
  /// The index in PackageIndex::Variants of the fastest variant.
  size_t Best = 0;
};

/// The shapes tuned on one kind of device.
struct TunedDevice {
  /// The device's name, as cuDeviceGetName reports it.
  std::string Name;
  /// The tuned shapes, in file order.
  std::vector<TunedShape> Shapes;

  /// Returns the shape whose dims equal `dims` (`count` values in the
  /// kernel's order), else the nearest one by the sum over dims of
  /// |log2(d) - log2(t)| (a 0 counts as 1), the first in file order among
  /// equals; nullptr if there are no shapes.
  const TunedShape *nearest(const int64_t *dims, size_t count) const;
};

/// What dispatch reads of tuning.json.
struct TuningDatabase {
  /// Per device entry, in file order.
  std::vector<TunedDevice> Devices;

  /// Returns the first entry for the device named `name`, or nullptr.
  const TunedDevice *find(std::string_view name) const;

  /// The number of tuned shapes over all devices.
  size_t numShapes() const;
};

/// Parses and validates `text`, the tuning.json at `path`, against the
/// package: `index` (the kernel's name, the variants `best` may name),
/// `dims` (the kernel's dims, in order) and `indexBytes` (index.json's
/// bytes, whose sha256 a `package.index_sha256` must equal).
Status parseTuningDatabase(std::string_view text, const std::string &path,
                           const PackageIndex &index,
                           const std::vector<std::string> &dims,
                           std::string_view indexBytes, TuningDatabase &out);

} // namespace tilert::detail

#endif // TILERT_LIB_TUNINGDATABASE_H
