//===- ShapeInference.h - result types of kiln ops --------------*- C++ -*-===//
//
// The one place that knows PyTorch's broadcasting and type promotion rules.
// Op verifiers call these functions to check result types, and the frontend
// calls them to compute result types before it creates ops, so the two can
// never disagree.
//
// Every infer* function returns a null Type on failure and, when `why` is not
// null, stores a lower-case message that names the types involved.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_IR_SHAPEINFERENCE_H
#define KILN_IR_SHAPEINFERENCE_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>

namespace kiln {

enum class ElementwiseKind { Arith, TrueDiv, Compare, Bitwise };

/// Broadcasting + PyTorch type promotion.
/// - tensor+tensor: promoted dtype (bool < int < float; within a category the
///   wider wins; f16+bf16 -> f32).
/// - PyTorch's three tiers: dimensioned tensors beat 0-d tensors beat Python
///   scalars. A lower tier only changes the dtype if its category is higher;
///   then a Python float gives f32, a Python int i64, and a 0-d tensor its
///   own dtype (promoted with the higher tier's when that is bool).
/// - scalar+scalar follows Python: bool counts as int, int+float -> f64, and
///   the result is a scalar.
/// - TrueDiv makes int/bool results float (f32 for tensors, f64 for scalars).
/// - Compare yields i1 (or a tensor of i1). Bitwise requires bool/int.
/// - Static dims broadcast; a ? combined with N gives N if N != 1, else ?.
mlir::Type inferElementwiseType(ElementwiseKind kind, mlir::Type lhs,
                                mlir::Type rhs, std::string *why);

/// torch.matmul: 1-D, 2-D and batched with broadcast batch dims. Element
/// types must match (bool is rejected).
mlir::Type inferMatmulType(mlir::Type lhs, mlir::Type rhs, std::string *why);

/// Reductions over `dims` (empty = all; non-negative, sorted, unique). With
/// `toI64ForInts`, int and bool inputs give an i64 result (as torch.sum).
mlir::Type inferReduceType(mlir::Type input, llvm::ArrayRef<int64_t> dims,
                           bool keepdim, bool toI64ForInts, std::string *why);

/// Shape ops. All dims are non-negative (the frontend normalizes them).
/// x.select(dim, i): drops `dim`.
mlir::Type inferSelectType(mlir::Type input, int64_t dim, std::string *why);
mlir::Type inferUnsqueezeType(mlir::Type input, int64_t dim, std::string *why);
/// Drops `dim`, which must be 1 or ?.
mlir::Type inferSqueezeType(mlir::Type input, int64_t dim, std::string *why);
mlir::Type inferTransposeType(mlir::Type input, int64_t dim0, int64_t dim1,
                              std::string *why);
mlir::Type inferPermuteType(mlir::Type input, llvm::ArrayRef<int64_t> dims,
                            std::string *why);
/// torch.stack / torch.cat of a list whose elements have `elementType`; the
/// joined dim is ? because a list's length is a run-time value.
mlir::Type inferStackType(mlir::Type elementType, int64_t dim,
                          std::string *why);
mlir::Type inferCatType(mlir::Type elementType, int64_t dim, std::string *why);

/// Neural-network ops (KilnNNOps.td). Windows and strides hold two values
/// (height, width); a dynamic H or W gives a dynamic output dim.
/// The dims of an N x C x H x W tensor in channels-last order, N x H x W x
/// C, as kiln.permute's `dims`; and the way back.
inline constexpr int64_t kToChannelsLast[4] = {0, 2, 3, 1};
inline constexpr int64_t kToChannelsFirst[4] = {0, 3, 1, 2};
/// conv2d: input N x C x H x W, weight O x C/groups x KH x KW.
mlir::Type inferConv2dType(mlir::Type input, mlir::Type weight,
                           llvm::ArrayRef<int64_t> stride,
                           llvm::ArrayRef<int64_t> padding,
                           llvm::ArrayRef<int64_t> dilation, int64_t groups,
                           std::string *why);
/// max_pool2d (dilation as given) and avg_pool2d (dilation 1, 1).
mlir::Type inferPool2dType(mlir::Type input, llvm::ArrayRef<int64_t> kernel,
                           llvm::ArrayRef<int64_t> stride,
                           llvm::ArrayRef<int64_t> padding,
                           llvm::ArrayRef<int64_t> dilation, bool ceilMode,
                           std::string *why);
/// torch.where: a bool condition; lhs and rhs promote as arithmetic does,
/// and all three broadcast. At least one operand must be a tensor.
mlir::Type inferWhereType(mlir::Type condition, mlir::Type lhs, mlir::Type rhs,
                          std::string *why);
/// F.embedding: a 2-D float weight and an i32/i64 index tensor.
mlir::Type inferEmbeddingType(mlir::Type weight, mlir::Type indices,
                              std::string *why);

/// torch.gather: an i32/i64 `index` of the input's rank, whose static dims
/// other than `dim` are at most the input's; the result is the index's
/// shape with the input's element type.
mlir::Type inferGatherType(mlir::Type input, mlir::Type index, int64_t dim,
                           std::string *why);
/// torch.index_select: a 0-D or 1-D i32/i64 `index`; dim `dim` of the input
/// becomes the index count.
mlir::Type inferIndexSelectType(mlir::Type input, mlir::Type index,
                                int64_t dim, std::string *why);
/// torch.cumsum / cumprod: the input's shape in `dtype` when it is given
/// (non-null), else in the input's element type, or i64 for int and bool
/// inputs. `dim` is non-negative.
mlir::Type inferScanType(mlir::Type input, int64_t dim, mlir::Type dtype,
                         std::string *why);
/// torch.flip: `dims` non-negative and unique; the input's type.
mlir::Type inferFlipType(mlir::Type input, llvm::ArrayRef<int64_t> dims,
                         std::string *why);
/// torch.sort along the last dim: the values' type (the input's); the
/// indices are the same shape in i64. Bool is refused, as kiln has no bool
/// order; a 0-D input is a 1-element row.
mlir::Type inferSortType(mlir::Type input, std::string *why);
/// True when `actual` is an acceptable result type for an op whose inferred
/// result type is `inferred`: same kind, rank and element type, and no
/// static dim that differs from a static inferred dim (a ? where a number is
/// inferred is fine, and so is a number where ? is inferred).
bool isCompatibleResultType(mlir::Type inferred, mlir::Type actual,
                            std::string *why);

/// Is `t` a Python scalar type (i64, f64 or i1)?
bool isScalarType(mlir::Type t);
/// The element type of a tensor, or `t` itself for a scalar.
mlir::Type getElementTypeOrSelf(mlir::Type t);
/// `t` with its element type replaced: a tensor of the same shape, or
/// `elementType` itself when `t` is a scalar.
mlir::Type withElementType(mlir::Type t, mlir::Type elementType);
/// A short user-facing name: "Tensor[f32, 3x?]", "Tensor[i64, ()]", "int",
/// "float", "bool", "List[Tensor[f32, 3]]".
std::string describeType(mlir::Type t);
/// The MLIR spelling of a type ("tensor<3x?xf32>"), as verifiers print it.
std::string printType(mlir::Type t);

} // namespace kiln

#endif // KILN_IR_SHAPEINFERENCE_H
