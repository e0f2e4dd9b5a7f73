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
    each (height, width). With `channels_last` the input and the result
    are N x H x W x C instead, the layout the CPU kernel library computes
    in (passes/ChannelsLast.cpp); the frontend never sets it.
  }];
  let arguments = (ins Kiln_Tensor:$input, Kiln_Tensor:$weight,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$dilation, Kiln_I64Attr:$groups,
                       UnitAttr:$channels_last);
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

//===----------------------------------------------------------------------===//
// Indexing, scans and reordering
//===----------------------------------------------------------------------===//

def Kiln_GatherOp : Kiln_Op<"gather", [Pure]> {
  let summary = "torch.gather(input, dim, index)";
  let description = [{
    result[i...] = input[i... with i[dim] replaced by index[i...]]. `index`
    is an i32/i64 tensor of the input's rank; the result has its shape and
    the input's element type. An index outside [0, input.size(dim)), or an
    index dim other than `dim` larger than the input's, is a run-time error,
    as in PyTorch (which does not wrap negative indices here either).

        %r = kiln.gather %x[%i] {dim = 1 : i64} : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  }];
  let arguments = (ins Kiln_Tensor:$input, Kiln_Tensor:$index, Kiln_I64Attr:$dim);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $input `[` $index `]` attr-dict `:` `(` type($input) `,` type($index) `)` `->` type($result)
  }];
  let hasVerifier = 1;
}

def Kiln_IndexSelectOp : Kiln_Op<"index_select", [Pure]> {
  let summary = "torch.index_select(input, dim, index)";
  let description = [{
    The slices of `input` along `dim` picked by the 0-D or 1-D i32/i64
    `index`, in its order: the result is the input's shape with dim `dim`
    replaced by the index count. An index outside [0, input.size(dim)) is a
    run-time error.
  }];
  let arguments = (ins Kiln_Tensor:$input, Kiln_Tensor:$index, Kiln_I64Attr:$dim);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $input `[` $index `]` attr-dict `:` `(` type($input) `,` type($index) `)` `->` type($result)
  }];
  let hasVerifier = 1;
}

class Kiln_ScanOp<string mnemonic, string what> : Kiln_Op<mnemonic, [Pure]> {
  let summary = what;
  let description = [{
    An inclusive scan along `dim`. The input is first converted to the
    result's element type (which the frontend picks: the `dtype` argument,
    or i64 for int and bool inputs, as PyTorch does); the result has the
    input's shape.
  }];
  let arguments = (ins Kiln_Tensor:$input, Kiln_I64Attr:$dim);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Kiln_CumsumOp : Kiln_ScanOp<"cumsum", "torch.cumsum: running sums">;
def Kiln_CumprodOp : Kiln_ScanOp<"cumprod", "torch.cumprod: running products">;

def Kiln_FlipOp : Kiln_Op<"flip", [Pure]> {
  let summary = "torch.flip(input, dims)";
  let description = [{
    Reverses the order of the elements along each of `dims` (non-negative,
    unique, in any order); the result has the input's type.
  }];
  let arguments = (ins Kiln_Tensor:$input, DenseI64ArrayAttr:$dims);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Kiln_SortOp : Kiln_Op<"sort", [Pure]> {
  let summary = "torch.sort(input, dim=-1, descending) along the last dim";
  let description = [{
    A stable sort of each row along the last dim: `values` has the input's
    type and `indices` (i64, same shape) the positions the values came
    from. Equal values keep their input order, in both directions; NaN
    sorts above every number, as in PyTorch.
  }];
  let arguments = (ins Kiln_Tensor:$input, BoolAttr:$descending);
  let results = (outs Kiln_Tensor:$values, Kiln_Tensor:$indices);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` `(` type($values) `,` type($indices) `)`
  }];
  let hasVerifier = 1;
}

#endif // KILN_NN_OPS_TD
