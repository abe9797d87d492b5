//===- DeviceModule.cpp - A kernel loaded on one device ---------*- C++ -*-===//

#include "DeviceModule.h"

#include "Arch.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace tilert::detail {

namespace {

/// Dynamic shared memory above this needs an opt-in function attribute.
constexpr uint32_t DefaultDynamicSmemLimit = 48 * 1024;
/// Clusters of more blocks than this need the non-portable size opt-in.
constexpr uint32_t PortableClusterBlocks = 8;

/// What the checks before loading need to know about a device.
struct DeviceProperties {
  std::string Description;
  int CcMajor = 0;
  int CcMinor = 0;
  int MaxSmemOptin = 0;
  int ClusterLaunch = 0;
  int MaxThreadsPerBlock = 0;
  std::array<int, 3> MaxBlock{};
  int Multiprocessors = 0;
  int SmemPerMultiprocessor = 0;
  int ThreadsPerMultiprocessor = 0;
  int RegistersPerMultiprocessor = 0;
};

Status queryDevice(const DriverApi &api, CUdevice device, int32_t ordinal,
                   DeviceProperties &out) {
  char Name[256] = {};
  TILERT_TRY(checkCu(api, api.cuDeviceGetName(Name, sizeof(Name) - 1, device),
                     "cuDeviceGetName"));
  out.Description = strCat("CUDA device ", ordinal, " (", Name, ")");
  const std::pair<CUdevice_attribute, int *> Attributes[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &out.CcMajor},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &out.CcMinor},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       &out.MaxSmemOptin},
      {CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH, &out.ClusterLaunch},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &out.MaxThreadsPerBlock},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, &out.MaxBlock[0]},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, &out.MaxBlock[1]},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, &out.MaxBlock[2]},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &out.Multiprocessors},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
       &out.SmemPerMultiprocessor},
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
       &out.ThreadsPerMultiprocessor},
      {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR,
       &out.RegistersPerMultiprocessor},
  };
  for (const auto &[Attribute, Value] : Attributes)
    TILERT_TRY(checkCu(api, api.cuDeviceGetAttribute(Value, Attribute, device),
                       "cuDeviceGetAttribute"));
  return Status::success();
}

/// Checks the kernel's launch needs against the device's limits.
Status checkResources(const KernelMetadata &metadata,
                      const DeviceProperties &device) {
  const LaunchConfig &Launch = metadata.Launch;
  int64_t Threads =
      int64_t(Launch.Block[0]) * Launch.Block[1] * Launch.Block[2];
  bool BlockFits = Threads <= device.MaxThreadsPerBlock;
  for (size_t I = 0; I < 3; ++I)
    BlockFits &= int64_t(Launch.Block[I]) <= device.MaxBlock[I];
  if (!BlockFits)
    return makeError(TILERT_ERROR_UNSUPPORTED, metadata.Name, ": block (",
                     Launch.Block[0], ", ", Launch.Block[1], ", ",
                     Launch.Block[2], ") exceeds the limits of ",
                     device.Description);
  int64_t Smem = int64_t(metadata.StaticSmem) + Launch.DynamicSmem;
  if (Smem > device.MaxSmemOptin)
    return makeError(TILERT_ERROR_UNSUPPORTED, metadata.Name, " needs ", Smem,
                     " bytes of shared memory per block (static ",
                     metadata.StaticSmem, " + dynamic ", Launch.DynamicSmem,
                     ") but ", device.Description, " allows at most ",
                     device.MaxSmemOptin);
  bool Clustered =
      Launch.Cluster[0] * Launch.Cluster[1] * Launch.Cluster[2] > 1;
  if (Clustered && !device.ClusterLaunch)
    return makeError(TILERT_ERROR_UNSUPPORTED, metadata.Name,
                     " uses thread-block clusters (", Launch.Cluster[0], "x",
                     Launch.Cluster[1], "x", Launch.Cluster[2], "), which ",
                     device.Description, " does not support");
  return Status::success();
}

/// The blocks of the kernel that `device` keeps resident at once: its
/// multiprocessors times the blocks one of them holds by shared memory
/// (with the 1 KiB the driver reserves per block), threads and registers;
/// a limit the device does not report (0) does not bound it. A multiple of
/// the blocks of a cluster, at least one cluster.
uint32_t countResidentBlocks(const KernelMetadata &metadata,
                             const DeviceProperties &device) {
  const LaunchConfig &Launch = metadata.Launch;
  int64_t Threads =
      int64_t(Launch.Block[0]) * Launch.Block[1] * Launch.Block[2];
  int64_t PerMultiprocessor = std::numeric_limits<int32_t>::max();
  auto Bound = [&](int64_t Available, int64_t PerBlock) {
    if (Available > 0 && PerBlock > 0)
      PerMultiprocessor = std::min(PerMultiprocessor, Available / PerBlock);
  };
  Bound(device.SmemPerMultiprocessor,
        int64_t(metadata.StaticSmem) + Launch.DynamicSmem + 1024);
  Bound(device.ThreadsPerMultiprocessor, Threads);
  // Registers are allocated per warp in units of 256.
  int64_t WarpRegisters = (int64_t(metadata.Registers) * 32 + 255) / 256 * 256;
  Bound(device.RegistersPerMultiprocessor,
        WarpRegisters * ((Threads + 31) / 32));
  int64_t Blocks = std::max<int64_t>(1, PerMultiprocessor) *
                   std::max(1, device.Multiprocessors);
  // Whole clusters, at least one.
  int64_t Cluster =
      int64_t(Launch.Cluster[0]) * Launch.Cluster[1] * Launch.Cluster[2];
  Blocks = std::max(Cluster, Blocks / Cluster * Cluster);
  return static_cast<uint32_t>(
      std::min<int64_t>(Blocks, std::numeric_limits<int32_t>::max()));
}

bool isJitFailure(CUresult result) {
  return result == CUDA_ERROR_INVALID_PTX ||
         result == CUDA_ERROR_UNSUPPORTED_PTX_VERSION ||
         result == CUDA_ERROR_JIT_COMPILER_NOT_FOUND ||
         result == CUDA_ERROR_JIT_COMPILATION_DISABLED;
}

} // namespace

Status DeviceModule::load(const DriverApi &api, const KernelMetadata &metadata,
                          const std::vector<BinaryImage> &images,
                          int32_t device, std::unique_ptr<DeviceModule> &out) {
  int Count = 0;
  TILERT_TRY(checkCu(api, api.cuDeviceGetCount(&Count), "cuDeviceGetCount"));
  if (device < 0 || device >= Count)
    return makeError(TILERT_ERROR_INVALID_ARGUMENT, metadata.Name,
                     ": CUDA device ", device, " does not exist (", Count,
                     " device", Count == 1 ? "" : "s", " present)");
  CUdevice Handle;
  TILERT_TRY(checkCu(api, api.cuDeviceGet(&Handle, device), "cuDeviceGet"));
  DeviceProperties Properties;
  TILERT_TRY(queryDevice(api, Handle, device, Properties));

  std::vector<BinaryKind> Kinds;
  for (const BinaryImage &Image : images)
    Kinds.push_back(Image.Kind);
  std::vector<size_t> Order;
  TILERT_TRY(selectBinaries(metadata.Target, Kinds, Properties.CcMajor,
                            Properties.CcMinor, Properties.Description, Order)
                 .withPrefix(metadata.Name + ": "));
  TILERT_TRY(checkResources(metadata, Properties));

  // Destroyed after Scope (declared later), so the context is popped before
  // it is released.
  std::unique_ptr<DeviceModule> Module(new DeviceModule(api, Handle));
  TILERT_TRY(checkCu(api,
                     api.cuDevicePrimaryCtxRetain(&Module->Context, Handle),
                     "cuDevicePrimaryCtxRetain"));
  ScopedContext Scope(api, Module->Context);
  TILERT_TRY(Scope.status());
  std::string Refused;
  for (size_t Index : Order) {
    bool NotForDevice = false;
    Status Loaded = Module->loadImage(metadata, images[Index],
                                      Properties.Description, NotForDevice);
    if (Loaded.ok()) {
      TILERT_TRY(Module->setAttributes(metadata));
      Module->ResidentBlocks = countResidentBlocks(metadata, Properties);
      TILERT_TRY(Module->boundResidentClusters(metadata));
      out = std::move(Module);
      return Status::success();
    }
    if (!NotForDevice)
      return Loaded;
    Module->unloadLibrary();
    Refused += strCat(Refused.empty() ? "" : ", ", images[Index].Path);
  }
  return makeError(TILERT_ERROR_ARCH_MISMATCH, metadata.Name,
                   ": the driver found no code for ", Properties.Description,
                   " (compute capability ", Properties.CcMajor, ".",
                   Properties.CcMinor, ") in ", Refused,
                   " although the metadata says ", metadata.Target.Name);
}

Status DeviceModule::loadImage(const KernelMetadata &metadata,
                               const BinaryImage &image,
                               const std::string &deviceName,
                               bool &notForDevice) {
  JitLog.fill('\0');
  CUjit_option Options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Values[] = {JitLog.data(),
                    reinterpret_cast<void *>(uintptr_t(JitLog.size() - 1))};
  const char *Call = "cuLibraryLoadData";
  CUresult Result = Api.cuLibraryLoadData(
      &Library, image.Bytes.c_str(), Options, Values, 2, nullptr, nullptr, 0);
  if (Result == CUDA_SUCCESS) {
    CUkernel Kernel;
    Call = "cuLibraryGetKernel";
    Result = Api.cuLibraryGetKernel(&Kernel, Library, metadata.Entry.c_str());
    if (Result == CUDA_ERROR_NOT_FOUND)
      return makeError(TILERT_ERROR_METADATA, metadata.Path, ": entry '",
                       metadata.Entry, "' is not in '", image.Path, "'");
    if (Result == CUDA_SUCCESS) {
      Call = "cuKernelGetFunction";
      Result = Api.cuKernelGetFunction(&Function, Kernel);
    }
    if (Result == CUDA_SUCCESS) {
      Call = "cuFuncLoad";
      Result = Api.cuFuncLoad(Function);
    }
  }
  if (Result == CUDA_SUCCESS)
    return Status::success();
  notForDevice = Result == CUDA_ERROR_NO_BINARY_FOR_GPU;
  std::string Log(JitLog.data(), ::strnlen(JitLog.data(), JitLog.size()));
  if (!notForDevice && (isJitFailure(Result) || image.Kind == BinaryKind::Ptx))
    return makeError(TILERT_ERROR_JIT, metadata.Name, ": JIT compilation of '",
                     image.Path, "' for ", deviceName, " failed (", Call, ": ",
                     describeCuResult(Api, Result), ")",
                     Log.empty() ? "" : ":\n", Log);
  return makeError(TILERT_ERROR_CUDA, metadata.Name, ": loading '", image.Path,
                   "' on ", deviceName, " failed: ", Call, ": ",
                   describeCuResult(Api, Result));
}

Status DeviceModule::boundResidentClusters(const KernelMetadata &metadata) {
  const LaunchConfig &Launch = metadata.Launch;
  uint32_t Blocks = Launch.Cluster[0] * Launch.Cluster[1] * Launch.Cluster[2];
  if (Blocks == 1)
    return Status::success();
  // The blocks of a cluster run on the multiprocessors of one GPC, so a
  // GPC with fewer free multiprocessors than a cluster's blocks holds none
  // of it: the occupancy calculator knows how many fit at once.
  CUlaunchAttribute Cluster = {};
  Cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  Cluster.value.clusterDim.x = Launch.Cluster[0];
  Cluster.value.clusterDim.y = Launch.Cluster[1];
  Cluster.value.clusterDim.z = Launch.Cluster[2];
  CUlaunchConfig Config = {};
  Config.gridDimX = Launch.Cluster[0];
  Config.gridDimY = Launch.Cluster[1];
  Config.gridDimZ = Launch.Cluster[2];
  Config.blockDimX = Launch.Block[0];
  Config.blockDimY = Launch.Block[1];
  Config.blockDimZ = Launch.Block[2];
  Config.sharedMemBytes = Launch.DynamicSmem;
  Config.attrs = &Cluster;
  Config.numAttrs = 1;
  int Clusters = 0;
  TILERT_TRY(checkCu(
      Api, Api.cuOccupancyMaxActiveClusters(&Clusters, Function, &Config),
      "cuOccupancyMaxActiveClusters"));
  if (Clusters > 0)
    ResidentBlocks = std::min(ResidentBlocks, uint32_t(Clusters) * Blocks);
  return Status::success();
}

Status DeviceModule::setAttributes(const KernelMetadata &metadata) {
  const LaunchConfig &Launch = metadata.Launch;
  if (Launch.DynamicSmem > DefaultDynamicSmemLimit)
    TILERT_TRY(checkCu(
        Api,
        Api.cuFuncSetAttribute(Function,
                               CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               static_cast<int>(Launch.DynamicSmem)),
        "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)"));
  if (Launch.Cluster[0] * Launch.Cluster[1] * Launch.Cluster[2] >
      PortableClusterBlocks)
    TILERT_TRY(checkCu(
        Api,
        Api.cuFuncSetAttribute(
            Function, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1),
        "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)"));
  return Status::success();
}

void DeviceModule::unloadLibrary() {
  if (Library)
    Api.cuLibraryUnload(Library);
  Library = nullptr;
  Function = nullptr;
}

DeviceModule::~DeviceModule() {
  unloadLibrary();
  if (Context)
    Api.cuDevicePrimaryCtxRelease(Device);
}

} // namespace tilert::detail
