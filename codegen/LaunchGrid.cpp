//===- LaunchGrid.cpp - Grid extents of a launch as expressions -----------===//

#include "codegen/LaunchGrid.h"

#include "codegen/GridExpr.h"
#include "dialects/Tile/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilec;

namespace {
/// Builds the expression of one grid operand.
class GridExprBuilder {
public:
  explicit GridExprBuilder(tile::LaunchOp launch)
      : launch(launch), kernel(launch->getParentOfType<tile::KernelOp>()) {}

  /// Builds the expression of `value`, which `user` (an op, or the launch)
  /// uses; a value that is no expression over dims is reported at `user`.
  FailureOr<GridExpr> build(Value value, Location user) {
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      return GridExpr::integer(constant.getSExtValue());
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner()->getParentOp() == kernel.getOperation() &&
          arg.getType().isIndex())
        return GridExpr::name(kernel.getArgName(arg.getArgNumber()));
      return fail(user);
    }
    Operation *op = value.getDefiningOp();
    auto binary = [&](GridExpr::Kind kind) -> FailureOr<GridExpr> {
      FailureOr<GridExpr> lhs = build(op->getOperand(0), op->getLoc());
      if (failed(lhs))
        return failure();
      FailureOr<GridExpr> rhs = build(op->getOperand(1), op->getLoc());
      if (failed(rhs) || failed(check64Bit(op)))
        return failure();
      return GridExpr::binary(kind, *lhs, *rhs);
    };
    using Kind = GridExpr::Kind;
    return llvm::TypeSwitch<Operation *, FailureOr<GridExpr>>(op)
        .Case<arith::AddIOp>([&](auto) { return binary(Kind::Add); })
        .Case<arith::SubIOp>([&](auto) { return binary(Kind::Sub); })
        .Case<arith::MulIOp>([&](auto) { return binary(Kind::Mul); })
        .Case<arith::DivSIOp>([&](auto) { return binary(Kind::Div); })
        .Case<arith::RemSIOp>([&](auto) { return binary(Kind::Rem); })
        .Case<arith::CeilDivSIOp>([&](auto) { return binary(Kind::CeilDiv); })
        .Case<arith::MinSIOp>([&](auto) { return binary(Kind::Min); })
        .Case<arith::MaxSIOp>([&](auto) { return binary(Kind::Max); })
        .Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::TruncIOp,
              arith::ExtSIOp, arith::ExtUIOp>(
            [&](Operation *cast) -> FailureOr<GridExpr> {
              FailureOr<GridExpr> operand =
                  build(cast->getOperand(0), cast->getLoc());
              if (failed(operand) || failed(check64Bit(cast)))
                return failure();
              return operand;
            })
        .Default([&](Operation *other) { return fail(other->getLoc()); });
  }

private:
  /// The metadata computes in signed 64-bit integers: an op on a narrower
  /// integer (a truncation, arithmetic that wraps at its width) would give
  /// the runtime another grid than the program's.
  LogicalResult check64Bit(Operation *op) {
    SmallVector<Type> types(op->getResultTypes());
    llvm::append_range(types, op->getOperandTypes());
    auto narrow = llvm::find_if_not(types, [](Type type) {
      return type.isIndex() || type.isSignlessInteger(64);
    });
    if (narrow == types.end())
      return success();
    return emitError(op->getLoc())
           << "grid extent is not an expression over dims: it computes in "
           << *narrow << ", the launch metadata in 64-bit integers";
  }

  FailureOr<GridExpr> fail(Location loc) {
    emitError(loc) << "grid extent is not an expression over dims";
    return failure();
  }

  tile::LaunchOp launch;
  tile::KernelOp kernel;
};
} // namespace

FailureOr<std::array<std::string, 3>>
tilec::launchGridExpressions(tile::LaunchOp launch) {
  std::array<std::string, 3> grid = {"1", "1", "1"};
  GridExprBuilder builder(launch);
  for (auto [dim, extent] : llvm::enumerate(launch.getGrid())) {
    FailureOr<GridExpr> expr = builder.build(extent, launch.getLoc());
    if (failed(expr))
      return failure();
    grid[dim] = expr->str();
  }
  return grid;
}
