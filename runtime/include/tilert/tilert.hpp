//===- tilert.hpp - C++ API of the tilec runtime ----------------*- C++ -*-===//
//
// A header-only C++ layer over the C ABI in tilert.h: RAII kernel and
// package handles, typed scalars and exceptions that carry the runtime's status
// and message. Only C symbols cross the library boundary, so this header works
// with any C++17 compiler regardless of how libtilert was built.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_TILERT_HPP
#define TILERT_TILERT_HPP

#include "tilert/float16.hpp"
#include "tilert/tilert.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tilert {

/// The error thrown by every failing call of the C++ API: the runtime's status
/// code plus its message (which names the argument, field or file at fault).
class Error : public std::runtime_error {
public:
  /// Creates an error with `status` and `message`.
  Error(tilertStatus status, const std::string &message)
      : std::runtime_error(std::string(tilertGetErrorName(status)) + ": " +
                           message),
        Status(status), Message(message) {}

  /// The status code of the failed call.
  tilertStatus status() const noexcept { return Status; }

  /// The runtime's message, without the status name prefix of what().
  const std::string &message() const noexcept { return Message; }

private:
  tilertStatus Status;
  std::string Message;
};

/// Throws Error with the calling thread's last message unless `status` is
/// TILERT_SUCCESS.
inline void check(tilertStatus status) {
  if (status != TILERT_SUCCESS)
    throw Error(status, tilertGetLastErrorMessage());
}

/// Returns the metadata spelling of `dtype` ("f32"), or "invalid".
inline std::string dtypeName(tilertDType dtype) {
  const char *Name = tilertDTypeName(dtype);
  return Name ? Name : "invalid";
}

/// Returns the size in bytes of one element of `dtype` (0 if invalid).
inline size_t dtypeSize(tilertDType dtype) { return tilertDTypeSize(dtype); }

/// A typed runtime scalar argument.
class Scalar {
public:
  /// An f32 scalar.
  static Scalar f32(float value) {
    Scalar S(TILERT_DTYPE_F32);
    S.Raw.value.f32 = value;
    return S;
  }
  /// An f64 scalar.
  static Scalar f64(double value) {
    Scalar S(TILERT_DTYPE_F64);
    S.Raw.value.f64 = value;
    return S;
  }
  /// An f16 scalar, rounded from `value` to nearest even.
  static Scalar f16(float value) {
    Scalar S(TILERT_DTYPE_F16);
    S.Raw.value.f16 = halfFromFloat(value);
    return S;
  }
  /// A bf16 scalar, rounded from `value` to nearest even.
  static Scalar bf16(float value) {
    Scalar S(TILERT_DTYPE_BF16);
    S.Raw.value.bf16 = bfloat16FromFloat(value);
    return S;
  }
  /// An i8 scalar.
  static Scalar i8(int8_t value) {
    Scalar S(TILERT_DTYPE_I8);
    S.Raw.value.i8 = value;
    return S;
  }
  /// An i16 scalar.
  static Scalar i16(int16_t value) {
    Scalar S(TILERT_DTYPE_I16);
    S.Raw.value.i16 = value;
    return S;
  }
  /// An i32 scalar.
  static Scalar i32(int32_t value) {
    Scalar S(TILERT_DTYPE_I32);
    S.Raw.value.i32 = value;
    return S;
  }
  /// An i64 scalar.
  static Scalar i64(int64_t value) {
    Scalar S(TILERT_DTYPE_I64);
    S.Raw.value.i64 = value;
    return S;
  }
  /// A u8 scalar.
  static Scalar u8(uint8_t value) {
    Scalar S(TILERT_DTYPE_U8);
    S.Raw.value.u8 = value;
    return S;
  }
  /// A u32 scalar.
  static Scalar u32(uint32_t value) {
    Scalar S(TILERT_DTYPE_U32);
    S.Raw.value.u32 = value;
    return S;
  }
  /// A bool scalar.
  static Scalar boolean(bool value) {
    Scalar S(TILERT_DTYPE_BOOL);
    S.Raw.value.boolean = value ? 1 : 0;
    return S;
  }

  /// The C representation passed to tilertKernelLaunch.
  const tilertScalar &raw() const noexcept { return Raw; }

private:
  explicit Scalar(tilertDType dtype) : Raw{} { Raw.dtype = dtype; }
  tilertScalar Raw;
};

/// A read-only view of consecutive `T`s (what Kernel::launch takes), made
/// from a braced list, a std::vector, a std::array, a C array or a pointer
/// and a size.
/// It copies nothing, so passing arguments allocates nothing; a view of a
/// braced list is valid until the end of the full expression it is in.
template <typename T> class ArrayView {
public:
  /// An empty view.
  ArrayView() = default;
  /// The elements of a braced list (valid for the call it is an argument
  /// of; GCC warns about any view of a list, as it does for llvm::ArrayRef).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  ArrayView(std::initializer_list<T> list)
      : Data(list.begin()), Size(list.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  /// The elements of `vector`.
  template <typename Allocator>
  ArrayView(const std::vector<T, Allocator> &vector)
      : Data(vector.data()), Size(vector.size()) {}
  /// The elements of `array`.
  template <size_t N>
  ArrayView(const std::array<T, N> &array) : Data(array.data()), Size(N) {}
  /// The elements of a C array.
  template <size_t N> ArrayView(const T (&array)[N]) : Data(array), Size(N) {}
  /// `size` elements starting at `data`.
  ArrayView(const T *data, size_t size) : Data(data), Size(size) {}

  /// The first element (nullptr when empty).
  const T *data() const noexcept { return Data; }
  /// The number of elements.
  size_t size() const noexcept { return Size; }

private:
  const T *Data = nullptr;
  size_t Size = 0;
};

/// One dimension of a tensor parameter: a named dim or a constant extent.
struct ShapeEntry {
  /// The dim name; empty where the extent is the constant `value`.
  std::string dim;
  /// The constant extent; -1 where the extent is the named `dim`.
  int64_t value = -1;
};

/// A tensor parameter of a kernel.
struct TensorParam {
  /// Parameter name.
  std::string name;
  /// Required element type.
  tilertDType dtype = TILERT_DTYPE_INVALID;
  /// Required shape, outermost first.
  std::vector<ShapeEntry> shape;
  /// Byte alignment the kernel assumes for the address.
  int64_t alignment = 0;
};

/// A scalar parameter of a kernel.
struct ScalarParam {
  /// Parameter name.
  std::string name;
  /// Required element type.
  tilertDType dtype = TILERT_DTYPE_INVALID;
};

/// Helpers of the handle classes below (not part of the API).
namespace impl {

/// The scalars of `scalars` as the C API takes them.
inline const tilertScalar *rawScalars(ArrayView<Scalar> scalars) {
  // A Scalar is its tilertScalar (standard layout, one member), so an
  // array of them is an array of tilertScalars.
  static_assert(sizeof(Scalar) == sizeof(tilertScalar) &&
                    alignof(Scalar) == alignof(tilertScalar),
                "Scalar must wrap exactly one tilertScalar");
  return scalars.size() ? &scalars.data()->raw() : nullptr;
}

/// The `count` tensor parameters of `handle` (a kernel or a package),
/// read with `get`.
template <typename Handle>
std::vector<TensorParam>
readTensorParams(Handle handle, int32_t count,
                 tilertStatus (*get)(Handle, int32_t, tilertTensorParam *)) {
  std::vector<TensorParam> Result;
  for (int32_t I = 0; I < count; ++I) {
    tilertTensorParam Raw;
    check(get(handle, I, &Raw));
    TensorParam Param;
    Param.name = Raw.name;
    Param.dtype = Raw.dtype;
    Param.alignment = Raw.alignment;
    for (int32_t D = 0; D < Raw.rank; ++D)
      Param.shape.push_back(
          {Raw.dim_names[D] ? Raw.dim_names[D] : "", Raw.dim_values[D]});
    Result.push_back(std::move(Param));
  }
  return Result;
}

/// The `count` dim names of `handle`, read with `get`.
template <typename Handle>
std::vector<std::string> readDimNames(Handle handle, int32_t count,
                                      tilertStatus (*get)(Handle, int32_t,
                                                          const char **)) {
  std::vector<std::string> Result;
  for (int32_t I = 0; I < count; ++I) {
    const char *Name;
    check(get(handle, I, &Name));
    Result.emplace_back(Name);
  }
  return Result;
}

/// The `count` scalar parameters of `handle`, read with `get`.
template <typename Handle>
std::vector<ScalarParam>
readScalarParams(Handle handle, int32_t count,
                 tilertStatus (*get)(Handle, int32_t, tilertScalarParam *)) {
  std::vector<ScalarParam> Result;
  for (int32_t I = 0; I < count; ++I) {
    tilertScalarParam Raw;
    check(get(handle, I, &Raw));
    Result.push_back({Raw.name, Raw.dtype});
  }
  return Result;
}

} // namespace impl

/// A kernel handle that does not own the kernel: what Package::select
/// returns (the package owns its variants), and the base of Kernel. Safe to
/// launch from many threads.
class KernelView {
public:
  /// A view of `handle`, which must stay valid while the view is used.
  explicit KernelView(tilertKernel handle) noexcept : Handle(handle) {}

  /// The kernel's summary (strings valid while the kernel lives).
  tilertKernelInfo info() const {
    tilertKernelInfo Info;
    check(tilertKernelGetInfo(Handle, &Info));
    return Info;
  }

  /// The kernel name in the .tile source.
  std::string name() const { return info().name; }

  /// The target architecture, e.g. "sm_90a".
  std::string arch() const { return info().arch; }

  /// The tensor parameters in ABI order.
  std::vector<TensorParam> tensors() const {
    return impl::readTensorParams(Handle, info().num_tensors,
                                  tilertKernelGetTensorParam);
  }

  /// The dim parameters (names) in ABI order.
  std::vector<std::string> dims() const {
    return impl::readDimNames(Handle, info().num_dims, tilertKernelGetDimName);
  }

  /// The scalar parameters in ABI order.
  std::vector<ScalarParam> scalars() const {
    return impl::readScalarParams(Handle, info().num_scalars,
                                  tilertKernelGetScalarParam);
  }

  /// Loads the kernel on CUDA device `device` now rather than at its first
  /// launch there.
  void prepare(int32_t device) const {
    check(tilertKernelPrepare(Handle, device));
  }

  /// Validates the arguments and launches on `stream`; throws Error (and
  /// launches nothing) on any mismatch. Nothing is copied or allocated on
  /// the way to tilertKernelLaunch: `kernel.launch({&a, &b, &c},
  /// {tilert::Scalar::f32(0.5f)}, stream)`.
  void launch(ArrayView<const DLTensor *> tensors,
              ArrayView<Scalar> scalars = {}, CUstream stream = nullptr) const {
    check(tilertKernelLaunch(Handle, tensors.data(),
                             static_cast<int32_t>(tensors.size()),
                             impl::rawScalars(scalars),
                             static_cast<int32_t>(scalars.size()), stream));
  }

  /// The underlying C handle.
  tilertKernel handle() const noexcept { return Handle; }

protected:
  /// The kernel (which a Kernel owns and a plain view does not).
  tilertKernel Handle = nullptr;
};

/// A loaded kernel (move-only RAII handle). Safe to launch from many threads.
class Kernel : public KernelView {
public:
  /// Loads and validates the metadata JSON at `jsonPath` and its binaries.
  explicit Kernel(const std::string &jsonPath) : KernelView(nullptr) {
    check(tilertKernelLoad(jsonPath.c_str(), &Handle));
  }

  /// Loads a kernel from memory: its metadata `json`, called `name` in
  /// messages, and its binaries in the metadata's order (see
  /// tilertKernelLoadFromMemory); reads no file.
  static Kernel fromMemory(const std::string &json, const std::string &name,
                           ArrayView<tilertBinary> binaries) {
    Kernel Result;
    check(tilertKernelLoadFromMemory(
        json.data(), json.size(), name.c_str(), binaries.data(),
        static_cast<int32_t>(binaries.size()), &Result.Handle));
    return Result;
  }

  Kernel(const Kernel &) = delete;
  Kernel &operator=(const Kernel &) = delete;
  /// Takes over `other`'s handle.
  Kernel(Kernel &&other) noexcept
      : KernelView(std::exchange(other.Handle, nullptr)) {}
  /// Releases the current handle and takes over `other`'s.
  Kernel &operator=(Kernel &&other) noexcept {
    if (this != &other) {
      tilertKernelDestroy(Handle);
      Handle = std::exchange(other.Handle, nullptr);
    }
    return *this;
  }
  /// Releases the kernel and everything it loaded on devices.
  ~Kernel() { tilertKernelDestroy(Handle); }

private:
  Kernel() : KernelView(nullptr) {}
};

/// The variant of a package selected for a device and dims.
struct Selection {
  /// The variant's kernel, owned by the package (valid while it lives).
  KernelView kernel;
  /// The variant's name (index.json `name`).
  std::string variant;
};

/// An open kernel package (move-only RAII handle): the variants
/// `tilec-tune compile` wrote and, once benchmarked, their tuning
/// database; a launch dispatches to the variant selected for the tensors'
/// device and dims. Safe to use from many threads.
class Package {
public:
  /// Opens and validates the package in directory `dir`.
  explicit Package(const std::string &dir) {
    check(tilertPackageOpen(dir.c_str(), &Handle));
  }

  Package(const Package &) = delete;
  Package &operator=(const Package &) = delete;
  /// Takes over `other`'s handle.
  Package(Package &&other) noexcept
      : Handle(std::exchange(other.Handle, nullptr)) {}
  /// Releases the current handle and takes over `other`'s.
  Package &operator=(Package &&other) noexcept {
    if (this != &other) {
      tilertPackageDestroy(Handle);
      Handle = std::exchange(other.Handle, nullptr);
    }
    return *this;
  }
  /// Releases the package and every variant it loaded.
  ~Package() { tilertPackageDestroy(Handle); }

  /// The package's summary (strings valid while this Package lives).
  tilertPackageInfo info() const {
    tilertPackageInfo Info;
    check(tilertPackageGetInfo(Handle, &Info));
    return Info;
  }

  /// The kernel's name.
  std::string kernelName() const { return info().kernel; }

  /// The name of the default variant.
  std::string defaultVariant() const { return info().default_variant; }

  /// Whether the package has a tuning database (tuning.json).
  bool tuned() const { return info().tuned != 0; }

  /// The tensor parameters every variant shares, in ABI order.
  std::vector<TensorParam> tensors() const {
    return impl::readTensorParams(Handle, info().num_tensors,
                                  tilertPackageGetTensorParam);
  }

  /// The dim parameters (names) in ABI order: the order select() takes.
  std::vector<std::string> dims() const {
    return impl::readDimNames(Handle, info().num_dims, tilertPackageGetDimName);
  }

  /// The scalar parameters every variant shares, in ABI order.
  std::vector<ScalarParam> scalars() const {
    return impl::readScalarParams(Handle, info().num_scalars,
                                  tilertPackageGetScalarParam);
  }

  /// The variant for CUDA device `device` and `dims` (in dims() order), as
  /// tilertPackageSelect chooses it.
  Selection select(int32_t device, ArrayView<int64_t> dims) const {
    tilertKernel Kernel = nullptr;
    const char *Name = nullptr;
    check(tilertPackageSelect(Handle, device, dims.data(),
                              static_cast<int32_t>(dims.size()), &Kernel,
                              &Name));
    return {KernelView(Kernel), Name};
  }

  /// Selects the variant for the tensors' device and dims and launches it
  /// on `stream`, as Kernel::launch does; throws Error (and launches
  /// nothing) on any mismatch.
  void launch(ArrayView<const DLTensor *> tensors,
              ArrayView<Scalar> scalars = {}, CUstream stream = nullptr) const {
    check(tilertPackageLaunch(Handle, tensors.data(),
                              static_cast<int32_t>(tensors.size()),
                              impl::rawScalars(scalars),
                              static_cast<int32_t>(scalars.size()), stream));
  }

  /// The underlying C handle (owned by this object).
  tilertPackage handle() const noexcept { return Handle; }

private:
  tilertPackage Handle = nullptr;
};

} // namespace tilert

#endif // TILERT_TILERT_HPP
