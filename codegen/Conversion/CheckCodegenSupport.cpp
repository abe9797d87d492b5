//===- CheckCodegenSupport.cpp - Reject what cannot be lowered yet --------===//
//
// Implements `tile-check-codegen-support` (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "codegen/Conversion/Passes.h"

#include "codegen/Conversion/TileToLLVM/Lowerings.h"
#include "dialects/Tile/TileOps.h"
#include "dialects/Tile/TileTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace tilec {
#define GEN_PASS_DEF_TILECHECKCODEGENSUPPORT
#include "codegen/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;

namespace {
/// True for the tile ops the code generator lowers: the kernel structure
/// and every op `convert-tile-to-llvm` has a lowering for.
bool isSupportedTileOp(Operation *op) {
  return isa<tile::KernelOp, tile::LaunchOp, tile::ReturnOp, tile::YieldOp>(
             op) ||
         tilec::getTileLowerings().supports(op);
}

/// True for element types with a memory representation the lowering knows.
bool isSupportedElementType(Type type) {
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
         type.isSignlessInteger(1) || type.isSignlessInteger(8) ||
         type.isSignlessInteger(16) || type.isSignlessInteger(32) ||
         type.isSignlessInteger(64);
}

/// False for an access of a fragment that is not inside a `tile.parallel`
/// loop (one indexed otherwise than the loop distributes it, such as a
/// broadcast `m[0]`, is replicated by tile-infer-layouts).
bool isLowerableFragmentAccess(tile::AccessOpInterface access) {
  auto loop = access->getParentOfType<tile::ParallelOp>();
  return loop && !loop->getParentOfType<tile::ParallelOp>();
}

struct CheckCodegenSupport
    : public tilec::impl::TileCheckCodegenSupportBase<CheckCodegenSupport> {
  void runOnOperation() override {
    FailureOr<tile::TargetAttr> target =
        tile::requireTarget(getOperation(), getArgument());
    if (mlir::failed(target))
      return signalPassFailure();
    StringRef arch = target->getArch();
    bool failed = false;
    auto unsupported = [&](Location loc, auto &&describe) {
      InFlightDiagnostic diag = emitError(loc);
      describe(diag);
      diag << " is not supported by the " << arch << " code generator yet";
      failed = true;
    };

    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      Dialect *dialect = op->getDialect();
      bool isTile = isa_and_nonnull<tile::TileDialect>(dialect);
      bool supported =
          isTile ? isSupportedTileOp(op)
                 : isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
                       dialect);
      if (!supported) {
        unsupported(op->getLoc(), [&](InFlightDiagnostic &diag) {
          diag << "'" << op->getName() << "'";
        });
        // The bodies of unsupported tile ops are still checked; those of
        // foreign ops are foreign too.
        return isTile ? WalkResult::advance() : WalkResult::skip();
      }
      auto access = dyn_cast<tile::AccessOpInterface>(op);
      auto type = access ? cast<tile::BufferType>(access.getBuffer().getType())
                         : tile::BufferType();
      if (type && type.isFragment() && !isLowerableFragmentAccess(access)) {
        unsupported(op->getLoc(), [&](InFlightDiagnostic &diag) {
          diag << "'" << op->getName()
               << "' of a fragment outside a 'tile.parallel' loop (shape [";
          llvm::interleaveComma(type.getShape(), diag);
          diag << "])";
        });
      }
      for (Type type : op->getResultTypes()) {
        auto buffer = dyn_cast<tile::BufferType>(type);
        Type element = buffer ? buffer.getElementType() : type;
        if (element.isIndex() || isSupportedElementType(element))
          continue;
        unsupported(op->getLoc(), [&](InFlightDiagnostic &diag) {
          diag << "element type " << element;
        });
      }
      return WalkResult::advance();
    });
    for (BlockArgument arg : getOperation().getArguments()) {
      auto buffer = dyn_cast<tile::BufferType>(arg.getType());
      Type element = buffer ? buffer.getElementType() : arg.getType();
      if (!element.isIndex() && !isSupportedElementType(element))
        unsupported(arg.getLoc(), [&](InFlightDiagnostic &diag) {
          diag << "element type " << element;
        });
    }
    if (failed)
      signalPassFailure();
  }
};
} // namespace
