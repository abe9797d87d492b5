//===- TileEffects.cpp - Memory effects of the tile ops -------------------===//
//
// Every op that reads or writes a buffer reports the effect on the buffer's
// memory resource (TileEffects.h).
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/TileOps.h"

using namespace mlir;
using namespace mlir::tile;

using EffectList =
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>;

SideEffects::Resource *mlir::tile::getMemoryResource(Value buffer) {
  auto type = cast<BufferType>(buffer.getType());
  switch (type.getScope()) {
  case MemoryScope::Global:
    return SideEffects::DefaultResource::get();
  case MemoryScope::Shared:
    return SharedMemoryResource::get();
  case MemoryScope::Fragment:
  case MemoryScope::Local:
    return PrivateMemoryResource::get();
  }
  return SideEffects::DefaultResource::get();
}

namespace {
/// Records a read of `buffer`, an operand of the op that reports it.
void addRead(EffectList &effects, OpOperand &buffer) {
  effects.emplace_back(MemoryEffects::Read::get(), &buffer,
                       getMemoryResource(buffer.get()));
}

/// Records a write of `buffer`, an operand of the op that reports it.
void addWrite(EffectList &effects, OpOperand &buffer) {
  effects.emplace_back(MemoryEffects::Write::get(), &buffer,
                       getMemoryResource(buffer.get()));
}
} // namespace

void LoadOp::getEffects(EffectList &effects) {
  addRead(effects, getBufferMutable());
}

void StoreOp::getEffects(EffectList &effects) {
  addWrite(effects, getBufferMutable());
}

void CopyOp::getEffects(EffectList &effects) {
  addRead(effects, getSourceMutable());
  addWrite(effects, getTargetMutable());
  // A TMA copy arrives on its mbarrier.
  MutableOperandRange barrier = getBarrierMutable();
  if (!barrier.empty())
    addWrite(effects, barrier[0]);
  // A TMA store writes its band of rows through the staging tile.
  MutableOperandRange staging = getStagingMutable();
  if (!staging.empty()) {
    addRead(effects, staging[0]);
    addWrite(effects, staging[0]);
  }
}

void GemmOp::getEffects(EffectList &effects) {
  addRead(effects, getAMutable());
  addRead(effects, getBMutable());
  // C is accumulated into: read (unless cleared) and written.
  addRead(effects, getCMutable());
  addWrite(effects, getCMutable());
}

void FillOp::getEffects(EffectList &effects) {
  addWrite(effects, getBufferMutable());
}

void ClearOp::getEffects(EffectList &effects) {
  addWrite(effects, getBufferMutable());
}

void ReduceOp::getEffects(EffectList &effects) {
  addRead(effects, getSourceMutable());
  // Without `clear`, the target's previous contents are combined in.
  if (!getClear())
    addRead(effects, getTargetMutable());
  addWrite(effects, getTargetMutable());
  for (OpOperand &scratch : getScratchMutable()) {
    addRead(effects, scratch);
    addWrite(effects, scratch);
  }
}
