//===- TensorMaps.cpp - The TMA tensor maps of a kernel -------------------===//

#include "passes/Analysis/TensorMaps.h"

#include "dialects/Tile/TileLayouts.h"
#include "passes/Analysis/AccessAnalysis.h"

using namespace mlir;
using namespace tilec;

std::optional<TmaBoxes> tilec::describeTmaBoxes(tile::BufferType tile) {
  if (!tile.isShared() || tile.getRank() != 2)
    return std::nullopt;
  auto layout = dyn_cast_or_null<tile::SwizzledLayoutAttr>(tile.getLayout());
  int64_t rows = tile.getDimSize(0), width = tile.getDimSize(1);
  int64_t elementBytes = storageBytes(tile.getElementType());
  if (!layout || rows > 256)
    return std::nullopt;
  // The panels a wgmma descriptor describes are those a TMA box writes: one
  // swizzle span wide, in that swizzle's pattern of 16-byte vectors.
  std::optional<tile::WgmmaOperandLayout> described = layout.describeForWgmma(
      rows, width, elementBytes, /*contiguousIsK=*/true);
  if (!described)
    return std::nullopt;
  TmaBoxes boxes;
  boxes.boxRows = rows;
  boxes.boxColumns = layout.getPanelWidth(width);
  boxes.panels = width / boxes.boxColumns;
  boxes.swizzleBytes = described->swizzleBytes;
  return boxes;
}

namespace {

/// The map `copy` needs (without its name), or std::nullopt if it is not
/// a TMA copy (a load into its target tile, or a store through its staging
/// tile) of a tensor argument.
std::optional<TensorMapParam> requiredMap(tile::CopyOp copy) {
  bool load = copy.getBarrier() != nullptr;
  auto argument =
      dyn_cast<BlockArgument>(load ? copy.getSource() : copy.getTarget());
  if ((!load && !copy.getStaging()) || !argument)
    return std::nullopt;
  Value tile = load ? copy.getTarget() : copy.getStaging();
  std::optional<TmaBoxes> boxes =
      describeTmaBoxes(cast<tile::BufferType>(tile.getType()));
  if (!boxes)
    return std::nullopt;
  TensorMapParam map;
  map.argument = argument.getArgNumber();
  map.boxRows = boxes->boxRows;
  // Each block of a cluster loads its band of the rows of a multicast box.
  if (copy.getMulticast())
    map.boxRows /=
        copy->getParentOfType<tile::WarpSpecializeOp>().getClusterBlocks();
  map.boxColumns = boxes->boxColumns;
  map.swizzleBytes = boxes->swizzleBytes;
  return map;
}

bool sameMap(const TensorMapParam &a, const TensorMapParam &b) {
  return a.argument == b.argument && a.boxRows == b.boxRows &&
         a.boxColumns == b.boxColumns && a.swizzleBytes == b.swizzleBytes;
}

} // namespace

SmallVector<TensorMapParam> tilec::collectTensorMaps(tile::KernelOp kernel) {
  SmallVector<TensorMapParam> maps;
  kernel.walk([&](tile::CopyOp copy) {
    std::optional<TensorMapParam> map = requiredMap(copy);
    if (!map || findTensorMap(maps, copy))
      return;
    std::string tensor = kernel.getArgName(map->argument).str();
    int64_t earlier = llvm::count_if(maps, [&](const TensorMapParam &other) {
      return other.argument == map->argument;
    });
    map->name = tensor + "_map" + (earlier ? std::to_string(earlier) : "");
    maps.push_back(std::move(*map));
  });
  return maps;
}

std::optional<size_t> tilec::findTensorMap(ArrayRef<TensorMapParam> maps,
                                           tile::CopyOp copy) {
  std::optional<TensorMapParam> map = requiredMap(copy);
  if (!map)
    return std::nullopt;
  for (auto [index, other] : llvm::enumerate(maps))
    if (sameMap(other, *map))
      return index;
  return std::nullopt;
}
