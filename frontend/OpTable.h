//===- OpTable.h - The torch op table: schemas, spellings, lowerings ------===//
//
// One row per torch operation, as PyTorch's native_functions.yaml has: a
// schema string ("softplus(Tensor self, Scalar beta=1, Scalar threshold=20)
// -> Tensor"), the spellings it answers to (torch.X, Tensor.X, F.X, the
// in-place Tensor.X_, math.X), how it lowers (a kiln op or a C++ builder),
// and the sample inputs the generated differential test runs it on
// (test/ops). The call sites look names up here, and the binder
// (OpBinder.cpp) checks and converts arguments against the schema, so a
// spelling cannot be accepted by one list and forgotten by another.
//
// Rows live in OpTable*.cpp, one file per family; adding a row is adding
// one initializer there (see docs/architecture.md).
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_OPTABLE_H
#define KILN_FRONTEND_OPTABLE_H

#include "frontend/Diagnostics.h"
#include "frontend/PyValue.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln {
class FunctionLowering;
namespace ast {
struct FunctionDef;
} // namespace ast
} // namespace kiln

namespace kiln::ops {

/// The declared type of a schema parameter; the binder converts by it.
enum class ParamType {
  Tensor,    // a tensor; a Python number too, except for the first one
  OptTensor, // Tensor?: a tensor or None
  Scalar,    // a Python int, float or bool (run-time values allowed)
  OptScalar, // Scalar?
  Int,       // a Python int
  OptInt,    // int?: an int or None
  Float,     // a Python float (an int converts)
  Bool,      // a Python bool
  IntList,   // int[]: ints (a tuple, a list, one int, or varargs when it is
             // the only positional parameter, as PyTorch's view(2, 3))
  OptIntList, // int[]?: ints or None
  OptDtype,  // ScalarType?: None or a dtype such as torch.float32
  Str,       // a compile-time string
  OptStr,    // str?: a compile-time string or None
  TensorList, // Tensor[]: a list or tuple of tensors (or varargs tensors when
              // it is the last positional parameter, as einsum's operands)
  OptTensorList, // Tensor?[]: a list or tuple of tensors and Nones, known
                 // while compiling (index_put's indices)
  IntPair,    // int[2]: an int, or a pair of ints for (height, width)
  OptIntPair, // int[2]?: an int, a pair of ints, None or []
  OptBool,    // bool?: a bool or None
  OptDevice,  // Device?: any device expression, not lowered: compiled code
              // runs where the archive is loaded
  OptLayout,  // Layout?: torch.strided or None
};

struct Param {
  std::string name;
  ParamType type;
  /// The default's source text ("1", "None", "'none'"); empty: required.
  std::string defaultText;
  bool keywordOnly = false;
};

struct Schema {
  std::string name;
  std::vector<Param> params;
  std::string returns;
  /// The schema as PyTorch spells it, regenerated from the fields.
  std::string text() const;
  /// The index of `name` among params, or -1.
  int find(llvm::StringRef name) const;
};

/// Parses "name(Type a, Type b=default, *, Type c=d) -> Ret". A malformed
/// string is a fatal error: rows are written by hand, and test/ops parses
/// every one (`kiln ops --json`), so a typo fails the suite.
Schema parseSchema(llvm::StringRef text);

/// The spellings a row answers to, as bits.
enum Spelling : unsigned {
  Torch = 1,        // torch.X(self, ...)
  Method = 2,       // self.X(...)
  Functional = 4,   // torch.nn.functional.X(input, ...)
  InPlace = 8,      // self.X_(...): the result rebinds the receiver's name
  FInplaceArg = 16, // F.X also takes `inplace=False`, as PyTorch's does
  Math = 32,        // math.X on Python scalars
};

/// How a row treats the dtype of its first input; lowerRow applies them
/// before any lowering.
enum Flags : unsigned {
  NoFlags = 0,
  FloatMath = 1, // int/bool inputs compute in float32 (f64 for scalars)
  NoBool = 2,    // bool inputs are an error, as PyTorch's kernels refuse
  FloatOnly = 4, // non-float inputs are an error, as PyTorch's activations
};

/// One sample input of the generated differential test: `inputs` is a
/// `# kiln:` spec ("x=f32[B,4], y=f32[4]"), `args` the call's arguments
/// after the first (`self`/`input`), comma separated ("y, alpha=2"), and
/// [lo, hi) the range float inputs are drawn from.
struct Sample {
  const char *inputs;
  const char *args = "";
  double lo = -1.0, hi = 1.0;
};

class OpArgs;
/// Lowers a bound call; reports its own errors and returns null after one.
using Builder = std::optional<mlir::Value> (*)(OpArgs &);

struct Row {
  /// The schema, parsed from its text once when the row is read.
  Schema parsed;
  unsigned spellings;
  /// The kiln unary op applied to the first argument, or null when `build`
  /// lowers the row.
  const char *kilnOp = nullptr;
  Builder build = nullptr;
  /// The prelude function a lowerViaPrelude row lowers through: the one
  /// its decorator is on.
  const ast::FunctionDef *impl = nullptr;
  unsigned flags = NoFlags;
  std::vector<Sample> samples;
  /// Other names of the same op (torch.clip for clamp).
  std::vector<const char *> aliases = {};
  /// The tolerance the differential test compares with, when the
  /// decomposition is looser than the default (see gen_op_tests.py).
  double rtol = 0, atol = 0;
  const char *note = "";
  /// Rows whose values eager PyTorch does not fix, so that the differential
  /// test compares shape and dtype and only what the row promises of the
  /// values: "uniform" (in [0, 1)), "normal" (finite) or "any" (nothing:
  /// torch.empty); null for every other row.
  const char *random = nullptr;

  const Schema &schema() const { return parsed; }
};

/// Every row, in documentation order.
const std::vector<Row> &allRows();
/// The row that `name` (a row's name or alias) is with spelling `s`, or null:
/// the first of its overloads.
const Row *lookup(Spelling s, llvm::StringRef name);
/// Every row with `row`'s name and spelling `s`, in table order: the
/// overloads the binder tries in turn (max(), max(dim), max(other)).
std::vector<const Row *> overloads(const Row &row, Spelling s);
/// The value of a constant of Python's math module (pi, e, inf, nan, tau).
std::optional<double> mathConstant(llvm::StringRef name);

/// Lowers a bound call: the row's kiln op on its first argument, or its
/// builder (OpTable.cpp).
std::optional<mlir::Value> lowerRow(OpArgs &args);

/// index_put's builder, on the advanced-indexing store path
/// (LowerAdvancedIndexing.cpp).
std::optional<mlir::Value> indexPut(OpArgs &args);

/// `kiln ops --json` / `--markdown` (OpCatalog.cpp).
std::string catalogJson();
std::string catalogMarkdown();

/// One bound argument: its value (the default's when not given) and the
/// source range an error about it points at.
struct BoundArg {
  PyValue value;
  SourceRange range;
  bool given = false;
};

/// A call bound to a row's schema, as its builder sees it.
class OpArgs {
public:
  OpArgs(FunctionLowering &fl, const Row &row, std::string spelling,
         SourceRange where)
      : fl(fl), row(row), spelling(std::move(spelling)), where(where) {}

  const BoundArg &arg(llvm::StringRef name) const;
  /// A tensor or scalar SSA value; null for None.
  mlir::Value value(llvm::StringRef name) const;
  bool isNone(llvm::StringRef name) const;
  /// A compile-time number or string, already checked by the binder for
  /// Int/Float/Bool/Str parameters; reports an error when it is not
  /// constant.
  std::optional<double> constFloat(llvm::StringRef name);
  std::string str(llvm::StringRef name) const;
  /// A compile-time int; reports an error when it is not constant.
  std::optional<int64_t> constInt(llvm::StringRef name);
  /// A dim argument, constant and normalized against `rank`.
  std::optional<int64_t> dim(llvm::StringRef name, int64_t rank);
  /// A compile-time bool.
  std::optional<bool> flag(llvm::StringRef name);
  /// The items of an int[] argument as i64 values (run-time ones allowed).
  std::optional<std::vector<mlir::Value>> intValues(llvm::StringRef name);
  /// The items of an int[] argument, which must be constants.
  std::optional<std::vector<int64_t>> ints(llvm::StringRef name);
  /// The element type a ScalarType? argument names; null for None.
  mlir::Type dtype(llvm::StringRef name) const;
  /// The (height, width) of an int[2] argument, which must be constants;
  /// `fallback` for None or [] (a pool's stride: the kernel size).
  std::optional<llvm::SmallVector<int64_t, 2>>
  pair(llvm::StringRef name, llvm::ArrayRef<int64_t> fallback = {});
  /// The tensors of a Tensor[] argument with their own types; a list must
  /// be a literal here, since the count must be known.
  std::optional<std::vector<mlir::Value>> tensors(llvm::StringRef name);
  /// A Tensor[] argument as one list value (kiln.cat and kiln.stack take
  /// one): a tuple or list literal joined to one element type, or the list.
  std::optional<mlir::Value> tensorList(llvm::StringRef name);
  SourceRange range(llvm::StringRef name) const { return arg(name).range; }

  FunctionLowering &fl;
  const Row &row;
  std::string spelling;
  SourceRange where;
  std::vector<BoundArg> args; // parallel to the schema's params
  /// Set by a builder whose row returns a tuple (max(dim), chunk); the
  /// Value it returns is then ignored.
  std::optional<PyValue> tupleResult;
};

} // namespace kiln::ops

#endif // KILN_FRONTEND_OPTABLE_H
