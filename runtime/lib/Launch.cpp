//===- Launch.cpp - Validated kernel launches -------------------*- C++ -*-===//

#include "Launch.h"

#include "ArgBinding.h"
#include "Driver.h"
#include "KernelParams.h"
#include "LaunchGrid.h"
#include "TensorMap.h"

#include <algorithm>

namespace tilert::detail {

namespace {

/// What one launch computes, kept per thread so that a launch allocates
/// nothing once the vectors have grown to the kernel's sizes (and nothing
/// that another thread's launch could touch).
struct LaunchScratch {
  BoundArgs Args;
  std::vector<TensorMapArgs> MapArgs;
  KernelParams Params;
};

/// The calling thread's LaunchScratch. Out of line, so a launch computes the
/// thread-local address once (inlined, GCC computes it again at every use).
[[gnu::noinline]] LaunchScratch &threadScratch() {
  thread_local LaunchScratch Scratch;
  return Scratch;
}

Status getModule(tilertKernel_st &kernel, int32_t device, const DriverApi *&api,
                 const DeviceModule *&module) {
  // A loaded module implies a loaded driver.
  module = kernel.Modules.find(device);
  if (module) {
    api = &module->api();
    return Status::success();
  }
  TILERT_TRY(getDriver(api));
  return kernel.Modules.get(*api, kernel.Metadata, kernel.Images, device,
                            module);
}

/// Checks that `stream` may carry a launch in `context`.
Status checkStream(const DriverApi &api, const KernelMetadata &metadata,
                   CUstream stream, CUcontext context, int32_t device) {
  if (!stream || stream == CU_STREAM_LEGACY || stream == CU_STREAM_PER_THREAD)
    return Status::success();
  CUcontext StreamContext = nullptr;
  CUresult Result = api.cuStreamGetCtx(stream, &StreamContext);
  if (Result != CUDA_SUCCESS)
    return makeError(
        TILERT_ERROR_INVALID_ARGUMENT, metadata.Name,
        ": the stream is not a valid CUDA stream (cuStreamGetCtx: ",
        describeCuResult(api, Result), ")");
  if (StreamContext != context)
    return makeError(TILERT_ERROR_INVALID_ARGUMENT, metadata.Name,
                     ": the stream belongs to another CUDA context than the "
                     "primary context of device ",
                     device, ", which holds the tensors");
  return Status::success();
}

/// Fills `out` with the map of `args` for `device`: the cached one, else a
/// fresh encoding, which is then cached.
Status getTensorMap(const DriverApi &api, tilertKernel_st &kernel,
                    size_t mapIndex, int32_t device, const TensorMapArgs &args,
                    CUtensorMap &out) {
  if (args.Skipped) {
    out = CUtensorMap{};
    return Status::success();
  }
  if (kernel.TensorMaps.lookup(device, args, out))
    return Status::success();
  CUresult Result = api.cuTensorMapEncodeTiled(
      &out, args.DataType, args.Rank, reinterpret_cast<void *>(args.Address),
      args.GlobalDim.data(), args.GlobalStrides.data(), args.BoxDim.data(),
      args.ElementStrides.data(), args.Interleave, args.Swizzle,
      args.L2Promotion, args.OobFill);
  if (Result != CUDA_SUCCESS) {
    const KernelMetadata &Metadata = kernel.Metadata;
    const TensorMapParam &Map = Metadata.TensorMaps[mapIndex];
    return checkCu(api, Result, "cuTensorMapEncodeTiled")
        .withPrefix(strCat(Metadata.Name, ": tensor map '", Map.Name,
                           "' of tensor '", Metadata.Tensors[Map.Tensor].Name,
                           "': "));
  }
  kernel.TensorMaps.insert(device, args, out);
  return Status::success();
}

} // namespace

Status prepareKernel(tilertKernel_st &kernel, int32_t device) {
  const DriverApi *Api;
  const DeviceModule *Module;
  return getModule(kernel, device, Api, Module);
}

Status launchKernel(tilertKernel_st &kernel, const DLTensor *const *tensors,
                    int32_t numTensors, const tilertScalar *scalars,
                    int32_t numScalars, CUstream stream) {
  BoundArgs &Args = threadScratch().Args;
  TILERT_TRY(bindArguments(kernel.Metadata, tensors, numTensors, scalars,
                           numScalars, Args));
  return launchBoundKernel(kernel, Args, scalars, stream);
}

Status launchBoundKernel(tilertKernel_st &kernel, const BoundArgs &args,
                         const tilertScalar *scalars, CUstream stream) {
  const KernelMetadata &Metadata = kernel.Metadata;
  LaunchScratch &Local = threadScratch();
  LaunchGrid Grid;
  TILERT_TRY(computeGrid(Metadata, args.Dims, Grid));
  // Tensor maps exist only for a launch that happens (an empty tensor has no
  // map, and an empty grid skips the launch).
  std::vector<TensorMapArgs> &MapArgs = Local.MapArgs;
  MapArgs.clear();
  if (!Grid.empty() && !Metadata.TensorMaps.empty())
    TILERT_TRY(prepareTensorMaps(Metadata, args, MapArgs));
  // A kernel without tensor parameters has no device of its own: device 0.
  int32_t Device = args.Device < 0 ? 0 : args.Device;
  const DriverApi *Api;
  const DeviceModule *Module;
  TILERT_TRY(getModule(kernel, Device, Api, Module));
  ScopedContext Scope(*Api, Module->context());
  TILERT_TRY(Scope.status());
  TILERT_TRY(checkStream(*Api, Metadata, stream, Module->context(), Device));
  if (Grid.empty())
    return Status::success();

  KernelParams &Params = Local.Params;
  Params.assign(Metadata, args, scalars);
  for (size_t I = 0; I < MapArgs.size(); ++I)
    TILERT_TRY(
        getTensorMap(*Api, kernel, I, Device, MapArgs[I], Params.tensorMap(I)));
  const LaunchConfig &Launch = Metadata.Launch;
  CUlaunchAttribute Cluster = {};
  Cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  Cluster.value.clusterDim.x = Launch.Cluster[0];
  Cluster.value.clusterDim.y = Launch.Cluster[1];
  Cluster.value.clusterDim.z = Launch.Cluster[2];
  bool Clustered =
      Launch.Cluster[0] * Launch.Cluster[1] * Launch.Cluster[2] > 1;
  CUlaunchConfig Config = {};
  Config.gridDimX = Grid.Extent[0];
  Config.gridDimY = Grid.Extent[1];
  Config.gridDimZ = Grid.Extent[2];
  if (Launch.Persistent) {
    // Each block loops over the tiles of the grid (any number of blocks
    // computes all of them): as many as stay resident, at most one a tile.
    // In a launch of clusters (along x), whole clusters, at most one a
    // tile: a cluster's blocks may share a tile's column of the grid or not
    // (residentBlocks() counts whole clusters).
    uint64_t Tiles = uint64_t(Grid.Extent[0]) * Grid.Extent[1] * Grid.Extent[2];
    uint64_t Blocks = Tiles * Launch.Cluster[0];
    Config.gridDimX = static_cast<unsigned>(
        std::min<uint64_t>(Blocks, Module->residentBlocks()));
    Config.gridDimY = Config.gridDimZ = 1;
  }
  Config.blockDimX = Launch.Block[0];
  Config.blockDimY = Launch.Block[1];
  Config.blockDimZ = Launch.Block[2];
  Config.sharedMemBytes = Launch.DynamicSmem;
  Config.hStream = stream;
  Config.attrs = Clustered ? &Cluster : nullptr;
  Config.numAttrs = Clustered ? 1 : 0;
  CUresult Launched = Api->cuLaunchKernelEx(&Config, Module->function(),
                                            Params.pointers(), nullptr);
  if (Launched != CUDA_SUCCESS)
    return checkCu(*Api, Launched, "cuLaunchKernelEx")
        .withPrefix(Metadata.Name + ": ");
  return Status::success();
}

} // namespace tilert::detail
