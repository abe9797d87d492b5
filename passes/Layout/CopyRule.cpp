//===- CopyRule.cpp - Layouts of copies into and out of fragments ---------===//
//
// The layout rule of `tile.copy` with a fragment operand: a fragment copied
// into another fragment shares its layout (the copy is then register to
// register, with a conversion: FlashAttention's `copy(S_f, P_f)`); a
// fragment copied from or to a global tensor or a shared tile would like a
// `#tile.flat` layout whose vectors are 16-byte accesses of the other
// operand (a preference that a GEMM's or a broadcast's layout overrides).
//
//===----------------------------------------------------------------------===//

#include "passes/Layout/LayoutConstraints.h"
#include "passes/Layout/LayoutRules.h"

#include "passes/Analysis/AccessAnalysis.h"

using namespace mlir;
using namespace tilec;

namespace {
struct CopyLayoutRule
    : public LayoutRuleOpInterface::ExternalModel<CopyLayoutRule,
                                                  tile::CopyOp> {
  LogicalResult addLayoutConstraints(Operation *op,
                                     LayoutConstraints &constraints) const {
    auto copy = cast<tile::CopyOp>(op);
    Operation *source = copy.getSource().getDefiningOp<tile::AllocFragmentOp>();
    Operation *target = copy.getTarget().getDefiningOp<tile::AllocFragmentOp>();
    if (source && target) {
      constraints.unify(source, target);
      return success();
    }
    Operation *fragment = source ? source : target;
    if (!fragment)
      return success();
    auto fragmentType =
        cast<tile::BufferType>(fragment->getResult(0).getType());
    auto otherType = cast<tile::BufferType>(
        (source ? copy.getTarget() : copy.getSource()).getType());
    int64_t vec = kMaxVectorBytes / storageBytes(otherType.getElementType());
    while (vec > 1 && fragmentType.getShape().back() % vec != 0)
      vec /= 2;
    constraints.addHolder(fragment,
                          tile::FlatLayoutAttr::get(op->getContext(), vec), op);
    return success();
  }
};
} // namespace

void tilec::registerCopyLayoutRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, tile::TileDialect *) {
    tile::CopyOp::attachInterface<CopyLayoutRule>(*context);
  });
}
