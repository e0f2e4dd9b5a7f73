//===- ModuleObject.h - nn.Module instances known at compile time -*- C++
//-*-===//
//
// kiln compiles an instance that Python has built, as torch.jit.script(Net())
// scripts one: Python describes it (ModuleDescription.h) and kiln rebuilds
// it as a tree of ModuleObjects whose attributes are plain compile-time
// values: numbers, strings, submodules and declared weights. forward() then
// reads them through `self` (LowerModules.cpp); numbers become constants
// and weights become kiln.param ops whose values come from --weights.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_MODULEOBJECT_H
#define KILN_FRONTEND_MODULEOBJECT_H

#include "frontend/AST.h"

#include "mlir/IR/Types.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kiln {

struct ModuleObject;

/// The `str` of a List that stands for a dict attribute: its elements are
/// (key, value) tuples.
inline constexpr const char *kDictMarker = "$dict";

/// A constant attribute of a module, or one of its weights.
struct ConstValue {
  enum class Kind {
    None,
    Int,
    Float,
    Bool,
    Str,
    Tuple,
    List,
    Module,
    Tensor,
    /// A dotted name such as torch.float16 (in `str`).
    Global
  };
  Kind kind = Kind::None;
  int64_t i = 0;                 // Int, Bool
  double f = 0;                  // Float
  std::string str;               // Str, Global
  std::vector<ConstValue> elems; // Tuple, List
  std::shared_ptr<ModuleObject> module;
  // Tensor
  mlir::Type elementType;
  std::vector<int64_t> shape;
  /// The state_dict() name, set once the module tree is complete.
  std::string weightName;
  /// Where the value was made, for errors that name a weight.
  SourceRange where;

  bool isNumber() const {
    return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool;
  }
};

struct ModuleObject {
  /// The nn class ("Linear", "Sequential", ...) or the user's class name.
  std::string typeName;
  /// The user's class, or null for torch.nn's own modules.
  const ast::ClassDef *userClass = nullptr;
  /// The torch.nn class whose behaviour a user class inherits where it
  /// defines none of its own (`class Stage(nn.Sequential)` without a
  /// forward): the nearest one in its MRO, or empty.
  std::string torchBase;

  /// The torch.nn class whose forward, iteration and indexing apply:
  /// typeName for torch's own modules, torchBase for a user class.
  const std::string &torchKind() const {
    return userClass ? torchBase : typeName;
  }
  /// state_dict() prefix of everything below: "" for the root, "layers.0."
  std::string prefix;
  /// Attributes in assignment order (state_dict() order).
  std::vector<std::pair<std::string, ConstValue>> attrs;
  /// Attributes that are no constant (a function, a plain tensor), with
  /// what Python said they are, for the error when forward reads one.
  std::vector<std::pair<std::string, std::string>> opaque;
  SourceRange createdAt;

  const ConstValue *lookup(const std::string &name) const {
    for (const auto &[n, v] : attrs)
      if (n == name)
        return &v;
    return nullptr;
  }
  ConstValue *lookup(const std::string &name) {
    return const_cast<ConstValue *>(
        static_cast<const ModuleObject *>(this)->lookup(name));
  }
  void set(const std::string &name, ConstValue value) {
    if (ConstValue *old = lookup(name))
      *old = std::move(value);
    else
      attrs.emplace_back(name, std::move(value));
  }
};

/// A weight of the compiled module, in state_dict() order.
struct DeclaredWeight {
  std::string name;
  mlir::Type type; // a RankedTensorType
  SourceRange where;
  /// Its other state_dict() names (tied weights), which a weights file
  /// saved from state_dict() holds too.
  std::vector<std::string> aliases;
};

} // namespace kiln

#endif // KILN_FRONTEND_MODULEOBJECT_H
