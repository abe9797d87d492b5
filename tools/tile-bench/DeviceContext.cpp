//===- DeviceContext.cpp - tile-bench's CUDA context and stream -----------===//

#include "DeviceContext.h"

#include "Workload.h"

namespace tilebench {

using tilert::detail::checkCu;

int deviceCount(const tilert::detail::DriverApi &api) {
  int Count = 0;
  check(checkCu(api, api.cuDeviceGetCount(&Count), "cuDeviceGetCount"));
  return Count;
}

PrimaryContext::PrimaryContext(const tilert::detail::DriverApi &api,
                               int ordinal)
    : Api(api) {
  int Count = deviceCount(Api);
  if (ordinal < 0 || ordinal >= Count)
    throw BenchError("--device " + std::to_string(ordinal) + ": there are " +
                     std::to_string(Count) + " CUDA device(s)");
  check(checkCu(Api, Api.cuDeviceGet(&Device, ordinal), "cuDeviceGet"));
  check(checkCu(Api, Api.cuDevicePrimaryCtxRetain(&Context, Device),
                "cuDevicePrimaryCtxRetain"));
  check(checkCu(Api, Api.cuCtxSetCurrent(Context), "cuCtxSetCurrent"));
  char Buffer[256] = {};
  check(checkCu(Api, Api.cuDeviceGetName(Buffer, sizeof(Buffer) - 1, Device),
                "cuDeviceGetName"));
  Name = Buffer;
  int Major = 0, Minor = 0;
  check(
      checkCu(Api,
              Api.cuDeviceGetAttribute(
                  &Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Device),
              "cuDeviceGetAttribute"));
  check(
      checkCu(Api,
              Api.cuDeviceGetAttribute(
                  &Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Device),
              "cuDeviceGetAttribute"));
  Arch = "sm_" + std::to_string(Major) + std::to_string(Minor);
}

PrimaryContext::~PrimaryContext() {
  Api.cuCtxSetCurrent(nullptr);
  Api.cuDevicePrimaryCtxRelease(Device);
}

Stream::Stream(const tilert::detail::DriverApi &api) : Api(api) {
  check(checkCu(Api, Api.cuStreamCreate(&Handle, CU_STREAM_NON_BLOCKING),
                "cuStreamCreate"));
}

Stream::~Stream() { Api.cuStreamDestroy(Handle); }

} // namespace tilebench
