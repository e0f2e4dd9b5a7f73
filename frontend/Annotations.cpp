//===- Annotations.cpp - What type annotations mean to the lowering -------===//
//
// An entry point's parameter annotations pick its argument types (a tensor
// unless annotated int, float or bool, as in TorchScript; Optional[Tensor],
// `Tensor | None` and Union[Tensor, None] make an input the caller may
// leave out).
//
// A result is checked against its `->` annotation. TorchScript rejects a
// function whose result does not have the type its
// `->` annotation names (`-> int` returning a Tensor, `-> Tensor` returning
// 3 or nothing). Without the check kiln would compile a function whose
// signature lies to its callers, so the annotation is checked here, once
// the whole body is lowered and the result is known. Annotations kiln does
// not model (List[T], Dict, user classes) are left to the value's own
// uses; every form it does model is checked exactly.
//
//===----------------------------------------------------------------------===//

#include "frontend/AstPrinter.h"
#include "frontend/EntryPoints.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace kiln {

bool namesTyping(const std::string &resolved, llvm::StringRef name) {
  return resolved == name || resolved == ("typing." + name).str() ||
         (name == "Tuple" && resolved == "tuple") ||
         (name == "List" && resolved == "list");
}

namespace {

enum class Match { Yes, No, Unchecked };

Match matchAnnotation(ModuleLowering &m, const ast::Expr &ann,
                      const PyValue &value);

Match matchAll(bool all) { return all ? Match::Yes : Match::No; }

Match matchSubscript(ModuleLowering &m, const ast::SubscriptExpr &sub,
                     const PyValue &value) {
  std::string head = resolveGlobalName(m, *sub.value);
  std::vector<const ast::Expr *> args;
  for (const ast::ExprPtr &index : sub.indices) {
    if (auto *tuple = llvm::dyn_cast<ast::TupleExpr>(index.get()))
      for (const ast::ExprPtr &elt : tuple->elts)
        args.push_back(elt.get());
    else
      args.push_back(index.get());
  }
  if (namesTyping(head, "Optional") && args.size() == 1) {
    if (value.isOptional())
      return matchAnnotation(m, *args[0], PyValue::ofValue(value.payload()));
    return value.isNone() ? Match::Yes : matchAnnotation(m, *args[0], value);
  }
  if (namesTyping(head, "Tuple")) {
    if (value.kind != PyValue::Kind::Tuple || value.elems.size() != args.size())
      return Match::No;
    Match result = Match::Yes;
    for (size_t i = 0; i < args.size(); ++i) {
      Match element = matchAnnotation(m, *args[i], value.elems[i]);
      if (element == Match::No)
        return Match::No;
      if (element == Match::Unchecked)
        result = Match::Unchecked;
    }
    return result;
  }
  if (namesTyping(head, "List")) {
    // A list is a !kiln.list value or, for a literal of fixed length, may
    // still be a tuple of values; only a scalar, tensor or None is surely
    // not a list.
    if (value.isNone())
      return Match::No;
    if (value.isValue() && (isa<RankedTensorType>(value.value.getType()) ||
                            value.value.getType().isIntOrFloat()))
      return Match::No;
    return Match::Unchecked;
  }
  return Match::Unchecked;
}

Match matchAnnotation(ModuleLowering &m, const ast::Expr &ann,
                      const PyValue &value) {
  if (llvm::isa<ast::NoneLitExpr>(ann))
    return matchAll(value.isNone());
  if (auto *sub = llvm::dyn_cast<ast::SubscriptExpr>(&ann))
    return matchSubscript(m, *sub, value);
  std::string name = resolveGlobalName(m, ann);
  Type type = value.isValue() ? value.value.getType() : Type();
  if (name == "torch.Tensor" || name == "Tensor" || name == "typing.Tensor")
    return matchAll(type && isa<RankedTensorType>(type));
  if (name == "int")
    return matchAll(type && type.isInteger(64));
  if (name == "float")
    return matchAll(type && type.isF64());
  if (name == "bool")
    return matchAll(type && type.isInteger(1));
  if (name == "str")
    return matchAll(value.kind == PyValue::Kind::Str);
  if (name == "None")
    return matchAll(value.isNone());
  return Match::Unchecked;
}

} // namespace

const ast::Expr *optionalPayload(ModuleLowering &m,
                                 const ast::Expr *annotation) {
  if (!annotation)
    return nullptr;
  auto other = [](const ast::Expr *a, const ast::Expr *b) -> const ast::Expr * {
    bool aNone = llvm::isa<ast::NoneLitExpr>(*a);
    bool bNone = llvm::isa<ast::NoneLitExpr>(*b);
    return aNone == bNone ? nullptr : aNone ? b : a;
  };
  if (auto *bin = llvm::dyn_cast<ast::BinOpExpr>(annotation))
    return bin->op == ast::BinOpKind::BitOr
               ? other(bin->lhs.get(), bin->rhs.get())
               : nullptr;
  auto *sub = llvm::dyn_cast<ast::SubscriptExpr>(annotation);
  if (!sub)
    return nullptr;
  std::vector<const ast::Expr *> args;
  for (const ast::ExprPtr &index : sub->indices) {
    if (auto *tuple = llvm::dyn_cast<ast::TupleExpr>(index.get()))
      for (const ast::ExprPtr &elt : tuple->elts)
        args.push_back(elt.get());
    else
      args.push_back(index.get());
  }
  std::string head = resolveGlobalName(m, *sub->value);
  if (namesTyping(head, "Optional") && args.size() == 1)
    return args[0];
  if (namesTyping(head, "Union") && args.size() == 2)
    return other(args[0], args[1]);
  return nullptr;
}

/// Whether `e` is `Optional[Tensor]`, `Union[Tensor, None]` (either order)
/// or `Tensor | None` (either order), all one type to TorchScript.
static bool isOptionalTensor(ModuleLowering &m, const ast::Expr &e) {
  const ast::Expr *payload = optionalPayload(m, &e);
  return payload && classifyAnnotation(m, payload) == ParamKind::Tensor;
}

bool acceptsNone(ModuleLowering &m, const ast::Param &p) {
  if (p.defaultValue && llvm::isa<ast::NoneLitExpr>(*p.defaultValue))
    return true;
  if (!p.annotation)
    return false;
  if (llvm::isa<ast::NoneLitExpr>(*p.annotation) ||
      isOptionalTensor(m, *p.annotation))
    return true;
  auto *sub = llvm::dyn_cast<ast::SubscriptExpr>(p.annotation.get());
  return sub && namesTyping(resolveGlobalName(m, *sub->value), "Optional");
}

ParamKind classifyAnnotation(ModuleLowering &m, const ast::Expr *annotation) {
  if (!annotation)
    return ParamKind::Tensor; // TorchScript's default
  if (isOptionalTensor(m, *annotation))
    return ParamKind::OptionalTensor;
  std::string resolved = resolveGlobalName(m, *annotation);
  if (resolved == "torch.Tensor" || resolved == "Tensor")
    return ParamKind::Tensor;
  if (resolved == "int")
    return ParamKind::Int;
  if (resolved == "float")
    return ParamKind::Float;
  if (resolved == "bool")
    return ParamKind::Bool;
  return ParamKind::Unsupported;
}

bool FunctionLowering::checkReturnAnnotation(
    const ast::FunctionDef &fn, const PyValue &result,
    std::optional<SourceRange> returnRange) {
  if (!fn.returns || matchAnnotation(module, *fn.returns, result) != Match::No)
    return true;
  std::string annotated = exprToString(*fn.returns);
  DiagnosticNote note{fn.returns->range, "the annotation is here"};
  if (!returnRange)
    return error(fn.nameRange,
                 "'" + fn.name + "' is annotated to return " + annotated +
                     ", but has no return statement",
                 {note});
  return error(*returnRange,
               "'" + fn.name + "' is annotated to return " + annotated +
                   ", but returns " + describe(result),
               {note});
}

} // namespace kiln
