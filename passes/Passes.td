//===- Passes.td - kiln's optimization passes ---------------*- tablegen -*-===//
//
// Only kiln's own passes are declared here; CSE, symbol DCE and dead-value
// removal are MLIR's, used as they are, and the inliner is MLIR's with a
// rule of kiln's.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_TD
#define KILN_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConstantFold : Pass<"kiln-constant-fold"> {
  let summary = "Fold constants and float-safe identities of kiln ops";
  let description = [{
    Runs kiln's op folders and rewrite patterns, together with the
    canonicalization patterns of scf and arith, to a fixed point. An `if`
    whose condition is constant and a loop that runs zero times disappear.
  }];
  let constructor = "kiln::createConstantFoldPass()";
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def Inline : Pass<"kiln-inline", "::mlir::ModuleOp"> {
  let summary = "Inline helper calls unless that nests loops too deeply";
  let description = [{
    MLIR's inliner (bottom-up over the call graph, canonicalizing each
    function after inlining into it), with one rule of kiln's: a call is
    inlined only when the loops around it plus the loops nested inside its
    callee stay within `max-loop-depth`. One-shot bufferization's buffer
    type inference is exponential in the depth of scf.for nests, so helpers
    that each nest loops within CPython's limit of 20 must not compose into
    a nest of 40; such a call stays a call.
  }];
  let constructor = "kiln::createInlinePass()";
  let options = [
    Option<"maxLoopDepth", "max-loop-depth", "unsigned",
           /*default=*/"kiln::kMaxLoopDepth",
           "Deepest loop nest that inlining may create">,
  ];
}

def DeadLoopValues : Pass<"kiln-dead-loop-values"> {
  let summary = "Remove loop-carried values that nothing reads";
  let description = [{
    A value carried around an scf.for loop whose final value is unused and
    which feeds nothing but its own next iteration is dropped, together with
    the pure ops that computed it. Side effects are never removed.
  }];
  let constructor = "kiln::createDeadLoopValuesPass()";
}

def LoopUnroll : Pass<"kiln-loop-unroll"> {
  let summary = "Unroll scf.for loops with TorchScript's policy";
  let description = [{
    A loop whose body has at most `unroll-max-body` ops is unrolled fully
    when its trip count is a constant of at most 64, and otherwise by
    `unroll-factor`, with a remainder loop for the iterations left over.
    Larger bodies are left alone.
  }];
  let constructor = "kiln::createLoopUnrollPass()";
  let options = [
    Option<"unrollFactor", "unroll-factor", "unsigned", /*default=*/"8",
           "Copies of the body per iteration of a partly unrolled loop">,
    Option<"unrollMaxBody", "unroll-max-body", "unsigned", /*default=*/"32",
           "Largest body (in ops, nested ones included) that is unrolled">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ShapeRefinement : Pass<"kiln-shape-refinement"> {
  let summary = "Replace ? dims by numbers wherever they are known";
  let description = [{
    Recomputes the result type of every kiln op from its operands, and of
    every loop-carried value from the values that reach it, keeping the more
    static of the old and new types. Values whose users need the old type
    (a function's return, say) get a tensor.cast back to it.
  }];
  let constructor = "kiln::createShapeRefinementPass()";
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def MaxPoolFirst : Pass<"kiln-max-pool-first"> {
  let summary = "Pool before a bias and a relu, which commute with a max pool";
  let description = [{
    max_pool2d(relu(x + b)), with b the same within each pooling window (a
    number, or a per-channel bias) and x a convolution's or product's
    result, becomes relu(max_pool2d(x) + b), which is exactly equal and
    reads a quarter as much. Either op may be missing.
  }];
  let constructor = "kiln::createMaxPoolFirstPass()";
}

def ChannelsLast : Pass<"kiln-channels-last"> {
  let summary = "Library convolutions and the elementwise ops between them "
                "in N x H x W x C";
  let description = [{
    Each f32 kiln.conv2d of static shape, without groups and with at least
    16 input and output channels, computes channels last
    (`channels_last`), the layout the CPU kernel library's kernels use, and
    the elementwise ops it feeds follow it there. Permutes are left only
    at the edges of such chains, so the library reorders nothing between
    two convolutions. CPU targets only.
  }];
  let constructor = "kiln::createChannelsLastPass()";
}

def SmallProducts : Pass<"kiln-small-products"> {
  let summary = "One row times a small transposed weight, as a reduction";
  let description = [{
    An f32 matmul of one static row ([1, K] or [K]) by the transpose of a
    static [N, K] matrix of at most 2^18 elements (F.linear at batch 1)
    becomes a multiply and a sum over K, which kiln-fusion groups with the
    bias and activation after it; generated, it beat the kernel library's
    call below that size. Runs right before kiln-fusion.
  }];
  let constructor = "kiln::createSmallProductsPass()";
}

def Fusion : Pass<"kiln-fusion"> {
  let summary = "Group elementwise chains into kiln.fusion_group";
  let description = [{
    Gathers connected elementwise ops (with broadcasts and scalar operands),
    and a reduction that consumes only such ops, into one
    `kiln.fusion_group` each. Groups never cross a side effect or a region
    boundary; a value that is also used outside its group becomes a result
    of the group.
  }];
  let constructor = "kiln::createFusionPass()";
}

#endif // KILN_PASSES_TD
