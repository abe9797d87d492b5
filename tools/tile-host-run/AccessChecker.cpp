//===- AccessChecker.cpp - Checks a host run's global accesses ------------===//

#include "AccessChecker.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace tilehost;

void AccessChecker::addTensor(std::string name, std::string type,
                              const char *base, uint64_t bytes,
                              uint64_t elementBytes) {
  tensors.push_back(
      {std::move(name), std::move(type), base, bytes, elementBytes});
}

void *AccessChecker::check(void *address, uint64_t bytes, uint64_t alignment,
                           bool isStore) {
  ++numChecked;
  const char *begin = static_cast<const char *>(address);
  bool inBounds = false;
  for (const Tensor &tensor : tensors)
    inBounds |= begin >= tensor.base && bytes <= tensor.bytes &&
                begin - tensor.base <= int64_t(tensor.bytes - bytes);
  bool aligned = reinterpret_cast<uintptr_t>(begin) % alignment == 0;
  if (inBounds && aligned)
    return address;
  if (numInvalid++ < kMaxDescribed)
    described.push_back(describe(begin, bytes, alignment, isStore, inBounds));
  scratch.fill(0);
  return scratch.data();
}

std::string AccessChecker::describe(const char *address, uint64_t bytes,
                                    uint64_t alignment, bool isStore,
                                    bool inBounds) const {
  // Relate the address to the nearest tensor.
  const Tensor *nearest = nullptr;
  uint64_t distance = UINT64_MAX;
  for (const Tensor &tensor : tensors) {
    uint64_t gap = address < tensor.base ? tensor.base - address
                   : address >= tensor.base + tensor.bytes
                       ? address - (tensor.base + tensor.bytes) + 1
                       : 0;
    if (gap < distance) {
      distance = gap;
      nearest = &tensor;
    }
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << (inBounds ? "misaligned " : "out-of-bounds ") << bytes << "-byte "
     << (isStore ? "store" : "load");
  if (nearest) {
    int64_t offset = address - nearest->base;
    os << " at element " << offset / int64_t(nearest->elementBytes);
    if (offset % int64_t(nearest->elementBytes))
      os << " (+" << offset % int64_t(nearest->elementBytes) << " bytes)";
    os << " of " << nearest->name << " (" << nearest->type << ", "
       << nearest->bytes / nearest->elementBytes << " elements)";
  }
  if (inBounds)
    os << ", which is not " << alignment << "-byte aligned";
  os << ", by block (" << specialRegisters[kCtaidX] << ", "
     << specialRegisters[kCtaidY] << ", " << specialRegisters[kCtaidZ]
     << ") thread " << specialRegisters[kTidX];
  return text;
}

void AccessChecker::print(llvm::raw_ostream &os) const {
  for (const std::string &line : described)
    os << "  " << line << "\n";
  if (numInvalid > described.size())
    os << "  ... and " << numInvalid - described.size()
       << " more invalid accesses\n";
}

void *tilehost::checkAccess(AccessChecker *checker, void *address,
                            uint64_t bytes, uint64_t alignment,
                            uint32_t isStore) {
  return checker->check(address, bytes, alignment, isStore != 0);
}
