//===- KilnOps.td - kiln dialect operations ----------------*- tablegen -*-===//
//
// Every op has a C++ verifier (KilnOps.cpp). Result types are computed by the
// functions in ShapeInference.h, which the frontend calls too, so the
// frontend and the verifier always agree.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_OPS_TD
#define KILN_OPS_TD

include "ir/KilnDialect.td"
include "ir/KilnTypes.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Type constraints and resources
//===----------------------------------------------------------------------===//

def Kiln_Scalar : AnyTypeOf<[I64, F64, I1], "Python scalar (i64, f64 or i1)">;
def Kiln_Tensor : RankedTensorOf<[F16, BF16, F32, F64, I1, I32, I64]>;
def Kiln_TensorOrScalar
    : AnyTypeOf<[Kiln_Tensor, I64, F64, I1], "ranked tensor or Python scalar">;

// print and assert write to the program's output; rand and randn read and
// advance the random generator. Both keep CSE and DCE away from those ops.
def Kiln_OutputResource : Resource<"::kiln::OutputResource">;
def Kiln_RNGResource : Resource<"::kiln::RNGStateResource">;

// An i64 attribute read as int64_t (ODS's I64Attr reads uint64_t), so a
// negative dim or correction is caught by the verifier instead of wrapping.
def Kiln_I64Attr : TypedSignlessIntegerAttrBase<
    I64, "int64_t", "64-bit signless integer attribute"> {
  let convertFromStorage = "$_self.getValue().getSExtValue()";
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//===----------------------------------------------------------------------===//

class Kiln_BinaryOp<string mnemonic, string kind, string what>
    : Kiln_Op<mnemonic, [Pure]> {
  let summary = what;
  let description = [{
    Elementwise with PyTorch broadcasting and type promotion. If both operands
    are Python scalars the result is a Python scalar.
  }];
  let arguments = (ins Kiln_TensorOrScalar:$lhs, Kiln_TensorOrScalar:$rhs);
  let results = (outs Kiln_TensorOrScalar:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::verify() {
      return verifyElementwiseOp(getOperation(), ::kiln::ElementwiseKind::}]
      # kind # [{);
    }
  }];
}

def Kiln_AddOp : Kiln_BinaryOp<"add", "Arith", "addition">;
def Kiln_SubOp : Kiln_BinaryOp<"sub", "Arith", "subtraction">;
def Kiln_MulOp : Kiln_BinaryOp<"mul", "Arith", "multiplication">;
def Kiln_DivOp : Kiln_BinaryOp<"div", "TrueDiv", "true division (Python `/`)">;
def Kiln_FloorDivOp
    : Kiln_BinaryOp<"floordiv", "Arith", "floor division (Python `//`)">;
def Kiln_RemOp : Kiln_BinaryOp<"rem", "Arith",
    "remainder with the sign of the divisor (Python `%`)">;
def Kiln_PowOp : Kiln_BinaryOp<"pow", "Arith", "power (Python `**`)">;
def Kiln_MaximumOp : Kiln_BinaryOp<"maximum", "Arith", "elementwise maximum">;
def Kiln_MinimumOp : Kiln_BinaryOp<"minimum", "Arith", "elementwise minimum">;
def Kiln_BitAndOp : Kiln_BinaryOp<"bitand", "Bitwise", "bitwise and">;
def Kiln_BitOrOp : Kiln_BinaryOp<"bitor", "Bitwise", "bitwise or">;
def Kiln_BitXorOp : Kiln_BinaryOp<"bitxor", "Bitwise", "bitwise xor">;

def Kiln_CmpPredicate : I32EnumAttr<"CmpPredicate", "comparison predicate", [
    I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>,
    I32EnumAttrCase<"lt", 2>, I32EnumAttrCase<"le", 3>,
    I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>]> {
  let cppNamespace = "::kiln";
}

def Kiln_CmpOp : Kiln_Op<"cmp", [Pure]> {
  let summary = "elementwise comparison";
  let description = [{
    Compares with broadcasting; the result is i1, or a tensor of i1.
  }];
  let arguments = (ins Kiln_CmpPredicate:$predicate,
                       Kiln_TensorOrScalar:$lhs, Kiln_TensorOrScalar:$rhs);
  let results = (outs Kiln_TensorOrScalar:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

// `domain` names a kiln::UnaryDomain enumerator (KilnOps.cpp).
class Kiln_UnaryOp<string mnemonic, string domain, string what>
    : Kiln_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let summary = what;
  let arguments = (ins Kiln_TensorOrScalar:$input);
  let results = (outs Kiln_TensorOrScalar:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDefinition = [{
    ::mlir::LogicalResult $cppClass::verify() {
      return verifyUnaryOp(getOperation(), ::kiln::UnaryDomain::}]
      # domain # [{);
    }
  }];
}

def Kiln_NegOp : Kiln_UnaryOp<"neg", "Numeric", "negation">;
def Kiln_AbsOp : Kiln_UnaryOp<"abs", "Numeric", "absolute value">;
def Kiln_ExpOp : Kiln_UnaryOp<"exp", "Float", "exponential">;
def Kiln_LogOp : Kiln_UnaryOp<"log", "Float", "natural logarithm">;
def Kiln_TanhOp : Kiln_UnaryOp<"tanh", "Float", "hyperbolic tangent">;
def Kiln_ErfOp : Kiln_UnaryOp<"erf", "Float", "error function">;
def Kiln_SigmoidOp : Kiln_UnaryOp<"sigmoid", "Float", "logistic sigmoid">;
def Kiln_ReluOp : Kiln_UnaryOp<"relu", "Numeric", "max(x, 0)">;
def Kiln_SqrtOp : Kiln_UnaryOp<"sqrt", "Float", "square root">;
def Kiln_RsqrtOp : Kiln_UnaryOp<"rsqrt", "Float", "reciprocal square root">;
def Kiln_SinOp : Kiln_UnaryOp<"sin", "Float", "sine">;
def Kiln_CosOp : Kiln_UnaryOp<"cos", "Float", "cosine">;
def Kiln_FloorOp : Kiln_UnaryOp<"floor", "Numeric", "round toward -inf">;
def Kiln_CeilOp : Kiln_UnaryOp<"ceil", "Numeric", "round toward +inf">;
def Kiln_NotOp : Kiln_UnaryOp<"not", "Bool", "logical not">;

//===----------------------------------------------------------------------===//
// Conversions and constants
//===----------------------------------------------------------------------===//

def Kiln_CastOp : Kiln_Op<"cast", [Pure]> {
  let summary = "element type conversion";
  let description = [{
    Converts a tensor to a tensor of the same shape, or a scalar to a scalar,
    with a new element type (float to int truncates toward zero).
  }];
  let arguments = (ins Kiln_TensorOrScalar:$input);
  let results = (outs Kiln_TensorOrScalar:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Kiln_FromScalarOp : Kiln_Op<"from_scalar", [Pure]> {
  let summary = "Python scalar to 0-d tensor";
  let arguments = (ins Kiln_Scalar:$input);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Kiln_ItemOp : Kiln_Op<"item", [Pure]> {
  let summary = "one-element tensor to Python scalar (Tensor.item())";
  let description = [{
    Fails at run time unless the tensor has exactly one element. Converts
    the element to the result's scalar type.
  }];
  let arguments = (ins Kiln_Tensor:$input);
  let results = (outs Kiln_Scalar:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Kiln_ConstantOp : Kiln_Op<"constant",
    [ConstantLike, Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "tensor constant";
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = "$value attr-dict";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Kiln_UndefOp : Kiln_Op<"undef", [Pure]> {
  let summary = "a value that is never read";
  let description = [{
    Like TorchScript's prim::Uninitialized: stands for a variable on a path
    that never reads it (for example after an early return).
  }];
  let results = (outs AnyType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Linear algebra and reductions
//===----------------------------------------------------------------------===//

def Kiln_MatmulOp : Kiln_Op<"matmul", [Pure]> {
  let summary = "torch.matmul";
  let arguments = (ins Kiln_Tensor:$lhs, Kiln_Tensor:$rhs);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type($result)
  }];
  let hasVerifier = 1;
}

def Kiln_MatmulEpilogueOp : Kiln_Op<"matmul_epilogue", [Pure]> {
  let summary = "activation(torch.matmul(lhs, rhs) + bias): one library call";
  let description = [{
    What nn.Linear and the activation after it compute, as one call of the
    kernel library, which adds `bias` (a vector of the result's last dim) to
    every row and applies `activation` (none, relu, tanh or sigmoid) to its
    output before storing it. Made by the backends' kiln-library-epilogues
    pass for the activations their library computes exactly as PyTorch
    does; never by the frontend.
  }];
  let arguments = (ins Kiln_Tensor:$lhs, Kiln_Tensor:$rhs, Kiln_Tensor:$bias,
                       StrAttr:$activation);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $bias attr-dict `:` `(` type($lhs) `,` type($rhs) `,` type($bias) `)` `->` type($result)
  }];
  let hasVerifier = 1;
}

class Kiln_ReduceOp<string mnemonic, string what> : Kiln_Op<mnemonic, [Pure]> {
  let summary = what;
  let description = [{
    Reduces over `dims` (non-negative, sorted, unique; empty means all
    dims). With `keepdim` the reduced dims stay as size 1.
  }];
  let arguments = (ins Kiln_Tensor:$input, DenseI64ArrayAttr:$dims,
                       BoolAttr:$keepdim);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Kiln_SumOp : Kiln_ReduceOp<"sum", "sum (int and bool inputs give i64)">;
def Kiln_MeanOp : Kiln_ReduceOp<"mean", "arithmetic mean (float only)">;
def Kiln_AMaxOp : Kiln_ReduceOp<"amax", "maximum over dims">;
def Kiln_AMinOp : Kiln_ReduceOp<"amin", "minimum over dims">;

def Kiln_VarOp : Kiln_Op<"var", [Pure]> {
  let summary = "variance with Bessel-style `correction` (1 = unbiased)";
  let arguments = (ins Kiln_Tensor:$input, DenseI64ArrayAttr:$dims,
                       BoolAttr:$keepdim, Kiln_I64Attr:$correction);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Kiln_MaxDimOp : Kiln_Op<"max_dim", [Pure]> {
  let summary = "torch.max(x, dim): values and i64 indices";
  let arguments = (ins Kiln_Tensor:$input, Kiln_I64Attr:$dim, BoolAttr:$keepdim);
  let results = (outs Kiln_Tensor:$values, Kiln_Tensor:$indices);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` `(` type($values) `,` type($indices) `)`
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

def Kiln_DimOp : Kiln_Op<"dim", [Pure]> {
  let summary = "size of one dimension (x.size(i))";
  let arguments = (ins Kiln_Tensor:$input, Kiln_I64Attr:$index);
  let results = (outs I64:$result);
  let assemblyFormat = "$input `,` $index attr-dict `:` type($input)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Kiln_ReshapeOp : Kiln_Op<"reshape", [Pure]> {
  let summary = "torch.reshape; one size may be -1 at run time";
  let arguments = (ins Kiln_Tensor:$input, Variadic<I64>:$shape);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $input `[` $shape `]` attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Kiln_ExpandOp : Kiln_Op<"expand", [Pure]> {
  let summary = "Tensor.expand; a size of -1 keeps the dim";
  let arguments = (ins Kiln_Tensor:$input, Variadic<I64>:$sizes);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $input `[` $sizes `]` attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

class Kiln_ShapeOp<string mnemonic, string what, dag attrs>
    : Kiln_Op<mnemonic, [Pure]> {
  let summary = what;
  let arguments = !con((ins Kiln_Tensor:$input), attrs);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Kiln_UnsqueezeOp : Kiln_ShapeOp<"unsqueeze", "insert a size-1 dim",
                                    (ins Kiln_I64Attr:$dim)>;
def Kiln_SqueezeOp : Kiln_ShapeOp<"squeeze", "remove a size-1 dim",
                                  (ins Kiln_I64Attr:$dim)>;
def Kiln_TransposeOp : Kiln_ShapeOp<"transpose", "swap two dims",
                                    (ins Kiln_I64Attr:$dim0, Kiln_I64Attr:$dim1)>;
def Kiln_PermuteOp : Kiln_ShapeOp<"permute", "reorder dims",
                                  (ins DenseI64ArrayAttr:$dims)>;

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

def Kiln_SelectOp : Kiln_Op<"select", [Pure]> {
  let summary = "x[i] along `dim`; negative i counts from the end";
  let arguments = (ins Kiln_Tensor:$input, I64:$index, Kiln_I64Attr:$dim);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $input `[` $index `]` attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Kiln_SliceOp : Kiln_Op<"slice", [Pure]> {
  let summary = "x[start:end:step] along `dim`, clamped as in Python";
  let arguments = (ins Kiln_Tensor:$input, I64:$start, I64:$end, I64:$step,
                       Kiln_I64Attr:$dim);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $input `[` $start `:` $end `:` $step `]` attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Kiln_SelectScatterOp : Kiln_Op<"select_scatter",
    [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "functional x[i] = src along `dim`";
  let arguments = (ins Kiln_Tensor:$input, Kiln_Tensor:$src, I64:$index,
                       Kiln_I64Attr:$dim);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $input `[` $index `]` `=` $src attr-dict `:` type($src) `into` type($input)
  }];
  let hasVerifier = 1;
}

def Kiln_SliceScatterOp : Kiln_Op<"slice_scatter",
    [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "functional x[start:end:step] = src along `dim`";
  let arguments = (ins Kiln_Tensor:$input, Kiln_Tensor:$src, I64:$start,
                       I64:$end, I64:$step, Kiln_I64Attr:$dim);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $input `[` $start `:` $end `:` $step `]` `=` $src attr-dict `:` type($src) `into` type($input)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Creation
//===----------------------------------------------------------------------===//

def Kiln_FullOp : Kiln_Op<"full", [Pure]> {
  let summary = "torch.full: a tensor filled with one scalar";
  let arguments = (ins Kiln_Scalar:$value, Variadic<I64>:$sizes);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = [{
    $value `,` `[` $sizes `]` attr-dict `:` type($value) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

class Kiln_RandomOp<string mnemonic, string what>
    : Kiln_Op<mnemonic, [MemoryEffects<[MemRead<Kiln_RNGResource>,
                                        MemWrite<Kiln_RNGResource>]>]> {
  let summary = what;
  let arguments = (ins Variadic<I64>:$sizes);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = "` ` `[` $sizes `]` attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Kiln_RandOp : Kiln_RandomOp<"rand", "uniform samples in [0, 1)">;
def Kiln_RandnOp : Kiln_RandomOp<"randn", "standard normal samples">;

//===----------------------------------------------------------------------===//
// Joining lists of tensors
//===----------------------------------------------------------------------===//

def Kiln_StackOp : Kiln_Op<"stack", [Pure]> {
  let summary = "torch.stack: join along a new dim";
  let arguments = (ins Kiln_TensorList:$list, Kiln_I64Attr:$dim);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = "$list attr-dict `:` qualified(type($list)) `->` type($result)";
  let hasVerifier = 1;
}

def Kiln_CatOp : Kiln_Op<"cat", [Pure]> {
  let summary = "torch.cat: join along an existing dim";
  let arguments = (ins Kiln_TensorList:$list, Kiln_I64Attr:$dim);
  let results = (outs Kiln_Tensor:$result);
  let assemblyFormat = "$list attr-dict `:` qualified(type($list)) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Functional lists
//===----------------------------------------------------------------------===//

def Kiln_ListConstructOp : Kiln_Op<"list_construct", [Pure]> {
  let summary = "a list literal [a, b, ...]";
  let arguments = (ins Variadic<AnyType>:$elements);
  let results = (outs Kiln_AnyList:$result);
  let assemblyFormat = [{
    `(` $elements `)` attr-dict `:` functional-type($elements, $result)
  }];
  let hasVerifier = 1;
}

def Kiln_ListAppendOp : Kiln_Op<"list_append",
    [Pure, AllTypesMatch<["list", "result"]>]> {
  let summary = "a new list with one more element";
  let arguments = (ins Kiln_AnyList:$list, AnyType:$value);
  let results = (outs Kiln_AnyList:$result);
  let assemblyFormat = [{
    $list `,` $value attr-dict `:` qualified(type($list)) `,` type($value)
  }];
  let hasVerifier = 1;
}

def Kiln_ListGetOp : Kiln_Op<"list_get", [Pure]> {
  let summary = "list[i]; negative i counts from the end";
  let arguments = (ins Kiln_AnyList:$list, I64:$index);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $list `[` $index `]` attr-dict `:` qualified(type($list)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Kiln_ListLenOp : Kiln_Op<"list_len", [Pure]> {
  let summary = "len(list)";
  let arguments = (ins Kiln_AnyList:$list);
  let results = (outs I64:$result);
  let assemblyFormat = "$list attr-dict `:` qualified(type($list))";
}

//===----------------------------------------------------------------------===//
// Side effects
//===----------------------------------------------------------------------===//

def Kiln_PrintOp : Kiln_Op<"print",
    [MemoryEffects<[MemWrite<Kiln_OutputResource>]>]> {
  let summary = "Python print";
  let description = [{
    `format` is the printed line with `{}` for each argument; literal braces
    are doubled.
  }];
  let arguments = (ins StrAttr:$format, Variadic<AnyType>:$args);
  let assemblyFormat = "$format (`(` $args^ `:` type($args) `)`)? attr-dict";
  let hasVerifier = 1;
}

def Kiln_AssertOp : Kiln_Op<"assert",
    [MemoryEffects<[MemWrite<Kiln_OutputResource>]>]> {
  let summary = "Python assert: fails with `message` when false";
  let arguments = (ins I1:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict";
}

include "ir/KilnFusionOps.td"
include "ir/KilnNNOps.td"

#endif // KILN_OPS_TD
