//===- TileTarget.cpp - The target a module is compiled for ---------------===//

#include "dialects/Tile/TileTarget.h"

#include "dialects/Tile/TileOps.h"

using namespace mlir;
using namespace mlir::tile;

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef arch, unsigned ptx) {
  const tilec::TargetDescription *description =
      tilec::lookupTarget(std::string_view(arch.data(), arch.size()));
  std::string future =
      tilec::describeFutureArch(std::string_view(arch.data(), arch.size()));
  if (!description && !future.empty())
    return emitError() << future;
  if (!description)
    return emitError() << "unknown architecture '" << arch
                       << "' (valid: " << tilec::getArchList() << ")";
  if (ptx < description->MinPtxVersion)
    return emitError() << "PTX ISA " << ptx / 10 << "." << ptx % 10
                       << " cannot target " << arch << " (it needs at least "
                       << description->MinPtxVersion / 10 << "."
                       << description->MinPtxVersion % 10 << ")";
  return success();
}

const tilec::TargetDescription &TargetAttr::getDescription() const {
  // The verifier guarantees that the name is in the table.
  StringRef arch = getArch();
  return *tilec::lookupTarget(std::string_view(arch.data(), arch.size()));
}

TargetAttr mlir::tile::getTarget(Operation *op) {
  StringRef name = TileDialect::TargetAttrHelper::getNameStr();
  for (; op; op = op->getParentOp())
    if (auto target = op->getAttrOfType<TargetAttr>(name))
      return target;
  return {};
}

FailureOr<TargetAttr> mlir::tile::requireTarget(Operation *op,
                                                StringRef passName) {
  if (TargetAttr target = getTarget(op))
    return target;
  return op->emitOpError("is not in a module with a '")
         << TileDialect::TargetAttrHelper::getNameStr() << "' attribute, which "
         << passName
         << " needs (e.g. `module attributes {tile.target = "
            "#tile.target<\"sm_90a\", ptx = 83>}`)";
}

void mlir::tile::setTarget(Operation *op, TargetAttr target) {
  op->setAttr(TileDialect::TargetAttrHelper::getNameStr(), target);
}
