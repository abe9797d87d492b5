//===- FakeCuda.cpp - A CUDA driver without a GPU -------------------------===//
//
// The entry points libtilert resolves (TILERT_DRIVER_FUNCTIONS), answered by
// a pretend device: see FakeCuda.h. Entry points the tests do not need
// return CUDA_ERROR_NOT_SUPPORTED. Every call is counted, so a test can
// check which driver calls a launch makes (only what CUDA graph capture
// allows).
//
//===----------------------------------------------------------------------===//

#include "FakeCuda.h"

#include "Driver.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>

#define FAKE_CUDA_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

/// One identifier per entry point, in TILERT_DRIVER_FUNCTIONS order.
enum EntryId : int {
#define FAKE_CUDA_ID(Name, Version) Id_##Name,
  TILERT_DRIVER_FUNCTIONS(FAKE_CUDA_ID)
#undef FAKE_CUDA_ID
      NumEntries
};

const char *const EntryNames[] = {
#define FAKE_CUDA_NAME(Name, Version) #Name,
    TILERT_DRIVER_FUNCTIONS(FAKE_CUDA_NAME)
#undef FAKE_CUDA_NAME
};

std::atomic<uint64_t> Calls[NumEntries];
std::mutex LaunchMutex;
FakeCudaLaunch LastLaunch;
std::atomic<int32_t> ParamCount{0};

int PrimaryContextStorage;
CUcontext const PrimaryContext =
    reinterpret_cast<CUcontext>(&PrimaryContextStorage);
int LibraryStorage, KernelStorage, FunctionStorage;

void count(EntryId id) { Calls[id].fetch_add(1, std::memory_order_relaxed); }

/// The compute capability FAKE_CUDA_CC names ("8.0"), default 9.0.
void computeCapability(int &major, int &minor) {
  major = 9;
  minor = 0;
  if (const char *Text = std::getenv("FAKE_CUDA_CC"))
    if (std::strlen(Text) == 3 && Text[1] == '.') {
      major = Text[0] - '0';
      minor = Text[2] - '0';
    }
}

/// An entry point the tests do not need.
template <EntryId Id, typename Fn> struct Unsupported;
template <EntryId Id, typename... Args>
struct Unsupported<Id, CUresult(CUDAAPI *)(Args...)> {
  static CUresult CUDAAPI call(Args...) {
    count(Id);
    return CUDA_ERROR_NOT_SUPPORTED;
  }
};

CUresult CUDAAPI fakeInit(unsigned int) {
  count(Id_cuInit);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeDriverGetVersion(int *version) {
  count(Id_cuDriverGetVersion);
  *version = 13000;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeGetErrorName(CUresult, const char **name) {
  count(Id_cuGetErrorName);
  *name = "CUDA_ERROR_FAKE";
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeGetErrorString(CUresult, const char **text) {
  count(Id_cuGetErrorString);
  *text = "an error of the fake driver";
  return CUDA_SUCCESS;
}

/// The number of devices FAKE_CUDA_DEVICES names (1 to 8), default 1.
int deviceCount() {
  const char *Text = std::getenv("FAKE_CUDA_DEVICES");
  int Count = Text ? std::atoi(Text) : 1;
  return Count < 1 ? 1 : Count > 8 ? 8 : Count;
}

CUresult CUDAAPI fakeDeviceGetCount(int *result) {
  count(Id_cuDeviceGetCount);
  *result = deviceCount();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeDeviceGet(CUdevice *device, int ordinal) {
  count(Id_cuDeviceGet);
  if (ordinal < 0 || ordinal >= deviceCount())
    return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeDeviceGetAttribute(int *value, CUdevice_attribute what,
                                        CUdevice) {
  count(Id_cuDeviceGetAttribute);
  int Major, Minor;
  computeCapability(Major, Minor);
  switch (what) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = Major;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *value = Minor;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *value = 232448;
    break;
  case CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH:
    *value = Major >= 9;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
    *value = 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
    *value = 64;
    break;
  // An H100/H200's multiprocessors.
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *value = 132;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
    *value = 233472;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR:
    *value = 2048;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR:
    *value = 65536;
    break;
  default:
    *value = 0;
    break;
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeDeviceGetName(char *name, int length, CUdevice) {
  count(Id_cuDeviceGetName);
  std::strncpy(name, "Fake CUDA device", static_cast<size_t>(length));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakePrimaryCtxRetain(CUcontext *context, CUdevice) {
  count(Id_cuDevicePrimaryCtxRetain);
  *context = PrimaryContext;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakePrimaryCtxRelease(CUdevice) {
  count(Id_cuDevicePrimaryCtxRelease);
  return CUDA_SUCCESS;
}

thread_local CUcontext Current = nullptr;
thread_local CUcontext Saved = nullptr;

CUresult CUDAAPI fakeCtxPushCurrent(CUcontext context) {
  count(Id_cuCtxPushCurrent);
  Saved = Current;
  Current = context;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeCtxPopCurrent(CUcontext *context) {
  count(Id_cuCtxPopCurrent);
  if (context)
    *context = Current;
  Current = Saved;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeCtxGetCurrent(CUcontext *context) {
  count(Id_cuCtxGetCurrent);
  *context = Current;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeCtxSetCurrent(CUcontext context) {
  count(Id_cuCtxSetCurrent);
  Current = context;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeLibraryLoadData(CUlibrary *library, const void *,
                                     CUjit_option *, void **, unsigned int,
                                     CUlibraryOption *, void **, unsigned int) {
  count(Id_cuLibraryLoadData);
  *library = reinterpret_cast<CUlibrary>(&LibraryStorage);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeLibraryUnload(CUlibrary) {
  count(Id_cuLibraryUnload);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeLibraryGetKernel(CUkernel *kernel, CUlibrary,
                                      const char *) {
  count(Id_cuLibraryGetKernel);
  *kernel = reinterpret_cast<CUkernel>(&KernelStorage);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeKernelGetFunction(CUfunction *function, CUkernel) {
  count(Id_cuKernelGetFunction);
  *function = reinterpret_cast<CUfunction>(&FunctionStorage);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeFuncSetAttribute(CUfunction, CUfunction_attribute, int) {
  count(Id_cuFuncSetAttribute);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeFuncLoad(CUfunction) {
  count(Id_cuFuncLoad);
  return CUDA_SUCCESS;
}

/// As many clusters as the device's 132 multiprocessors hold, one block
/// each: a 16-block cluster fits 7 times (one a GPC, as on an H100).
CUresult CUDAAPI fakeOccupancyMaxActiveClusters(int *clusters,
                                                CUfunction function,
                                                const CUlaunchConfig *config) {
  count(Id_cuOccupancyMaxActiveClusters);
  if (!clusters || !config ||
      function != reinterpret_cast<CUfunction>(&FunctionStorage))
    return CUDA_ERROR_INVALID_VALUE;
  unsigned Blocks = 1;
  for (unsigned I = 0; I < config->numAttrs; ++I)
    if (config->attrs[I].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      Blocks = config->attrs[I].value.clusterDim.x *
               config->attrs[I].value.clusterDim.y *
               config->attrs[I].value.clusterDim.z;
  *clusters = Blocks == 16 ? 7 : static_cast<int>(132 / Blocks);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeLaunchKernelEx(const CUlaunchConfig *config,
                                    CUfunction function, void **params,
                                    void **extra) {
  count(Id_cuLaunchKernelEx);
  if (!config || function != reinterpret_cast<CUfunction>(&FunctionStorage) ||
      extra)
    return CUDA_ERROR_INVALID_VALUE;
  if (Current != PrimaryContext)
    return CUDA_ERROR_INVALID_CONTEXT;
  std::lock_guard<std::mutex> Lock(LaunchMutex);
  ++LastLaunch.count;
  LastLaunch.grid[0] = config->gridDimX;
  LastLaunch.grid[1] = config->gridDimY;
  LastLaunch.grid[2] = config->gridDimZ;
  LastLaunch.block[0] = config->blockDimX;
  LastLaunch.block[1] = config->blockDimY;
  LastLaunch.block[2] = config->blockDimZ;
  LastLaunch.shared_bytes = config->sharedMemBytes;
  LastLaunch.num_attributes = config->numAttrs;
  LastLaunch.stream = reinterpret_cast<uintptr_t>(config->hStream);
  int32_t Params = ParamCount.load(std::memory_order_relaxed);
  for (int32_t I = 0; I < Params; ++I)
    std::memcpy(&LastLaunch.params[I], params[I], sizeof(uint64_t));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeStreamGetCtx(CUstream stream, CUcontext *context) {
  count(Id_cuStreamGetCtx);
  if (reinterpret_cast<uintptr_t>(stream) == FAKE_CUDA_INVALID_STREAM)
    return CUDA_ERROR_INVALID_HANDLE;
  *context = PrimaryContext;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeStreamCreate(CUstream *stream, unsigned int) {
  count(Id_cuStreamCreate);
  *stream = reinterpret_cast<CUstream>(new int);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeStreamDestroy(CUstream stream) {
  count(Id_cuStreamDestroy);
  delete reinterpret_cast<int *>(stream);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeStreamSynchronize(CUstream) {
  count(Id_cuStreamSynchronize);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeMemAlloc(CUdeviceptr *pointer, size_t bytes) {
  count(Id_cuMemAlloc);
  void *Memory = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!Memory)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *pointer = reinterpret_cast<CUdeviceptr>(Memory);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeMemFree(CUdeviceptr pointer) {
  count(Id_cuMemFree);
  std::free(reinterpret_cast<void *>(pointer));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeMemcpyHtoD(CUdeviceptr to, const void *from, size_t n) {
  count(Id_cuMemcpyHtoD);
  std::memcpy(reinterpret_cast<void *>(to), from, n);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeMemcpyDtoH(void *to, CUdeviceptr from, size_t n) {
  count(Id_cuMemcpyDtoH);
  std::memcpy(to, reinterpret_cast<const void *>(from), n);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeMemcpyDtoD(CUdeviceptr to, CUdeviceptr from, size_t n) {
  count(Id_cuMemcpyDtoD);
  std::memcpy(reinterpret_cast<void *>(to), reinterpret_cast<void *>(from), n);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeMemsetD8(CUdeviceptr to, unsigned char value, size_t n) {
  count(Id_cuMemsetD8);
  std::memset(reinterpret_cast<void *>(to), value, n);
  return CUDA_SUCCESS;
}

/// A fake event: the host time at which it was last recorded (the fake
/// runs nothing, so a recorded event is complete at once).
struct FakeEvent {
  std::chrono::steady_clock::time_point Recorded;
  bool WasRecorded = false;
};

CUresult CUDAAPI fakeEventCreate(CUevent *event, unsigned int) {
  count(Id_cuEventCreate);
  *event = reinterpret_cast<CUevent>(new FakeEvent);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeEventDestroy(CUevent event) {
  count(Id_cuEventDestroy);
  delete reinterpret_cast<FakeEvent *>(event);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeEventRecord(CUevent event, CUstream) {
  count(Id_cuEventRecord);
  auto *Event = reinterpret_cast<FakeEvent *>(event);
  Event->Recorded = std::chrono::steady_clock::now();
  Event->WasRecorded = true;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI fakeEventQuery(CUevent event) {
  count(Id_cuEventQuery);
  return reinterpret_cast<FakeEvent *>(event)->WasRecorded
             ? CUDA_SUCCESS
             : CUDA_ERROR_INVALID_HANDLE;
}

CUresult CUDAAPI fakeEventElapsedTime(float *ms, CUevent start, CUevent end) {
  count(Id_cuEventElapsedTime);
  auto *A = reinterpret_cast<FakeEvent *>(start);
  auto *B = reinterpret_cast<FakeEvent *>(end);
  if (!A->WasRecorded || !B->WasRecorded)
    return CUDA_ERROR_INVALID_HANDLE;
  *ms = std::chrono::duration<float, std::milli>(B->Recorded - A->Recorded)
            .count();
  return CUDA_SUCCESS;
}

/// The function libtilert gets for entry point `id`.
void *entryPoint(int id) {
  switch (id) {
  case Id_cuInit:
    return reinterpret_cast<void *>(&fakeInit);
  case Id_cuDriverGetVersion:
    return reinterpret_cast<void *>(&fakeDriverGetVersion);
  case Id_cuGetErrorName:
    return reinterpret_cast<void *>(&fakeGetErrorName);
  case Id_cuGetErrorString:
    return reinterpret_cast<void *>(&fakeGetErrorString);
  case Id_cuDeviceGetCount:
    return reinterpret_cast<void *>(&fakeDeviceGetCount);
  case Id_cuDeviceGet:
    return reinterpret_cast<void *>(&fakeDeviceGet);
  case Id_cuDeviceGetAttribute:
    return reinterpret_cast<void *>(&fakeDeviceGetAttribute);
  case Id_cuDeviceGetName:
    return reinterpret_cast<void *>(&fakeDeviceGetName);
  case Id_cuDevicePrimaryCtxRetain:
    return reinterpret_cast<void *>(&fakePrimaryCtxRetain);
  case Id_cuDevicePrimaryCtxRelease:
    return reinterpret_cast<void *>(&fakePrimaryCtxRelease);
  case Id_cuCtxPushCurrent:
    return reinterpret_cast<void *>(&fakeCtxPushCurrent);
  case Id_cuCtxPopCurrent:
    return reinterpret_cast<void *>(&fakeCtxPopCurrent);
  case Id_cuCtxGetCurrent:
    return reinterpret_cast<void *>(&fakeCtxGetCurrent);
  case Id_cuCtxSetCurrent:
    return reinterpret_cast<void *>(&fakeCtxSetCurrent);
  case Id_cuLibraryLoadData:
    return reinterpret_cast<void *>(&fakeLibraryLoadData);
  case Id_cuLibraryUnload:
    return reinterpret_cast<void *>(&fakeLibraryUnload);
  case Id_cuLibraryGetKernel:
    return reinterpret_cast<void *>(&fakeLibraryGetKernel);
  case Id_cuKernelGetFunction:
    return reinterpret_cast<void *>(&fakeKernelGetFunction);
  case Id_cuFuncSetAttribute:
    return reinterpret_cast<void *>(&fakeFuncSetAttribute);
  case Id_cuFuncLoad:
    return reinterpret_cast<void *>(&fakeFuncLoad);
  case Id_cuLaunchKernelEx:
    return reinterpret_cast<void *>(&fakeLaunchKernelEx);
  case Id_cuOccupancyMaxActiveClusters:
    return reinterpret_cast<void *>(&fakeOccupancyMaxActiveClusters);
  case Id_cuStreamGetCtx:
    return reinterpret_cast<void *>(&fakeStreamGetCtx);
  case Id_cuStreamCreate:
    return reinterpret_cast<void *>(&fakeStreamCreate);
  case Id_cuStreamDestroy:
    return reinterpret_cast<void *>(&fakeStreamDestroy);
  case Id_cuStreamSynchronize:
    return reinterpret_cast<void *>(&fakeStreamSynchronize);
  case Id_cuMemAlloc:
    return reinterpret_cast<void *>(&fakeMemAlloc);
  case Id_cuMemFree:
    return reinterpret_cast<void *>(&fakeMemFree);
  case Id_cuMemcpyHtoD:
    return reinterpret_cast<void *>(&fakeMemcpyHtoD);
  case Id_cuMemcpyDtoH:
    return reinterpret_cast<void *>(&fakeMemcpyDtoH);
  case Id_cuMemcpyDtoD:
    return reinterpret_cast<void *>(&fakeMemcpyDtoD);
  case Id_cuMemsetD8:
    return reinterpret_cast<void *>(&fakeMemsetD8);
  case Id_cuEventCreate:
    return reinterpret_cast<void *>(&fakeEventCreate);
  case Id_cuEventDestroy:
    return reinterpret_cast<void *>(&fakeEventDestroy);
  case Id_cuEventRecord:
    return reinterpret_cast<void *>(&fakeEventRecord);
  case Id_cuEventQuery:
    return reinterpret_cast<void *>(&fakeEventQuery);
  case Id_cuEventElapsedTime:
    return reinterpret_cast<void *>(&fakeEventElapsedTime);
  default:
    break;
  }
  switch (id) {
#define FAKE_CUDA_UNSUPPORTED(Name, Version)                                   \
  case Id_##Name:                                                              \
    return reinterpret_cast<void *>(                                           \
        &Unsupported<Id_##Name, PFN_##Name##_v##Version>::call);
    TILERT_DRIVER_FUNCTIONS(FAKE_CUDA_UNSUPPORTED)
#undef FAKE_CUDA_UNSUPPORTED
  default:
    return nullptr;
  }
}

} // namespace

FAKE_CUDA_EXPORT CUresult CUDAAPI
cuGetProcAddress_v2(const char *symbol, void **function, int, cuuint64_t,
                    CUdriverProcAddressQueryResult *status) {
  *function = nullptr;
  *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  for (int I = 0; I < NumEntries; ++I)
    if (std::strcmp(symbol, EntryNames[I]) == 0) {
      *function = entryPoint(I);
      *status = CU_GET_PROC_ADDRESS_SUCCESS;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_NOT_FOUND;
}

FAKE_CUDA_EXPORT void fakeCudaReset(void) {
  for (std::atomic<uint64_t> &Count : Calls)
    Count.store(0);
  std::lock_guard<std::mutex> Lock(LaunchMutex);
  LastLaunch = FakeCudaLaunch{};
}

FAKE_CUDA_EXPORT void fakeCudaSetParamCount(int32_t count) {
  ParamCount.store(count < 0                      ? 0
                   : count > FAKE_CUDA_MAX_PARAMS ? FAKE_CUDA_MAX_PARAMS
                                                  : count);
}

FAKE_CUDA_EXPORT uint64_t fakeCudaCallCount(const char *name) {
  for (int I = 0; I < NumEntries; ++I)
    if (std::strcmp(name, EntryNames[I]) == 0)
      return Calls[I].load();
  return 0;
}

FAKE_CUDA_EXPORT uint64_t fakeCudaTotalCalls(void) {
  uint64_t Total = 0;
  for (const std::atomic<uint64_t> &Count : Calls)
    Total += Count.load();
  return Total;
}

FAKE_CUDA_EXPORT void fakeCudaLastLaunch(FakeCudaLaunch *out) {
  std::lock_guard<std::mutex> Lock(LaunchMutex);
  *out = LastLaunch;
}
