//===- SetTarget.cpp - Set the module's target ----------------------------===//
//
// Implements `tile-set-target` (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/Tile/TileTarget.h"

#include "mlir/IR/BuiltinOps.h"

namespace tilec {
#define GEN_PASS_DEF_TILESETTARGET
#include "passes/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {
struct SetTarget : public tilec::impl::TileSetTargetBase<SetTarget> {
  using Base::Base;

  void runOnOperation() override {
    const tilec::TargetDescription *description =
        tilec::lookupTarget(std::string_view(arch));
    std::string future = tilec::describeFutureArch(std::string_view(arch));
    if (!description && !future.empty()) {
      emitError(getOperation().getLoc()) << future;
      return signalPassFailure();
    }
    if (!description) {
      emitError(getOperation().getLoc())
          << "unknown architecture '" << arch
          << "' (valid: " << tilec::getArchList() << ")";
      return signalPassFailure();
    }
    unsigned version = ptx ? unsigned(ptx) : description->DefaultPtxVersion;
    auto emitDiagnostic = [&] { return emitError(getOperation().getLoc()); };
    if (failed(
            tile::TargetAttr::verifyInvariants(emitDiagnostic, arch, version)))
      return signalPassFailure();
    auto target = tile::TargetAttr::get(&getContext(), arch, version);
    tile::TargetAttr existing = tile::getTarget(getOperation());
    if (existing && existing != target) {
      emitError(getOperation().getLoc())
          << "the module's target " << existing << " is not " << target;
      return signalPassFailure();
    }
    tile::setTarget(getOperation(), target);
  }
};
} // namespace
