//===- KernelParams.cpp - The kernel's .param list --------------*- C++ -*-===//

#include "KernelParams.h"

#include "DType.h"

#include <cstring>

namespace tilert::detail {

void KernelParams::assign(const KernelMetadata &metadata, const BoundArgs &args,
                          const tilertScalar *scalars) {
  // The pointers below point into Slots: reserve first, so that it does not
  // move while they are taken.
  Slots.clear();
  Slots.reserve(args.Addresses.size() + args.Dims.size() +
                metadata.Scalars.size());
  for (uint64_t Address : args.Addresses)
    Slots.push_back(Address);
  for (int64_t Dim : args.Dims)
    Slots.push_back(static_cast<uint64_t>(Dim));
  for (size_t I = 0; I < metadata.Scalars.size(); ++I) {
    // Union members start at its first byte, so this copies the value of the
    // member the dtype selects into the slot's low (little-endian) bytes.
    uint64_t Slot = 0;
    std::memcpy(&Slot, &scalars[I].value, dtypeSize(scalars[I].dtype));
    Slots.push_back(Slot);
  }
  TensorMaps.assign(metadata.TensorMaps.size(), CUtensorMap{});
  Pointers.clear();
  Pointers.reserve(Slots.size() + TensorMaps.size());
  for (uint64_t &Slot : Slots)
    Pointers.push_back(&Slot);
  for (CUtensorMap &Map : TensorMaps)
    Pointers.push_back(&Map);
}

} // namespace tilert::detail
