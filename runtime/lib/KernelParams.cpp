//===- KernelParams.cpp - The kernel's .param list --------------*- C++ -*-===//

#include "KernelParams.h"

#include "DType.h"

#include <cstring>

namespace tilert::detail {

void KernelParams::assign(const KernelMetadata &metadata, const BoundArgs &args,
                          const tilertScalar *scalars) {
  size_t NumAddresses = args.Addresses.size();
  size_t NumDims = args.Dims.size();
  size_t NumSlots = NumAddresses + NumDims + metadata.Scalars.size();
  size_t NumMaps = metadata.TensorMaps.size();
  // The pointers point into Slots and TensorMaps, which keep their storage
  // while their sizes stay: they are taken again only when a size changes.
  if (Slots.size() != NumSlots || TensorMaps.size() != NumMaps) {
    Slots.resize(NumSlots);
    TensorMaps.resize(NumMaps);
    Pointers.clear();
    for (uint64_t &Slot : Slots)
      Pointers.push_back(&Slot);
    for (CUtensorMap &Map : TensorMaps)
      Pointers.push_back(&Map);
  }
  uint64_t *Slot = Slots.data();
  for (uint64_t Address : args.Addresses)
    *Slot++ = Address;
  for (int64_t Dim : args.Dims)
    *Slot++ = static_cast<uint64_t>(Dim);
  for (size_t I = 0; I < metadata.Scalars.size(); ++I) {
    // Union members start at its first byte, so this copies the value of the
    // member the dtype selects into the slot's low (little-endian) bytes.
    *Slot = 0;
    std::memcpy(Slot++, &scalars[I].value, dtypeSize(scalars[I].dtype));
  }
  if (NumMaps)
    std::memset(static_cast<void *>(TensorMaps.data()), 0,
                NumMaps * sizeof(CUtensorMap));
}

} // namespace tilert::detail
