//===- KilnFusionOps.td - fusion groups ---------------------*- tablegen -*-===//
//
// A fusion group is what TorchScript prints as prim::FusionGroup, formed
// ahead of time: a region of pure tensor ops that codegen turns into one
// loop nest. The region is isolated from above so that it reads like a small
// function: every value it uses is an operand, every value the rest of the
// program needs is a result.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FUSION_OPS_TD
#define KILN_FUSION_OPS_TD

include "mlir/IR/OpBase.td"

def Kiln_FusionGroupOp : Kiln_Op<"fusion_group",
    [IsolatedFromAbove, Pure, SingleBlock]> {
  let summary = "ops that codegen fuses into one loop nest";
  let description = [{
    The body's block arguments stand for `inputs`; its `kiln.yield` gives the
    results. Every op in the body is a pure kiln op on tensors or Python
    scalars, so the group as a whole is pure. A value that is used both in
    the group and after it is one of the group's results, never recomputed.
  }];
  let arguments = (ins Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $results) $body
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The number of ops in the body, not counting the terminator.
    unsigned getNumBodyOps() {
      return getBody().front().getOperations().size() - 1;
    }
  }];
}

def Kiln_YieldOp : Kiln_Op<"yield",
    [Pure, Terminator, HasParent<"FusionGroupOp">]> {
  let summary = "the results of a fusion group";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // KILN_FUSION_OPS_TD
