//===- embedded.hpp - Kernels compiled into an application ------*- C++ -*-===//
//
// The support code of the libraries tilec_add_kernels(... EMBED) generates
// (docs/cmake.md): a kernel whose metadata and binaries are byte arrays in
// the program, with one variant per architecture, loaded from memory on
// first use and launched through tilert::Kernel with the runtime's checks.
// Header-only over the C ABI, like tilert.hpp.
//
//===----------------------------------------------------------------------===//

#ifndef TILERT_EMBEDDED_HPP
#define TILERT_EMBEDDED_HPP

#include "tilert/tilert.hpp"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace tilert {

/// One compiled variant of an embedded kernel (one architecture).
struct EmbeddedVariant {
  /// The JSON's file name, used in messages ("vector_add.sm_90a.json").
  const char *name;
  /// The metadata JSON.
  const char *json;
  /// The JSON's size in bytes.
  size_t jsonSize;
  /// The binaries, in the order of the metadata's `binaries`.
  const tilertBinary *binaries;
  /// The number of binaries.
  int32_t numBinaries;
};

/// A kernel compiled into the program: its variants, loaded from memory on
/// first use, and per device the first variant (in the order given:
/// newest architecture first) that loads there. Thread-safe.
class EmbeddedKernel {
public:
  /// Devices whose choice of variant is remembered; others choose on every
  /// launch.
  static constexpr int32_t RememberedDevices = 64;

  /// The kernel of `count` variants at `variants` (static storage).
  EmbeddedKernel(const EmbeddedVariant *variants, size_t count)
      : Variants(variants), Count(count) {
    for (std::atomic<int32_t> &Choice : Chosen)
      Choice.store(-1, std::memory_order_relaxed);
  }
  EmbeddedKernel(const EmbeddedKernel &) = delete;
  EmbeddedKernel &operator=(const EmbeddedKernel &) = delete;

  /// The variant that runs on CUDA device `device`, loaded on it. Throws
  /// Error: a variant that does not load (TILERT_ERROR_METADATA, ...), or
  /// TILERT_ERROR_ARCH_MISMATCH when none runs there (each one's reason in
  /// the message), or the device's error (TILERT_ERROR_NO_DEVICE, ...).
  const Kernel &forDevice(int32_t device) {
    // A variant that fails to load throws out of call_once, which then
    // runs again on the next call.
    std::call_once(Loaded, [this] {
      std::vector<Kernel> All;
      for (size_t I = 0; I < Count; ++I) {
        const EmbeddedVariant &V = Variants[I];
        All.push_back(Kernel::fromMemory(
            std::string(V.json, V.jsonSize), V.name,
            ArrayView<tilertBinary>(V.binaries,
                                    static_cast<size_t>(V.numBinaries))));
      }
      Kernels = std::move(All);
    });
    bool Remembered = device >= 0 && device < RememberedDevices;
    if (Remembered) {
      int32_t Index = Chosen[device].load(std::memory_order_acquire);
      if (Index >= 0)
        return Kernels[static_cast<size_t>(Index)];
    }
    std::string Reasons;
    for (size_t I = 0; I < Kernels.size(); ++I) {
      try {
        Kernels[I].prepare(device);
      } catch (const Error &E) {
        if (E.status() != TILERT_ERROR_ARCH_MISMATCH)
          throw;
        Reasons += "; " + E.message();
        continue;
      }
      if (Remembered)
        Chosen[device].store(static_cast<int32_t>(I),
                             std::memory_order_release);
      return Kernels[I];
    }
    throw Error(TILERT_ERROR_ARCH_MISMATCH,
                (Kernels.empty() ? std::string() : Kernels[0].name() + ": ") +
                    "no embedded variant runs on CUDA device " +
                    std::to_string(device) + Reasons);
  }

  /// Launches the variant of the first tensor's device (device 0 without
  /// tensors) with Kernel::launch's checks; throws Error.
  void launch(ArrayView<const DLTensor *> tensors,
              ArrayView<Scalar> scalars = {}, CUstream stream = nullptr) {
    int32_t Device = 0;
    if (tensors.size() && tensors.data()[0] &&
        tensors.data()[0]->device.device_type == kDLCUDA)
      Device = tensors.data()[0]->device.device_id;
    forDevice(Device).launch(tensors, scalars, stream);
  }

private:
  const EmbeddedVariant *Variants;
  size_t Count;
  std::once_flag Loaded;
  std::vector<Kernel> Kernels;
  std::array<std::atomic<int32_t>, RememberedDevices> Chosen;
};

/// A compact row-major DLTensor of `shape` (`rank` extents, outermost
/// first) at device address `data` on CUDA device `device`, of the DLPack
/// type `code`/`bits` (what the generated pointer-form functions pass).
inline DLTensor deviceTensor(void *data, int32_t device, uint8_t code,
                             uint8_t bits, int64_t *shape, int32_t rank) {
  DLTensor Tensor{};
  Tensor.data = data;
  Tensor.device = {kDLCUDA, device};
  Tensor.ndim = rank;
  Tensor.dtype = {code, bits, 1};
  Tensor.shape = shape;
  return Tensor;
}

} // namespace tilert

#endif // TILERT_EMBEDDED_HPP
