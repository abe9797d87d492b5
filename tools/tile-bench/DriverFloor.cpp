//===- DriverFloor.cpp - The driver's own host time per launch ------------===//

#include "DriverFloor.h"

#include "Workload.h"

namespace tilebench {
namespace {

/// An entry that returns at once, as PTX 7.0 for sm_80: the driver compiles
/// it for every device tilert supports.
constexpr const char *EmptyKernelPtx = ".version 7.0\n"
                                       ".target sm_80\n"
                                       ".address_size 64\n"
                                       ".visible .entry tile_bench_empty()\n"
                                       "{\n"
                                       "  ret;\n"
                                       "}\n";

/// The loaded library of the empty kernel, unloaded at the end of its scope.
class EmptyKernel {
public:
  explicit EmptyKernel(const tilert::detail::DriverApi &api) : Api(api) {
    using tilert::detail::checkCu;
    check(checkCu(Api,
                  Api.cuLibraryLoadData(&Library, EmptyKernelPtx, nullptr,
                                        nullptr, 0, nullptr, nullptr, 0),
                  "cuLibraryLoadData"));
    CUkernel Kernel = nullptr;
    check(checkCu(Api,
                  Api.cuLibraryGetKernel(&Kernel, Library, "tile_bench_empty"),
                  "cuLibraryGetKernel"));
    check(checkCu(Api, Api.cuKernelGetFunction(&Function, Kernel),
                  "cuKernelGetFunction"));
  }
  EmptyKernel(const EmptyKernel &) = delete;
  EmptyKernel &operator=(const EmptyKernel &) = delete;
  ~EmptyKernel() {
    if (Library)
      Api.cuLibraryUnload(Library);
  }

  /// The kernel's function in the current context.
  CUfunction function() const { return Function; }

private:
  const tilert::detail::DriverApi &Api;
  CUlibrary Library = nullptr;
  CUfunction Function = nullptr;
};

} // namespace

HostOverhead measureDriverFloor(const tilert::detail::DriverApi &api,
                                CUstream stream, int warmup, int rounds,
                                int launches) {
  EmptyKernel Kernel(api);
  CUlaunchConfig Config = {};
  Config.gridDimX = Config.gridDimY = Config.gridDimZ = 1;
  Config.blockDimX = 32;
  Config.blockDimY = Config.blockDimZ = 1;
  Config.hStream = stream;
  CUfunction Function = Kernel.function();
  return measureHostOverhead(api, stream, warmup, rounds, launches, [&] {
    check(tilert::detail::checkCu(
        api, api.cuLaunchKernelEx(&Config, Function, nullptr, nullptr),
        "cuLaunchKernelEx"));
  });
}

} // namespace tilebench
