//===- AccessChecker.h - Checks a host run's global accesses ----*- C++ -*-===//
//
// The host code calls the checker before every load and store of global
// memory (HostLowering.h). An access is valid if it lies within one tensor
// and is aligned as its instruction promises (the GPU faults otherwise).
// Invalid accesses are recorded, with the thread that made them, and
// redirected to a scratch buffer so that the run goes on safely: a load
// from it gives 0, a store to it is lost.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEHOSTRUN_ACCESSCHECKER_H
#define TILEC_TOOLS_TILEHOSTRUN_ACCESSCHECKER_H

#include "HostLowering.h"

#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tilehost {

/// Validates the global accesses of a host run.
class AccessChecker {
public:
  /// The most invalid accesses described; the others are only counted.
  static constexpr size_t kMaxDescribed = 10;

  /// A checker that reads the current thread from `specialRegisters`.
  explicit AccessChecker(
      const std::array<uint32_t, kNumSpecialRegisters> &specialRegisters)
      : specialRegisters(specialRegisters) {}

  /// Declares the tensor `name` of `type` (for messages, e.g. `f32[37, 83]`)
  /// at [`base`, `base` + `bytes`).
  void addTensor(std::string name, std::string type, const char *base,
                 uint64_t bytes, uint64_t elementBytes);

  /// Checks an access of `bytes` at `address` that assumes `alignment`;
  /// returns the address to access instead.
  void *check(void *address, uint64_t bytes, uint64_t alignment, bool isStore);

  /// The number of accesses checked so far.
  uint64_t getNumChecked() const { return numChecked; }
  /// The number of invalid accesses so far.
  uint64_t getNumInvalid() const { return numInvalid; }
  /// Prints one line per described invalid access, and how many more
  /// there were.
  void print(llvm::raw_ostream &os) const;

private:
  struct Tensor {
    std::string name;
    std::string type;
    const char *base;
    uint64_t bytes;
    uint64_t elementBytes;
  };

  std::string describe(const char *address, uint64_t bytes, uint64_t alignment,
                       bool isStore, bool inBounds) const;

  const std::array<uint32_t, kNumSpecialRegisters> &specialRegisters;
  std::vector<Tensor> tensors;
  uint64_t numChecked = 0;
  uint64_t numInvalid = 0;
  std::vector<std::string> described;
  alignas(kMaxAccessBytes) std::array<char, kMaxAccessBytes> scratch{};
};

/// The host function behind kAccessCheckSymbol: calls `checker->check`.
void *checkAccess(AccessChecker *checker, void *address, uint64_t bytes,
                  uint64_t alignment, uint32_t isStore);

} // namespace tilehost

#endif // TILEC_TOOLS_TILEHOSTRUN_ACCESSCHECKER_H
