//===- KilnNNOps.td - ops of neural-network models ---------*- tablegen -*-===//
//
// The ops that nn.Module models need beyond plain tensor arithmetic. Most of
// torch.nn.functional (softmax, layer_norm, gelu, ...) is composed from
// elementwise ops and reductions by the frontend, so fusion sees through it;
// what is here cannot be composed cheaply. Verifiers and result types live
// in KilnNNOps.cpp and ShapeInference.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_NN_OPS_TD
#define KILN_NN_OPS_TD

def Kiln_ParamOp : Kiln_Op<"param", [Pure]> {
  let summary = "a trained weight of the compiled nn.Module";
  let description = [{
    `name` is the weight's `state_dict()` name. The module attribute
    `kiln.params`, a dictionary from name to type, declares every weight the
    model has; the value is read from the archive at run time, so no pass
    can fold it.

        %w = kiln.param "fc1.weight" : tensor<120x576xf32>
  }];
  let arguments = (ins StrAttr:$name);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Kiln_Conv2dOp : Kiln_Op<"conv2d", [Pure]> {
  let summary = "2-D convolution without bias (torch.nn.functional.conv2d)";
  let description = [{
    `input` is N x C x H x W and `weight` is O x C/groups x KH x KW; the
    frontend adds the bias as a broadcast add, which fusion can fold into
    whatever follows. `stride`, `padding` and `dilation` hold two values
    each (height, width).
  }];
  let arguments = (ins Kiln_Tensor:$input, Kiln_Tensor:$weight,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$dilation, Kiln_I64Attr:$groups);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $weight attr-dict `:` `(` type($input) `,` type($weight) `)` `->` type($result)
  }];
  let hasVerifier = 1;
}

class Kiln_Pool2dOp<string mnemonic, string what, dag extra>
    : Kiln_Op<mnemonic, [Pure]> {
  let summary = what;
  let description = [{
    Pools an N x C x H x W tensor over `kernel` windows. `kernel`, `stride`,
    `padding` hold two values each (height, width). With `ceil_mode` the
    output size rounds up, as PyTorch's does, but a window never starts in
    the right or bottom padding.
  }];
  let arguments = !con((ins Kiln_Tensor:$input, DenseI64ArrayAttr:$kernel,
                            DenseI64ArrayAttr:$stride,
                            DenseI64ArrayAttr:$padding, BoolAttr:$ceil_mode),
                       extra);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Kiln_MaxPool2dOp : Kiln_Pool2dOp<"max_pool2d",
    "2-D max pooling; padding counts as -inf",
    (ins DenseI64ArrayAttr:$dilation)>;
def Kiln_AvgPool2dOp : Kiln_Pool2dOp<"avg_pool2d",
    "2-D average pooling; `count_include_pad` as in PyTorch",
    (ins BoolAttr:$count_include_pad)>;

def Kiln_WhereOp : Kiln_Op<"where", [Pure]> {
  let summary = "torch.where(condition, lhs, rhs)";
  let description = [{
    Picks `lhs` where the bool `condition` holds and `rhs` elsewhere. The
    three operands broadcast together; the element type is `lhs` and `rhs`
    promoted as for arithmetic.
  }];
  let arguments = (ins Kiln_TensorOrScalar:$condition,
                       Kiln_TensorOrScalar:$lhs, Kiln_TensorOrScalar:$rhs);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $lhs `,` $rhs attr-dict `:` `(` type($condition) `,` type($lhs) `,` type($rhs) `)` `->` type($result)
  }];
  let hasVerifier = 1;
}

def Kiln_ArangeOp : Kiln_Op<"arange", [Pure]> {
  let summary = "torch.arange(start, end, step)";
  let description = [{
    A 1-D tensor of ceil((end - start) / step) values. A zero step, or one
    that points away from `end`, is a run-time error, as in PyTorch. The
    element type is the result's.
  }];
  let arguments = (ins Kiln_Scalar:$start, Kiln_Scalar:$end, Kiln_Scalar:$step);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $start `,` $end `,` $step attr-dict `:` `(` type($start) `,` type($end) `,` type($step) `)` `->` type($result)
  }];
  let hasVerifier = 1;
}

def Kiln_EmbeddingOp : Kiln_Op<"embedding", [Pure]> {
  let summary = "rows of `weight` picked by integer `indices` (F.embedding)";
  let description = [{
    The result's shape is the shape of `indices` followed by the row size of
    the 2-D `weight`. An index outside [0, rows) is a run-time error.
  }];
  let arguments = (ins Kiln_Tensor:$weight, Kiln_Tensor:$indices);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $weight `[` $indices `]` attr-dict `:` `(` type($weight) `,` type($indices) `)` `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // KILN_NN_OPS_TD
