//===- LayoutRuleInterface.td - Layout rules of ops --------*- tablegen -*-===//
//
// The op interface behind `tile-infer-layouts` (Toy's shape inference is the
// model): every op that constrains the layouts of fragments implements it,
// as an external model registered by the rule's file in passes/Layout/, so
// that a new op family brings its rule without touching the pass.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PASSES_LAYOUT_LAYOUTRULEINTERFACE_TD
#define TILEC_PASSES_LAYOUT_LAYOUTRULEINTERFACE_TD

include "mlir/IR/OpBase.td"

def LayoutRuleOpInterface : OpInterface<"LayoutRuleOpInterface"> {
  let cppNamespace = "::tilec";
  let description = [{
    An op whose layout rule adds constraints to a LayoutConstraints set:
    which ops hold a layout (fragments and parallel loops), which of them
    must share one, and which layout each would prefer. Reports a located
    error for a program the rule cannot lay out.
  }];
  let methods = [
    InterfaceMethod<"Adds the op's layout constraints to `constraints`.",
                    "::mlir::LogicalResult", "addLayoutConstraints",
                    (ins "::tilec::LayoutConstraints &":$constraints)>,
  ];
}

#endif // TILEC_PASSES_LAYOUT_LAYOUTRULEINTERFACE_TD
