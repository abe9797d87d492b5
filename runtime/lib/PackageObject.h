//===- PackageObject.h - What a tilertPackage handle holds ------*- C++ -*-===//
//
// A kernel package opened by tilertPackageOpen: its index, every variant's
// validated metadata, the launch signature they share, the tuning database
// if there is one, and the variants loaded so far. Opening reads and checks
// every JSON file; a variant's binaries are read (and their sha256
// verified) at its first selection.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_LIB_PACKAGEOBJECT_H
#define TILERT_LIB_PACKAGEOBJECT_H

#include "KernelObject.h"
#include "Metadata.h"
#include "PackageIndex.h"
#include "SelectionCache.h"
#include "TuningDatabase.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tilert::detail {

/// The file name of a package's index.
inline constexpr const char *PackageIndexFile = "index.json";
/// The file name of a package's tuning database.
inline constexpr const char *TuningDatabaseFile = "tuning.json";

/// One variant of an open package.
struct PackageVariant {
  /// Its entry in index.json.
  PackageVariantInfo Info;
  /// Its validated metadata.
  KernelMetadata Metadata;
  /// Whether arguments bound against the package's signature are bound as
  /// against this variant's metadata (equal tensors, dims and scalars), so
  /// that a launch need not bind them again.
  bool BindsLikeSignature = false;
  /// The loaded kernel (nullptr until first selected); set once, under the
  /// package's LoadMutex.
  std::unique_ptr<tilertKernel_st> Kernel;
};

/// What the selection needs to know about a device.
struct PackageDevice {
  /// cuDeviceGetName's answer.
  std::string Name;
  /// "CUDA device N (NAME)", for messages.
  std::string Description;
  int CcMajor = 0;
  int CcMinor = 0;
};

} // namespace tilert::detail

/// An open kernel package. Immutable after opening except for the loaded
/// variants, the devices seen and the selection cache, which are guarded.
struct tilertPackage_st {
  /// The directory as given to tilertPackageOpen.
  std::string Directory;
  tilert::detail::PackageIndex Index;
  std::vector<tilert::detail::PackageVariant> Variants;
  /// The launch signature every variant shares: the first variant's
  /// tensors, dims and scalars, each tensor's alignment the smallest over
  /// the variants (no tensor maps, no binaries). Launches bind against it.
  tilert::detail::KernelMetadata Signature;
  /// The signature's shape tables, as tilertTensorParam exposes them.
  std::vector<std::vector<const char *>> ShapeNames;
  std::vector<std::vector<int64_t>> ShapeValues;
  /// Whether tuning.json was found (then Tuning holds it).
  bool Tuned = false;
  tilert::detail::TuningDatabase Tuning;
  /// The variant selected per (device, dims).
  tilert::detail::SelectionCache Selections;
  /// Guards Variants[].Kernel and Devices.
  std::mutex LoadMutex;
  /// The devices queried so far, by ordinal.
  std::map<int32_t, tilert::detail::PackageDevice> Devices;
};

namespace tilert::detail {

/// Opens the package in directory `dir`: reads and validates index.json,
/// every variant's metadata (which must share the kernel's launch
/// signature) and tuning.json if it is there.
Status openPackage(const std::string &dir,
                   std::unique_ptr<tilertPackage_st> &out);

} // namespace tilert::detail

#endif // TILERT_LIB_PACKAGEOBJECT_H
