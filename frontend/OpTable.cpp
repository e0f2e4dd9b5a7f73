//===- OpTable.cpp - The op table's generic parts -------------------------===//
//
// What every row shares: lowering a bound call through its kiln op or its
// builder, the constants of Python's math module, and allRows(), which
// concatenates the families of OpFamilies.h in documentation order. The
// rows themselves live in OpTable*.cpp, one file per family.
//
//===----------------------------------------------------------------------===//
#include "frontend/OpTable.h"
#include "frontend/LowerNNSupport.h"
#include "frontend/OpBuilders.h"
#include "frontend/OpFamilies.h"
#include "frontend/Prelude.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace kiln::ops {

std::optional<Value> lowerRow(OpArgs &a) {
  if (a.row.flags == NoFlags && a.row.build)
    return a.row.build(a);
  Value x = firstArg(a);
  Type element = mlir::getElementTypeOrSelf(x.getType());
  auto refuse = [&](const char *why) {
    a.fl.error(a.where, a.spelling + "() " + why + ", got " +
                            a.fl.describe(PyValue::ofValue(x)));
    return std::nullopt;
  };
  if ((a.row.flags & NoBool) && element.isInteger(1))
    return refuse("does not support bool tensors");
  if ((a.row.flags & FloatOnly) && !isFloat(x))
    return refuse("needs a float input");
  if (a.row.flags & FloatMath)
    a.args[0].value = PyValue::ofValue(toFloat(a, x));
  if (a.row.build)
    return a.row.build(a);
  return nn::unary(a.fl, a.row.kilnOp, firstArg(a), a.where);
}

std::optional<double> mathConstant(StringRef name) {
  if (name == "pi")
    return M_PI;
  if (name == "e")
    return M_E;
  if (name == "tau")
    return 2 * M_PI;
  if (name == "inf")
    return std::numeric_limits<double>::infinity();
  if (name == "nan")
    return std::numeric_limits<double>::quiet_NaN();
  return std::nullopt;
}
const std::vector<NamedBuilder> &allBuilders() {
  static const std::vector<NamedBuilder> builders = [] {
    std::vector<NamedBuilder> all;
    for (std::vector<NamedBuilder> (*family)() : kBuilderFamilies) {
      std::vector<NamedBuilder> some = family();
      all.insert(all.end(), some.begin(), some.end());
    }
    return all;
  }();
  return builders;
}

const std::vector<Row> &allRows() {
  static const std::vector<Row> rows = [] {
    std::vector<Row> all;
    for (const char *family : kFamilies) {
      std::vector<Row> some = preludeRows(family);
      all.insert(all.end(), some.begin(), some.end());
    }
    // A builder no row names is dead code, or a row someone forgot.
    for (const NamedBuilder &b : allBuilders())
      if (llvm::none_of(all, [&](const Row &r) { return r.build == b.build; }))
        llvm::report_fatal_error(llvm::Twine("no op-table row uses builder '") +
                                 b.name + "'");
    return all;
  }();
  return rows;
}

} // namespace kiln::ops
