//===- EntryPoints.cpp - Entry points: their signatures and bodies --------===//
//
// An entry point's parameters get their types from `# kiln:` comments and
// `--arg` specs (tensors), their annotations (Python scalars, Optional, str)
// and their defaults, which the manifest records. A str parameter is not an
// input: the entry is compiled for one value of it (for several, chosen at
// run time, see EntryStrChoices.cpp). A List or Tuple
// parameter has the length its spec gives (an archive has a fixed calling
// convention, as torch.export's does): each element is an input of its own,
// `xs.0`, `xs.1`, ..., and the body sees a list or tuple of them. lowerEntry
// then lowers the body with each parameter bound to its argument.
//
//===----------------------------------------------------------------------===//
#include "frontend/EntryPoints.h"

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
/// How the body's value of one entry parameter is built from the entry
/// function's arguments: a leaf takes the next one (two for an Optional,
/// whose presence flag follows), a str is its compile-time value, a list
/// or tuple gathers its elements'.
struct ParamLayout {
  enum class Kind { Leaf, Str, List, Tuple } kind = Kind::Leaf;
  std::vector<ParamLayout> elems;
  /// An empty list's element type (a `[]` literal's, for List[Tensor]).
  Type emptyElement;
};

/// The element annotations of a List[T] (one) or Tuple[...] annotation;
/// `variadic` for Tuple[T, ...], whose length the spec gives.
struct ContainerAnnotation {
  bool isList = false;
  bool variadic = false;
  std::vector<const ast::Expr *> elems;
};
} // namespace

static std::optional<ContainerAnnotation>
containerAnnotation(ModuleLowering &m, const ast::Expr *annotation) {
  auto *sub = llvm::dyn_cast_if_present<ast::SubscriptExpr>(annotation);
  if (!sub)
    return std::nullopt;
  std::string head = resolveGlobalName(m, *sub->value);
  ContainerAnnotation c;
  c.isList = namesTyping(head, "List");
  if (!c.isList && !namesTyping(head, "Tuple"))
    return std::nullopt;
  for (const ast::ExprPtr &index : sub->indices) {
    if (auto *tuple = llvm::dyn_cast<ast::TupleExpr>(index.get()))
      for (const ast::ExprPtr &elt : tuple->elts)
        c.elems.push_back(elt.get());
    else
      c.elems.push_back(index.get());
  }
  if (!c.isList && c.elems.size() == 2 &&
      llvm::isa<ast::EllipsisLitExpr>(*c.elems[1])) {
    c.variadic = true;
    c.elems.pop_back();
  }
  if ((c.isList || c.variadic) && c.elems.size() != 1)
    return std::nullopt;
  return c;
}

/// "xs=[f32[N], f32[N]]": a spec example for container annotation `c`
/// named `name`, for the messages that ask for one.
static std::string containerExample(ModuleLowering &m, const std::string &name,
                                    const ContainerAnnotation &c) {
  std::string s;
  size_t n = c.isList || c.variadic ? 2 : c.elems.size();
  for (size_t i = 0; i < n; ++i) {
    const ast::Expr *e = c.elems[c.isList || c.variadic ? 0 : i];
    ParamKind k = classifyAnnotation(m, e);
    s += std::string(i ? ", " : "") +
         (k == ParamKind::Int     ? "int"
          : k == ParamKind::Float ? "float"
          : k == ParamKind::Bool  ? "bool"
          : containerAnnotation(m, e) ? "[...]"
                                      : "f32[N]");
  }
  ParamKind k0 = c.elems.empty() ? ParamKind::Tensor
                                 : classifyAnnotation(m, c.elems[0]);
  if (c.isList && (k0 == ParamKind::Int || k0 == ParamKind::Float ||
                   k0 == ParamKind::Bool))
    return name + "=" + s.substr(0, s.find(',')) + "[2]";
  return name + (c.isList ? "=[" : "=(") + s + (c.isList ? "]" : ")");
}

/// The element type of an empty list of `kind`.
static Type emptyListElement(OpBuilder &b, ParamKind kind) {
  switch (kind) {
  case ParamKind::Int:
    return b.getI64Type();
  case ParamKind::Float:
    return b.getF64Type();
  case ParamKind::Bool:
    return b.getI1Type();
  default:
    return b.getNoneType();
  }
}

/// Literal `e` as the attribute a default of `kind` is recorded as: an
/// i64, f64 or bool constant (a leading minus allowed). Null when it is
/// no such literal.
static Attribute scalarLiteral(OpBuilder &b, const ast::Expr *e,
                               ParamKind kind) {
  const ast::Expr *literal = e;
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
  if (kind == ParamKind::Bool && bl && e == literal)
    return b.getBoolAttr(bl->value);
  return {};
}

/// "an int literal", for messages about a default of `kind`.
static std::string expectedLiteral(ParamKind kind) {
  return kind == ParamKind::Int     ? "an int literal"
         : kind == ParamKind::Float ? "a finite number literal"
                                    : "True or False";
}

/// The default of scalar entry parameter `p` (`k: int = 2`) as the
/// attribute the manifest records. Null when it has none; sets `failed`
/// after an error.
static Attribute scalarDefault(ModuleLowering &m, OpBuilder &b,
                               const ast::Param &p, ParamKind kind,
                               bool optional, bool &failed) {
  if (!p.defaultValue ||
      (optional && llvm::isa<ast::NoneLitExpr>(*p.defaultValue)))
    return {};
  if (Attribute a = scalarLiteral(b, p.defaultValue.get(), kind))
    return a;
  m.diags.error(p.defaultValue->range,
                "the default of entry parameter '" + p.name + "' must be " +
                    expectedLiteral(kind) + (optional ? " or None" : "") +
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
  if (spec && !strChoices(*spec).empty()) {
    m.diags.error(p.range, "str parameter '" + p.name + "' is given values "
                           "to choose from at run time ('" +
                           printArgSpec(*spec) + "'), but another one of '" +
                           def->name + "' already is; one str parameter of "
                           "an entry point may be chosen at run time");
    return false;
  }
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
                             "it a default (or choose among values at run "
                             "time with --arg " + p.name + "=str:A|B|...)");
  return false;
}

namespace {
/// An entry function's arguments, as typeEntryParams gathers them.
struct EntrySignature {
  SmallVector<Type> argTypes;
  SmallVector<DictionaryAttr> argAttrs;
  /// The str parameters' values, which are no arguments.
  std::map<std::string, std::string> strings;
  /// One per parameter but self.
  std::vector<ParamLayout> layouts;
  /// For the manifest: {name, type, args} of each List or Tuple parameter.
  SmallVector<Attribute> containers;
};
} // namespace

/// The tensor type that `spec` gives parameter `name`, with its dims'
/// names in `attrs`; null after an error.
static Type tensorArgType(ModuleLowering &m, OpBuilder &b, SourceRange where,
                          const std::string &name, const ArgSpec &spec,
                          SmallVectorImpl<NamedAttribute> &attrs) {
  if (!spec.isTensor()) {
    ArgSpec named = spec;
    named.name = name;
    m.diags.error(where, "'" + name + "' is a Tensor; its spec must be a "
                         "shape such as " + specExample(name) + ", got '" +
                         printArgSpec(named) + "'");
    return {};
  }
  SmallVector<int64_t> shape;
  SmallVector<Attribute> dims;
  for (const SpecDim &d : spec.dims) {
    shape.push_back(d.size >= 0 ? d.size : ShapedType::kDynamic);
    dims.push_back(
        b.getStringAttr(d.size >= 0 ? std::to_string(d.size) : d.symbol));
  }
  attrs.push_back(b.getNamedAttr("kiln.dims", b.getArrayAttr(dims)));
  return RankedTensorType::get(shape, dtypeToType(m.context, spec.dtype));
}

/// Types the inputs of List or Tuple parameter `p`, or of its element
/// `path` (`hc.1`), annotated `c` (written `annotation`), from `spec`
/// (null when none was given): one argument per tensor or scalar element,
/// named `path.0`, `path.1`, ... False after an error.
static bool typeContainer(ModuleLowering &m, OpBuilder &b,
                          const ast::FunctionDef *def, const ast::Param &p,
                          const std::string &path, const ast::Expr &annotation,
                          const ContainerAnnotation &c, const ArgSpec *spec,
                          EntrySignature &sig, ParamLayout &layout,
                          SmallVectorImpl<Attribute> &leafNames) {
  std::string written = "'" + exprToString(annotation) + "'";
  std::string example = containerExample(m, path, c);
  auto fail = [&](const std::string &message) {
    m.diags.error(p.range, message);
    return false;
  };
  auto specText = [&](const ArgSpec &s, const std::string &name) {
    ArgSpec named = s;
    named.name = name;
    return "'" + printArgSpec(named) + "'";
  };
  bool fixedArity = !c.isList && !c.variadic;
  if (spec && !spec->isContainer)
    return fail("'" + path + "' is annotated " + written + ", so its spec "
                "lists its elements, as in " + example + "; got " +
                specText(*spec, path));
  if (!spec && !fixedArity)
    return fail("no length for '" + path + "' of '" + def->name +
                "', annotated " + written + "; an archive's inputs are "
                "fixed when it is compiled, so pass --arg " + example +
                " or write '# kiln: " + example + "' on the line above the def");
  size_t count = spec ? spec->elems.size() : c.elems.size();
  if (spec && fixedArity && count != c.elems.size())
    return fail("the spec " + specText(*spec, path) + " has " +
                std::to_string(count) + " elements, but '" + path +
                "' is annotated " + written + ", which has " +
                std::to_string(c.elems.size()));
  for (size_t i = 0; i < count; ++i) {
    const ast::Expr *elem = c.elems[fixedArity ? i : 0];
    const ArgSpec *elemSpec = spec ? &spec->elems[i] : nullptr;
    std::string leaf = path + "." + std::to_string(i);
    if (std::optional<ContainerAnnotation> inner =
            containerAnnotation(m, elem)) {
      if (c.isList)
        return fail("'" + path + "' is annotated " + written +
                    "; an entry point's list input holds tensors, ints, "
                    "floats or bools (a tuple may hold lists and tuples)");
      ParamLayout nested;
      if (!typeContainer(m, b, def, p, leaf, *elem, *inner, elemSpec, sig,
                         nested, leafNames))
        return false;
      layout.elems.push_back(std::move(nested));
      continue;
    }
    ParamKind kind = classifyAnnotation(m, elem);
    SmallVector<NamedAttribute> attrs;
    attrs.push_back(b.getNamedAttr("kiln.name", b.getStringAttr(leaf)));
    if (kind == ParamKind::Int || kind == ParamKind::Float ||
        kind == ParamKind::Bool) {
      const char *scalar = kind == ParamKind::Int     ? "int"
                           : kind == ParamKind::Float ? "float"
                                                      : "bool";
      if (elemSpec && elemSpec->scalar != scalar)
        return fail("'" + leaf + "' is " + (kind == ParamKind::Int ? "an " : "a ") +
                    scalar + " (" + path + " is annotated " + written +
                    "), so its spec is '" + scalar + "'; got " +
                    specText(*elemSpec, leaf));
      sig.argTypes.push_back(kind == ParamKind::Int     ? Type(b.getI64Type())
                             : kind == ParamKind::Float ? Type(b.getF64Type())
                                                        : Type(b.getI1Type()));
    } else if (kind == ParamKind::Tensor) {
      if (!elemSpec)
        return fail("no shape for '" + leaf + "', an element of '" + path +
                    "' (annotated " + written + "); pass --arg " + example +
                    " or write '# kiln: " + example +
                    "' on the line above the def");
      if (elemSpec->optional)
        return fail("the spec " + specText(*elemSpec, leaf) + " ends in '?', "
                    "but the elements of a List or Tuple entry input cannot "
                    "be None");
      Type t = tensorArgType(m, b, p.range, leaf, *elemSpec, attrs);
      if (!t)
        return false;
      sig.argTypes.push_back(t);
    } else {
      return fail("'" + path + "' is annotated " + written + "; the "
                  "elements of an entry point's List or Tuple input are "
                  "Tensor, int, float and bool, or Tuples and Lists of them");
    }
    sig.argAttrs.push_back(b.getDictionaryAttr(attrs));
    leafNames.push_back(b.getStringAttr(leaf));
    layout.elems.emplace_back();
  }
  layout.kind = c.isList ? ParamLayout::Kind::List : ParamLayout::Kind::Tuple;
  if (c.isList)
    layout.emptyElement =
        emptyListElement(b, classifyAnnotation(m, c.elems.front()));
  return true;
}

/// The literals of a tuple default (`(1, 2)`, nested tuples), flattened
/// in order; false when `e` is no such display.
static bool defaultLeaves(const ast::Expr *e,
                          std::vector<const ast::Expr *> &out) {
  auto *tuple = llvm::dyn_cast<ast::TupleExpr>(e);
  if (!tuple)
    return false;
  for (const ast::ExprPtr &x : tuple->elts) {
    if (!llvm::isa<ast::TupleExpr, ast::ListExpr>(*x))
      out.push_back(x.get());
    else if (!defaultLeaves(x.get(), out))
      return false;
  }
  return true;
}

/// Records the default of Tuple parameter `p` (`size: Tuple[int,
/// int] = (1, 1)`) on its inputs, `sig`'s arguments from `first` on: each
/// takes its element's literal, which the runtime passes when the input is
/// left out. False after an error.
static bool containerDefaults(ModuleLowering &m, OpBuilder &b,
                              const ast::Param &p, EntrySignature &sig,
                              size_t first) {
  std::string written = "'" + exprToString(*p.defaultValue) + "'";
  auto fail = [&](const std::string &message) {
    m.diags.error(p.defaultValue->range, "the default of entry parameter '" +
                                             p.name + "' " + message);
    return false;
  };
  std::vector<const ast::Expr *> literals;
  if (!defaultLeaves(p.defaultValue.get(), literals))
    return fail("must be a tuple of literals (it is annotated '" +
                exprToString(*p.annotation) + "'), got " + written);
  size_t count = sig.argTypes.size() - first;
  if (literals.size() != count)
    return fail("has " + std::to_string(literals.size()) + " elements (" +
                written + "), but its spec gives it " + std::to_string(count));
  for (size_t i = 0; i < count; ++i) {
    Type t = sig.argTypes[first + i];
    std::string leaf =
        sig.argAttrs[first + i].getAs<StringAttr>("kiln.name").str();
    ParamKind kind = t.isInteger(64)  ? ParamKind::Int
                     : t.isF64()      ? ParamKind::Float
                     : t.isInteger(1) ? ParamKind::Bool
                                      : ParamKind::Tensor;
    if (kind == ParamKind::Tensor)
      return fail("gives tensor input '" + leaf + "' a default; only "
                  "scalar elements have one");
    Attribute value = scalarLiteral(b, literals[i], kind);
    if (!value)
      return fail("gives '" + leaf + "' '" + exprToString(*literals[i]) +
                  "', which is not " + expectedLiteral(kind));
    NamedAttrList attrs(sig.argAttrs[first + i]);
    attrs.set("kiln.default", value);
    sig.argAttrs[first + i] = attrs.getDictionary(&m.context);
  }
  return true;
}

/// Types the parameters of entry point `def` from their annotations and
/// `specs`: a tensor, a scalar, or for Optional[Tensor] the tensor plus an
/// i1 "is present" argument; a List or Tuple, its elements. False after an
/// error.
static bool typeEntryParams(ModuleLowering &m, OpBuilder &b,
                            const ast::FunctionDef *def, bool hasSelf,
                            const std::map<std::string, ArgSpec> &specs,
                            EntrySignature &sig) {
  SmallVectorImpl<Type> &argTypes = sig.argTypes;
  SmallVectorImpl<DictionaryAttr> &argAttrs = sig.argAttrs;
  for (const ast::Param &p : def->params) {
    if (hasSelf && &p == &def->params.front())
      continue; // self is the module instance, known at compile time
    bool isStr = p.annotation && resolveGlobalName(m, *p.annotation) == "str";
    auto spec = specs.find(p.name);
    const ArgSpec *given = spec != specs.end() ? &spec->second : nullptr;
    if (given && (given->str || given->runtimeStr) != isStr) {
      m.diags.error(p.range,
                    isStr ? "parameter '" + p.name +
                                "' is a str; give its value as --arg " +
                                p.name + "=str:VALUE, not a shape spec"
                          : "a str spec ('" + printArgSpec(*given) +
                                "') applies to a parameter annotated str, "
                                "and '" + p.name + "' is not");
      return false;
    }
    if (isStr) {
      if (given && given->runtimeStr) {
        m.diags.error(p.range, "str parameter '" + p.name + "' chosen at "
                               "run time needs the values it may take, one "
                               "compiled function each: --arg " + p.name +
                               "=str:A|B|...");
        return false;
      }
      if (!entryString(m, def, p, given, sig.strings))
        return false;
      sig.layouts.push_back({ParamLayout::Kind::Str, {}, {}});
      continue;
    }
    if (std::optional<ContainerAnnotation> c =
            containerAnnotation(m, p.annotation.get())) {
      if (c->isList && p.defaultValue) {
        m.diags.error(p.defaultValue->range,
                      "entry parameter '" + p.name + "' is a list, whose "
                      "default would be mutable, shared by every call; "
                      "TorchScript refuses it too: annotate it as a "
                      "Tuple[T, ...] with a tuple default");
        return false;
      }
      // A Tuple[T, ...] of scalars with a default and no spec has the
      // default's length.
      ArgSpec fromDefault;
      if (!given && p.defaultValue && c->variadic) {
        std::vector<const ast::Expr *> literals;
        ParamKind k = classifyAnnotation(m, c->elems.front());
        if (k != ParamKind::Tensor && k != ParamKind::OptionalTensor &&
            defaultLeaves(p.defaultValue.get(), literals)) {
          fromDefault.isContainer = true;
          fromDefault.elems.assign(literals.size(), ArgSpec());
          for (ArgSpec &e : fromDefault.elems)
            e.scalar = k == ParamKind::Int     ? "int"
                       : k == ParamKind::Float ? "float"
                                               : "bool";
          given = &fromDefault;
        }
      }
      ParamLayout layout;
      SmallVector<Attribute> leaves;
      size_t first = sig.argTypes.size();
      if (!typeContainer(m, b, def, p, p.name, *p.annotation, *c, given, sig,
                         layout, leaves) ||
          (p.defaultValue && !containerDefaults(m, b, p, sig, first)))
        return false;
      sig.layouts.push_back(std::move(layout));
      sig.containers.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("name", b.getStringAttr(p.name)),
           b.getNamedAttr("type",
                          b.getStringAttr(exprToString(*p.annotation))),
           b.getNamedAttr("args", b.getArrayAttr(leaves))}));
      continue;
    }
    sig.layouts.emplace_back();
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
                      "Optional of each, str, and Lists and Tuples of "
                      "Tensor, int, float and bool");
      return false;
    case ParamKind::Int:
    case ParamKind::Float:
    case ParamKind::Bool:
      if (given) {
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
      if (!given) {
        m.diags.error(p.range, "no shape for tensor argument '" + p.name +
                                 "' of '" + def->name + "'; pass --arg " +
                                 specExample(p.name) +
                                 " or write '# kiln: " + specExample(p.name) +
                                 "' on the line above the def");
        return false;
      }
      if (given->optional && kind == ParamKind::Tensor) {
        m.diags.error(p.range, "the shape spec of '" + p.name +
                                 "' ends in '?', but '" + p.name +
                                 "' is not annotated Optional[Tensor]");
        return false;
      }
      Type t = tensorArgType(m, b, p.range, p.name, *given, attrs);
      if (!t)
        return false;
      argTypes.push_back(t);
      if (kind == ParamKind::OptionalTensor)
        addPresenceFlag();
      break;
    }
    }
    argAttrs.push_back(b.getDictionaryAttr(attrs));
  }
  return true;
}

std::vector<std::string> strChoices(const ArgSpec &spec) {
  std::vector<std::string> choices;
  if (!spec.str || spec.str->find('|') == std::string::npos)
    return choices;
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(*spec.str).split(parts, '|');
  for (llvm::StringRef part : parts)
    if (!llvm::is_contained(choices, part.str()))
      choices.push_back(part.str());
  return choices;
}

bool ModuleLowering::lowerEntry(const ast::FunctionDef *def,
                                const ModuleObject *self) {
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

  // A str chosen at run time among values (`mode=str:relu|gelu`).
  for (const ast::Param &p : def->params)
    if (auto it = specs.find(p.name); it != specs.end())
      if (std::vector<std::string> choices = strChoices(it->second);
          !choices.empty())
        return lowerStrChoiceEntry(*this, def, self, specs, p, choices);
  return static_cast<bool>(
      lowerEntryFunction(*this, def, self, specs, def->name));
}

func::FuncOp lowerEntryFunction(ModuleLowering &m, const ast::FunctionDef *def,
                                const ModuleObject *self,
                                const std::map<std::string, ArgSpec> &specs,
                                const std::string &name) {
  OpBuilder b(&m.context);
  EntrySignature sig;
  if (!typeEntryParams(m, b, def, self != nullptr, specs, sig))
    return {};

  b.setInsertionPointToEnd(m.module.getBody());
  auto fnLoc = FileLineColLoc::get(m.fileName, def->range.begin.line,
                                   def->range.begin.col);
  auto func = b.create<func::FuncOp>(fnLoc, name,
                                     b.getFunctionType(sig.argTypes, {}));
  func.setAllArgAttrs(sig.argAttrs);
  func->setAttr("kiln.entry", b.getUnitAttr());
  if (!sig.containers.empty())
    func->setAttr("kiln.containers", b.getArrayAttr(sig.containers));
  Block *entry = func.addEntryBlock();
  OpBuilder fb(&m.context);
  fb.setInsertionPointToStart(entry);
  FunctionLowering fl(m, fb);

  std::vector<PyValue> params;
  if (self)
    params.push_back(PyValue::ofObject(self));
  // Each parameter in order: a str is the constant it was compiled for,
  // the rest take the arguments in turn.
  unsigned next = 0;
  const ast::Param *param = nullptr;
  std::function<std::optional<PyValue>(const ParamLayout &)> build =
      [&](const ParamLayout &layout) -> std::optional<PyValue> {
    if (layout.kind == ParamLayout::Kind::Str)
      return PyValue::ofStr(sig.strings[param->name]);
    if (layout.kind == ParamLayout::Kind::Leaf) {
      BlockArgument arg = entry->getArgument(next++);
      if (next < entry->getNumArguments() &&
          func.getArgAttr(next, "kiln.presence")) {
        // The value before it and this flag are one Optional.
        return PyValue::optional(entry->getArgument(next++), arg);
      }
      return PyValue::ofValue(arg);
    }
    std::vector<PyValue> elems;
    for (const ParamLayout &e : layout.elems) {
      std::optional<PyValue> v = build(e);
      if (!v)
        return std::nullopt;
      elems.push_back(std::move(*v));
    }
    if (layout.kind == ParamLayout::Kind::Tuple)
      return PyValue::tuple(std::move(elems));
    return entryList(fl, *param, std::move(elems), layout.emptyElement);
  };
  size_t index = 0;
  for (const ast::Param &p : def->params) {
    if (self && &p == &def->params.front())
      continue;
    param = &p;
    std::optional<PyValue> v = build(sig.layouts[index++]);
    if (!v)
      return {};
    params.push_back(std::move(*v));
  }
  if (!sig.strings.empty()) {
    SmallVector<NamedAttribute> fixed;
    for (const auto &[strName, value] : sig.strings)
      fixed.push_back(b.getNamedAttr(strName, b.getStringAttr(value)));
    func->setAttr("kiln.strings", b.getDictionaryAttr(fixed));
  }
  m.inProgress.insert({def, self});
  std::optional<PyValue> result = fl.lowerBody(*def, std::move(params));
  m.inProgress.erase({def, self});
  if (!result)
    return {};
  m.resultShapes[name] = *result;
  std::string key = name + "(";
  for (Type t : sig.argTypes) {
    llvm::raw_string_ostream os(key);
    os << t << ",";
  }
  m.specializations[key] = func;
  return func;
}

} // namespace kiln
