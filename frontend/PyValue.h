//===- PyValue.h - What a Python name stands for during lowering ----------===//
//
// Python values are richer than SSA values: a name can hold a tuple, a
// string, `None`, a module such as `torch.nn`, or a user function. Only
// tensors, scalars and lists become SSA values; everything else is resolved
// at compile time, which is how tuples are flattened and `is None` is
// refined away.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_PYVALUE_H
#define KILN_FRONTEND_PYVALUE_H

#include "frontend/AST.h"

#include "mlir/IR/Value.h"

#include <string>
#include <vector>

namespace kiln {

struct ModuleObject;

struct PyValue {
  enum class Kind {
    /// An SSA value: a tensor, an i64/f64/i1 scalar or a !kiln.list.
    Value,
    None,
    Str,
    Tuple,
    /// A dotted global such as `torch`, `torch.nn.functional.relu`,
    /// `torch.float32` or `builtins.range`.
    Global,
    /// A function defined in the file.
    Function,
    /// `obj.method`, not yet called; `elems[0]` is obj.
    Method,
    /// A name that is bound on some paths only; `str` says why, `notes`
    /// where.
    Undefined,
    /// An nn.Module instance built at compile time (`self`, `self.fc1`).
    Object,
    /// An Optional[Tensor] whose presence is known only at run time (an
    /// entry point's optional input): `elems[0]` is the i1 "is not None",
    /// `elems[1]` the tensor, meaningless while the i1 is false. `is None`
    /// tests the i1, and an `if` on it refines the name in each branch.
    Optional,
    /// A `Dict[str, T]` built while compiling: `keys[i]` maps to
    /// `elems[i]`, in insertion order. Values may differ in type and shape.
    Dict,
  };

  Kind kind = Kind::None;
  mlir::Value value;
  std::string str;
  std::vector<PyValue> elems;
  /// A Dict's keys; a NamedTuple's field names (a Tuple whose `str` is
  /// the class name). Empty for a plain tuple.
  std::vector<std::string> keys;
  const ast::FunctionDef *func = nullptr;
  const ModuleObject *object = nullptr;
  std::vector<DiagnosticNote> notes;

  static PyValue ofValue(mlir::Value v) {
    PyValue p;
    p.kind = Kind::Value;
    p.value = v;
    return p;
  }
  static PyValue none() { return PyValue(); }
  static PyValue ofStr(std::string s) {
    PyValue p;
    p.kind = Kind::Str;
    p.str = std::move(s);
    return p;
  }
  static PyValue tuple(std::vector<PyValue> elems) {
    PyValue p;
    p.kind = Kind::Tuple;
    p.elems = std::move(elems);
    return p;
  }
  static PyValue dict(std::vector<std::string> keys,
                      std::vector<PyValue> values) {
    PyValue p;
    p.kind = Kind::Dict;
    p.keys = std::move(keys);
    p.elems = std::move(values);
    return p;
  }
  static PyValue namedTuple(std::string cls, std::vector<std::string> fields,
                            std::vector<PyValue> elems) {
    PyValue p = tuple(std::move(elems));
    p.str = std::move(cls);
    p.keys = std::move(fields);
    return p;
  }
  bool isDict() const { return kind == Kind::Dict; }
  bool isNamedTuple() const { return kind == Kind::Tuple && !keys.empty(); }
  static PyValue global(std::string path) {
    PyValue p;
    p.kind = Kind::Global;
    p.str = std::move(path);
    return p;
  }
  static PyValue function(const ast::FunctionDef *f) {
    PyValue p;
    p.kind = Kind::Function;
    p.func = f;
    return p;
  }
  static PyValue method(PyValue self, std::string name) {
    PyValue p;
    p.kind = Kind::Method;
    p.str = std::move(name);
    p.elems.push_back(std::move(self));
    return p;
  }
  static PyValue ofObject(const ModuleObject *object) {
    PyValue p;
    p.kind = Kind::Object;
    p.object = object;
    return p;
  }
  /// The value of a name whose assignment failed to compile: using it
  /// fails without a second message (lowerName), since the first said why.
  static PyValue poisoned() { return undefined("", {}); }
  bool isPoisoned() const { return kind == Kind::Undefined && str.empty(); }
  static PyValue undefined(std::string why, std::vector<DiagnosticNote> notes) {
    PyValue p;
    p.kind = Kind::Undefined;
    p.str = std::move(why);
    p.notes = std::move(notes);
    return p;
  }

  static PyValue optional(mlir::Value present, mlir::Value tensor) {
    PyValue p;
    p.kind = Kind::Optional;
    p.elems = {ofValue(present), ofValue(tensor)};
    return p;
  }

  bool isValue() const { return kind == Kind::Value; }
  bool isOptional() const { return kind == Kind::Optional; }
  /// For an Optional: the i1 that is true when a tensor is present.
  mlir::Value presence() const { return elems[0].value; }
  /// For an Optional: the tensor, to be used only where it is present.
  mlir::Value payload() const { return elems[1].value; }
  bool isNone() const { return kind == Kind::None; }
};

/// True if both are the same compile-time value (same SSA values, same
/// strings, same structure).
bool samePyValue(const PyValue &a, const PyValue &b);

} // namespace kiln

#endif // KILN_FRONTEND_PYVALUE_H
