//===- DeviceBuffer.cpp - Owned device memory for tools and tests ---------===//

#include "DeviceBuffer.h"

namespace tilert::support {

detail::Status DeviceBuffer::allocate(const detail::DriverApi &api,
                                      size_t bytes, const std::string &what,
                                      DeviceBuffer &out) {
  DeviceBuffer Buffer;
  Buffer.Api = &api;
  if (bytes > 0) {
    CUresult Result = api.cuMemAlloc(&Buffer.Pointer, bytes);
    if (Result != CUDA_SUCCESS)
      return detail::makeError(
          TILERT_ERROR_CUDA, "cuMemAlloc of ", bytes, " bytes for ", what,
          " failed: ", detail::describeCuResult(api, Result));
  }
  out = std::move(Buffer);
  return detail::Status::success();
}

} // namespace tilert::support
