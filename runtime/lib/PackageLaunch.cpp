//===- PackageLaunch.cpp - Dispatch to a package's variants -----*- C++ -*-===//

#include "PackageLaunch.h"

#include "ArgBinding.h"
#include "Driver.h"
#include "Launch.h"

namespace tilert::detail {

namespace {

/// The calling thread's arguments of a package launch. Out of line, so a
/// launch computes the thread-local address once.
[[gnu::noinline]] BoundArgs &threadPackageArgs() {
  thread_local BoundArgs Args;
  return Args;
}

std::string describePackage(const tilertPackage_st &package) {
  return strCat("package '", package.Directory, "' (kernel ",
                package.Index.Kernel, ")");
}

/// Queries what selection needs of CUDA device `ordinal`.
Status queryDevice(const tilertPackage_st &package, int32_t ordinal,
                   PackageDevice &out) {
  const DriverApi *Api;
  TILERT_TRY(getDriver(Api));
  int Count = 0;
  TILERT_TRY(checkCu(*Api, Api->cuDeviceGetCount(&Count), "cuDeviceGetCount"));
  if (ordinal < 0 || ordinal >= Count)
    return makeError(TILERT_ERROR_INVALID_ARGUMENT, describePackage(package),
                     ": CUDA device ", ordinal, " does not exist (", Count,
                     " device", Count == 1 ? "" : "s", " present)");
  CUdevice Device;
  TILERT_TRY(checkCu(*Api, Api->cuDeviceGet(&Device, ordinal), "cuDeviceGet"));
  char Name[256] = {};
  TILERT_TRY(checkCu(*Api, Api->cuDeviceGetName(Name, sizeof(Name) - 1, Device),
                     "cuDeviceGetName"));
  out.Name = Name;
  out.Description = strCat("CUDA device ", ordinal, " (", Name, ")");
  TILERT_TRY(checkCu(
      *Api,
      Api->cuDeviceGetAttribute(
          &out.CcMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Device),
      "cuDeviceGetAttribute"));
  return checkCu(
      *Api,
      Api->cuDeviceGetAttribute(
          &out.CcMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Device),
      "cuDeviceGetAttribute");
}

/// Whether one of `variant`'s binaries may run on `device` (Arch.h's
/// rules, as the kernel's loading applies them).
bool runsOn(const PackageVariant &variant, const PackageDevice &device) {
  std::vector<BinaryKind> Kinds;
  for (const BinaryInfo &Binary : variant.Metadata.Binaries)
    Kinds.push_back(Binary.Kind);
  std::vector<size_t> Order;
  return selectBinaries(variant.Metadata.Target, Kinds, device.CcMajor,
                        device.CcMinor, device.Description, Order)
      .ok();
}

/// The selection rule of tilertPackageSelect for `device`; `LoadMutex` is
/// held.
Status chooseVariant(const tilertPackage_st &package,
                     const PackageDevice &device, const int64_t *dims,
                     size_t count, size_t &out) {
  if (const TunedDevice *Tuned = package.Tuning.find(device.Name))
    if (const TunedShape *Shape = Tuned->nearest(dims, count))
      if (runsOn(package.Variants[Shape->Best], device)) {
        out = Shape->Best;
        return Status::success();
      }
  std::vector<std::string> Archs;
  for (size_t I = 0; I < package.Variants.size(); ++I) {
    const PackageVariant &Variant = package.Variants[I];
    if (Variant.Info.Name != package.Index.Default)
      continue;
    if (runsOn(Variant, device)) {
      out = I;
      return Status::success();
    }
    Archs.push_back(Variant.Info.Target.Name);
  }
  return makeError(TILERT_ERROR_ARCH_MISMATCH, describePackage(package),
                   ": no variant can run on ", device.Description,
                   " (compute capability ", device.CcMajor, ".", device.CcMinor,
                   "): its default variant '", package.Index.Default,
                   "' is built for ", joinNames(Archs));
}

/// Selects and loads the variant for `device` and `dims`: the slow path of
/// selectVariant.
Status selectAndLoad(tilertPackage_st &package, int32_t device,
                     const int64_t *dims, size_t count, size_t &out) {
  std::lock_guard<std::mutex> Lock(package.LoadMutex);
  auto Known = package.Devices.find(device);
  if (Known == package.Devices.end()) {
    PackageDevice Queried;
    TILERT_TRY(queryDevice(package, device, Queried));
    Known = package.Devices.emplace(device, std::move(Queried)).first;
  }
  size_t Chosen = 0;
  TILERT_TRY(chooseVariant(package, Known->second, dims, count, Chosen));
  PackageVariant &Variant = package.Variants[Chosen];
  if (!Variant.Kernel)
    TILERT_TRY(makeKernel(Variant.Metadata, Variant.Kernel)
                   .withPrefix(strCat(describePackage(package), ": variant '",
                                      Variant.Info.Name, "' (",
                                      Variant.Info.Target.Name, "): ")));
  package.Selections.insert(device, dims, count, Chosen);
  out = Chosen;
  return Status::success();
}

} // namespace

Status selectVariant(tilertPackage_st &package, int32_t device,
                     const int64_t *dims, size_t count, size_t &variant) {
  if (package.Selections.find(device, dims, count, variant))
    return Status::success();
  return selectAndLoad(package, device, dims, count, variant);
}

Status launchPackage(tilertPackage_st &package, const DLTensor *const *tensors,
                     int32_t numTensors, const tilertScalar *scalars,
                     int32_t numScalars, CUstream stream) {
  BoundArgs &Args = threadPackageArgs();
  TILERT_TRY(bindArguments(package.Signature, tensors, numTensors, scalars,
                           numScalars, Args));
  // A kernel without tensor parameters launches on device 0.
  int32_t Device = Args.Device < 0 ? 0 : Args.Device;
  size_t Index = 0;
  TILERT_TRY(selectVariant(package, Device, Args.Dims.data(), Args.Dims.size(),
                           Index));
  PackageVariant &Variant = package.Variants[Index];
  if (Variant.BindsLikeSignature)
    return launchBoundKernel(*Variant.Kernel, Args, scalars, stream);
  return launchKernel(*Variant.Kernel, tensors, numTensors, scalars, numScalars,
                      stream);
}

} // namespace tilert::detail
