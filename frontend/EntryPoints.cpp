//===- EntryPoints.cpp - Entry points: their signatures and bodies --------===//
//
// An entry point's parameters get their types from `# kiln:` comments and
// `--arg` specs (tensors), their annotations (Python scalars, Optional, str)
// and their defaults, which the manifest records. A str parameter is not an
// input: the entry is compiled for one value of it. lowerEntry then lowers
// the body with each parameter bound to its argument.
//
//===----------------------------------------------------------------------===//
#include "frontend/LoweringImpl.h"

#include "frontend/AstPrinter.h"
#include "ir/KilnDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;

namespace kiln {

/// The element type named by a spec dtype.
static Type dtypeToType(MLIRContext &ctx, DType d) {
  switch (d) {
  case DType::F32:
    return Float32Type::get(&ctx);
  case DType::F16:
    return Float16Type::get(&ctx);
  case DType::BF16:
    return BFloat16Type::get(&ctx);
  case DType::F64:
    return Float64Type::get(&ctx);
  case DType::I32:
    return IntegerType::get(&ctx, 32);
  case DType::I64:
    return IntegerType::get(&ctx, 64);
  case DType::Bool:
    return IntegerType::get(&ctx, 1);
  }
  return {};
}

/// Builds `x=f32[N]`-style text showing how to give a missing spec.
static std::string specExample(const std::string &name) {
  return name + "=f32[N]";
}

namespace {
/// An entry point's parameter, typed.
struct EntryParam {
  Type type;
  ArrayAttr dims; // symbolic dims for tensors
};
} // namespace

/// The default of scalar entry parameter `p` (`k: int = 2`) as the
/// attribute the manifest records: an i64, f64 or bool constant, written
/// as a literal (a leading minus allowed). Null when it has none; sets
/// `failed` after an error.
static Attribute scalarDefault(ModuleLowering &m, OpBuilder &b,
                               const ast::Param &p, ParamKind kind,
                               bool optional, bool &failed) {
  if (!p.defaultValue ||
      (optional && llvm::isa<ast::NoneLitExpr>(*p.defaultValue)))
    return {};
  const ast::Expr *e = p.defaultValue.get();
  bool negate = false;
  if (auto *u = llvm::dyn_cast<ast::UnaryOpExpr>(e);
      u && (u->op == ast::UnaryOpKind::Neg || u->op == ast::UnaryOpKind::Pos)) {
    negate = u->op == ast::UnaryOpKind::Neg;
    e = u->operand.get();
  }
  auto *i = llvm::dyn_cast<ast::IntLitExpr>(e);
  auto *f = llvm::dyn_cast<ast::FloatLitExpr>(e);
  auto *bl = llvm::dyn_cast<ast::BoolLitExpr>(e);
  if (kind == ParamKind::Int && i)
    return b.getI64IntegerAttr(negate ? -i->value : i->value);
  if (kind == ParamKind::Float && (f || i)) {
    double v = f ? f->value : double(i->value);
    // JSON has no inf or nan, and the manifest is JSON.
    if (std::isfinite(v))
      return b.getF64FloatAttr(negate ? -v : v);
  }
  if (kind == ParamKind::Bool && bl && e == p.defaultValue.get())
    return b.getBoolAttr(bl->value);
  std::string expected = kind == ParamKind::Int ? "an int literal"
                         : kind == ParamKind::Float ? "a finite number literal"
                                                    : "True or False";
  m.diags.error(p.defaultValue->range,
                "the default of entry parameter '" + p.name + "' must be " +
                    expected + (optional ? " or None" : "") +
                    " (it is annotated '" + exprToString(*p.annotation) +
                    "'), got '" + exprToString(*p.defaultValue) + "'");
  failed = true;
  return {};
}

/// The value of str parameter `p`, which the entry point is compiled for:
/// from its spec (`--arg mode=str:relu`), else its default. It is no
/// run-time input, so it goes in `strings`, not among the arguments.
static bool entryString(ModuleLowering &m, const ast::FunctionDef *def,
                        const ast::Param &p, const ArgSpec *spec,
                        std::map<std::string, std::string> &strings) {
  if (spec) {
    strings[p.name] = *spec->str;
    return true;
  }
  if (auto *lit = llvm::dyn_cast_if_present<ast::StrLitExpr>(
          p.defaultValue.get())) {
    strings[p.name] = lit->value;
    return true;
  }
  if (p.defaultValue) {
    m.diags.error(p.defaultValue->range,
                  "the default of str parameter '" + p.name +
                      "' must be a string literal, got '" +
                      exprToString(*p.defaultValue) + "'");
    return false;
  }
  m.diags.error(p.range, "no value for str parameter '" + p.name + "' of '" +
                             def->name + "', which kiln compiles for one "
                             "value; pass --arg " + p.name +
                             "=str:VALUE, write '# kiln: " + p.name +
                             "=str:VALUE' on the line above the def, or give "
                             "it a default");
  return false;
}

/// Types the parameters of entry point `def` from their annotations and
/// `specs`: a tensor, a scalar, or for Optional[Tensor] the tensor plus an
/// i1 "is present" argument. False after an error.
static bool typeEntryParams(ModuleLowering &m, OpBuilder &b,
                            const ast::FunctionDef *def, bool hasSelf,
                            const std::map<std::string, ArgSpec> &specs,
                            SmallVectorImpl<Type> &argTypes,
                            SmallVectorImpl<DictionaryAttr> &argAttrs,
                            std::map<std::string, std::string> &strings) {
  for (const ast::Param &p : def->params) {
    if (hasSelf && &p == &def->params.front())
      continue; // self is the module instance, known at compile time
    bool isStr = p.annotation && resolveGlobalName(m, *p.annotation) == "str";
    auto strSpec = specs.find(p.name);
    if (strSpec != specs.end() && strSpec->second.str.has_value() != isStr) {
      m.diags.error(p.range,
                    isStr ? "parameter '" + p.name +
                                "' is a str; give its value as --arg " +
                                p.name + "=str:VALUE, not a shape spec"
                          : "a str spec ('" + printArgSpec(strSpec->second) +
                                "') applies to a parameter annotated str, "
                                "and '" + p.name + "' is not");
      return false;
    }
    if (isStr) {
      if (!entryString(m, def, p, strSpec != specs.end() ? &strSpec->second
                                                          : nullptr,
                       strings))
        return false;
      continue;
    }
    ParamKind kind = classifyAnnotation(m, p.annotation.get());
    // Optional[int], Optional[float], Optional[bool]: the scalar, then its
    // presence flag, as for Optional[Tensor].
    bool optionalScalar = false;
    if (kind == ParamKind::Unsupported)
      if (const ast::Expr *inner = optionalPayload(m, p.annotation.get())) {
        ParamKind innerKind = classifyAnnotation(m, inner);
        if (innerKind == ParamKind::Int || innerKind == ParamKind::Float ||
            innerKind == ParamKind::Bool) {
          kind = innerKind;
          optionalScalar = true;
        }
      }
    auto spec = specs.find(p.name);
    SmallVector<NamedAttribute> attrs;
    attrs.push_back(b.getNamedAttr("kiln.name", b.getStringAttr(p.name)));
    // The input may be None: its value is followed by an i1 "is present"
    // argument (docs/archive.md, optional inputs), which the manifest does
    // not list as an input of its own.
    auto addPresenceFlag = [&] {
      attrs.push_back(b.getNamedAttr("kiln.optional", b.getUnitAttr()));
      argAttrs.push_back(b.getDictionaryAttr(attrs));
      attrs.clear();
      attrs.push_back(b.getNamedAttr("kiln.name", b.getStringAttr(p.name)));
      attrs.push_back(b.getNamedAttr("kiln.presence", b.getUnitAttr()));
      argTypes.push_back(b.getI1Type());
    };
    switch (kind) {
    case ParamKind::Unsupported:
      m.diags.error(p.annotation ? p.annotation->range : p.range,
                  "parameter '" + p.name + "' of entry point '" + def->name +
                      "' has type '" + exprToString(*p.annotation) +
                      "'; entry points take Tensor, int, float and bool, "
                      "and Optional of each");
      return false;
    case ParamKind::Int:
    case ParamKind::Float:
    case ParamKind::Bool:
      if (spec != specs.end()) {
        m.diags.error(p.range, "parameter '" + p.name +
                                 "' is a scalar; a shape spec applies to "
                                 "tensors only");
        return false;
      }
      argTypes.push_back(kind == ParamKind::Int     ? Type(b.getI64Type())
                         : kind == ParamKind::Float ? Type(b.getF64Type())
                                                    : Type(b.getI1Type()));
      {
        // The manifest records it; the runtime passes it for an omitted
        // input, so the code takes the parameter as always given.
        bool failed = false;
        if (Attribute d = scalarDefault(m, b, p, kind, optionalScalar, failed))
          attrs.push_back(b.getNamedAttr("kiln.default", d));
        if (failed)
          return false;
      }
      if (optionalScalar)
        addPresenceFlag();
      break;
    case ParamKind::Tensor:
    case ParamKind::OptionalTensor: {
      if (spec == specs.end()) {
        m.diags.error(p.range, "no shape for tensor argument '" + p.name +
                                 "' of '" + def->name + "'; pass --arg " +
                                 specExample(p.name) +
                                 " or write '# kiln: " + specExample(p.name) +
                                 "' on the line above the def");
        return false;
      }
      SmallVector<int64_t> shape;
      SmallVector<Attribute> dims;
      for (const SpecDim &d : spec->second.dims) {
        shape.push_back(d.size >= 0 ? d.size : ShapedType::kDynamic);
        dims.push_back(
            b.getStringAttr(d.size >= 0 ? std::to_string(d.size) : d.symbol));
      }
      if (spec->second.optional && kind == ParamKind::Tensor) {
        m.diags.error(p.range, "the shape spec of '" + p.name +
                                 "' ends in '?', but '" + p.name +
                                 "' is not annotated Optional[Tensor]");
        return false;
      }
      argTypes.push_back(RankedTensorType::get(
          shape, dtypeToType(m.context, spec->second.dtype)));
      attrs.push_back(b.getNamedAttr("kiln.dims", b.getArrayAttr(dims)));
      if (kind == ParamKind::OptionalTensor)
        addPresenceFlag();
      break;
    }
    }
    argAttrs.push_back(b.getDictionaryAttr(attrs));
  }
  return true;
}

bool ModuleLowering::lowerEntry(const ast::FunctionDef *def,
                                const ModuleObject *self) {
  OpBuilder b(&context);

  // Specs from `# kiln:` comments, then the command line on top.
  std::map<std::string, ArgSpec> specs;
  for (const ast::SpecComment &c : def->specs) {
    auto parsed = parseArgSpecList(c.text);
    if (!parsed.ok()) {
      diags.error(c.range, parsed.error);
      return false;
    }
    for (ArgSpec &s : parsed.value) {
      if (!llvm::any_of(def->params, [&](const ast::Param &p) {
            return p.name == s.name;
          })) {
        diags.error(c.range, "shape spec names '" + s.name +
                                 "', which is not a parameter of '" +
                                 def->name + "'");
        return false;
      }
      specs[s.name] = s;
    }
  }
  // Plain --arg specs, then the ones keyed by this entry, which win.
  for (const ArgSpec &s : options.argSpecs)
    if (s.entry.empty())
      specs[s.name] = s;
  for (const ArgSpec &s : options.argSpecs)
    if (s.entry == def->name)
      specs[s.name] = s;

  SmallVector<Type> argTypes;
  SmallVector<DictionaryAttr> argAttrs;
  std::map<std::string, std::string> strings;
  if (!typeEntryParams(*this, b, def, self != nullptr, specs, argTypes,
                       argAttrs, strings))
    return false;

  b.setInsertionPointToEnd(module.getBody());
  auto fnLoc = FileLineColLoc::get(fileName, def->range.begin.line,
                                   def->range.begin.col);
  auto func = b.create<func::FuncOp>(fnLoc, def->name,
                                     b.getFunctionType(argTypes, {}));
  func.setAllArgAttrs(argAttrs);
  func->setAttr("kiln.entry", b.getUnitAttr());
  Block *entry = func.addEntryBlock();

  std::vector<PyValue> params;
  if (self)
    params.push_back(PyValue::ofObject(self));
  // Each parameter in order: a str is the constant it was compiled for,
  // the rest take the arguments in turn.
  unsigned next = 0;
  for (const ast::Param &p : def->params) {
    if (self && &p == &def->params.front())
      continue;
    if (auto it = strings.find(p.name); it != strings.end()) {
      params.push_back(PyValue::ofStr(it->second));
      continue;
    }
    BlockArgument arg = entry->getArgument(next++);
    params.push_back(PyValue::ofValue(arg));
    if (next < entry->getNumArguments() &&
        func.getArgAttr(next, "kiln.presence")) {
      // The value before it and this flag are one Optional.
      params.back() = PyValue::optional(entry->getArgument(next++), arg);
    }
  }
  if (!strings.empty()) {
    SmallVector<NamedAttribute> fixed;
    for (const auto &[name, value] : strings)
      fixed.push_back(b.getNamedAttr(name, b.getStringAttr(value)));
    func->setAttr("kiln.strings", b.getDictionaryAttr(fixed));
  }
  OpBuilder fb(&context);
  fb.setInsertionPointToStart(entry);
  FunctionLowering fl(*this, fb);
  inProgress.insert(def);
  std::optional<PyValue> result = fl.lowerBody(*def, std::move(params));
  inProgress.erase(def);
  if (!result)
    return false;
  resultShapes[def->name] = *result;
  std::string key = def->name + "(";
  for (Type t : argTypes) {
    llvm::raw_string_ostream os(key);
    os << t << ",";
  }
  specializations[key] = func;
  return true;
}

} // namespace kiln
