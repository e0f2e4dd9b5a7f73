//===- EntryContainers.cpp - Lists at an entry point's boundary -----------===//
//
// A List parameter's elements, each an input of its own, become the list
// the body sees; a returned list becomes one result per element. Tuples
// need neither: they are their elements already.
//
//===----------------------------------------------------------------------===//
#include "frontend/EntryPoints.h"

#include "frontend/LowerContainers.h"
#include "ir/KilnDialect.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln {

// A kiln list holds one type, so elements whose sizes differ join with
// those dims dynamic, as in a `[a, b]` display.
std::optional<PyValue> entryList(FunctionLowering &fl, const ast::Param &p,
                                 std::vector<PyValue> elems,
                                 Type emptyElement) {
  SourceRange where = p.range;
  if (elems.empty())
    return PyValue::ofValue(fl.b.create<ListConstructOp>(
        fl.loc(where), ListType::get(emptyElement), ValueRange{}));
  Type t = elems[0].value.getType();
  for (size_t i = 1; i < elems.size(); ++i) {
    Type et = elems[i].value.getType();
    if (et == t)
      continue;
    // Tensors of one rank and dtype, with the sizes they disagree on
    // dynamic.
    Type joined = isa<RankedTensorType>(t) && isa<RankedTensorType>(et)
                      ? joinTypes(t, et)
                      : Type();
    if (!joined) {
      fl.error(where, "the elements of list input '" + p.name +
                          "' must share a dtype and rank, as a kiln list's "
                          "do: '" + p.name + ".0' is " +
                          fl.describe(elems[0]) + " and '" + p.name + "." +
                          std::to_string(i) + "' is " +
                          fl.describe(elems[i]) +
                          "; annotate it as a Tuple for mixed elements");
      return std::nullopt;
    }
    t = joined;
  }
  SmallVector<Value> values;
  for (const PyValue &e : elems) {
    std::optional<Value> v = e.value;
    if (v->getType() != t && !(v = fl.castForMerge(*v, t, where)))
      return std::nullopt;
    values.push_back(*v);
  }
  return PyValue::ofValue(fl.b.create<ListConstructOp>(
      fl.loc(where), ListType::get(t), values));
}

std::optional<PyValue> entryResultLeaves(FunctionLowering &fl,
                                         const PyValue &result,
                                         SourceRange where) {
  if (result.isValue() && isa<ListType>(result.value.getType())) {
    std::optional<std::vector<PyValue>> elems =
        containers::listDisplayElements(result);
    if (!elems) {
      fl.error(where, "an entry point cannot return " + fl.describe(result) +
                          " whose length is known only at run time: each "
                          "element is a result of the archive, so their "
                          "number is fixed when it is compiled; return a "
                          "tuple, or torch.stack the list");
      return std::nullopt;
    }
    return entryResultLeaves(fl, PyValue::tuple(std::move(*elems)), where);
  }
  if (result.kind != PyValue::Kind::Tuple && !result.isDict())
    return result;
  PyValue out = result; // a dict's keys, a NamedTuple's fields
  for (PyValue &e : out.elems) {
    std::optional<PyValue> leaves = entryResultLeaves(fl, e, where);
    if (!leaves)
      return std::nullopt;
    e = std::move(*leaves);
  }
  return out;
}

} // namespace kiln
