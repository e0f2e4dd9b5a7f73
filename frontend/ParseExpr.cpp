//===- ParseExpr.cpp - Expression parsing ---------------------------------===//
//
// Recursive descent following Python's grammar, lowest precedence first:
// ifexp < or < and < not < comparison < | < ^ < & < shifts < + - < * @ / // %
// < unary < ** < await < primary < atom.
//
//===----------------------------------------------------------------------===//
#include "frontend/ParserImpl.h"

#include <set>

namespace kiln::detail {

using namespace ast;

Parser::Parser(const SourceFile &file) : file(file) {
  toks = tokenize(file, &specs);
}

/// The tallest child of `e`; 0 for a leaf.
static uint32_t childHeight(const Expr &e) {
  uint32_t h = 0;
  auto see = [&](const ExprPtr &child) {
    if (child)
      h = std::max(h, child->height);
  };
  auto seeAll = [&](const std::vector<ExprPtr> &children) {
    for (const ExprPtr &child : children)
      see(child);
  };
  if (auto *t = llvm::dyn_cast<TupleExpr>(&e)) {
    seeAll(t->elts);
  } else if (auto *l = llvm::dyn_cast<ListExpr>(&e)) {
    seeAll(l->elts);
  } else if (auto *c = llvm::dyn_cast<ListCompExpr>(&e)) {
    see(c->elt);
    for (const CompFor &f : c->fors) {
      see(f.target), see(f.iter);
      seeAll(f.conds);
    }
  } else if (auto *d = llvm::dyn_cast<DictExpr>(&e)) {
    seeAll(d->keys);
    seeAll(d->values);
  } else if (auto *b = llvm::dyn_cast<BinOpExpr>(&e)) {
    see(b->lhs), see(b->rhs);
  } else if (auto *u = llvm::dyn_cast<UnaryOpExpr>(&e)) {
    see(u->operand);
  } else if (auto *bo = llvm::dyn_cast<BoolOpExpr>(&e)) {
    see(bo->lhs), see(bo->rhs);
  } else if (auto *cmp = llvm::dyn_cast<CompareExpr>(&e)) {
    seeAll(cmp->operands);
  } else if (auto *i = llvm::dyn_cast<IfExpExpr>(&e)) {
    see(i->test), see(i->body), see(i->orelse);
  } else if (auto *call = llvm::dyn_cast<CallExpr>(&e)) {
    see(call->func);
    seeAll(call->args);
    for (const Keyword &k : call->keywords)
      see(k.value);
  } else if (auto *a = llvm::dyn_cast<AttributeExpr>(&e)) {
    see(a->value);
  } else if (auto *s = llvm::dyn_cast<SubscriptExpr>(&e)) {
    see(s->value);
    seeAll(s->indices);
  } else if (auto *sl = llvm::dyn_cast<SliceExpr>(&e)) {
    see(sl->lower), see(sl->upper), see(sl->step);
  } else if (auto *f = llvm::dyn_cast<FStringExpr>(&e)) {
    for (const FStringExpr::Part &part : f->parts)
      see(part.expr);
  }
  return h;
}

ExprPtr Parser::bounded(ExprPtr e) {
  e->height = childHeight(*e) + 1;
  if (e->height > kMaxExprHeight)
    return failAtCur("expression is nested too deeply");
  return e;
}

bool Parser::canStartExpr(const Token &t) const {
  switch (t.kind) {
  case TokenKind::Int:
  case TokenKind::Float:
  case TokenKind::String:
  case TokenKind::Error:
    return true;
  case TokenKind::Name:
    if (!t.isKeyword())
      return true;
    for (const char *kw :
         {"True", "False", "None", "not", "lambda", "await", "yield"})
      if (t.text == kw)
        return true;
    return false;
  case TokenKind::Op:
    for (const char *op : {"(", "[", "{", "-", "+", "~", "...", "*", "**"})
      if (t.text == op)
        return true;
    return false;
  default:
    return false;
  }
}

ExprPtr Parser::parseNamedTest() {
  ExprPtr e = parseTest();
  if (e && atOp(":="))
    return fail(cur().range, "assignment expression ':=' is not supported");
  return e;
}

ExprPtr Parser::parseTest() {
  DepthGuard guard(*this);
  if (!guard.ok)
    return nullptr;
  if (atKw("lambda"))
    return fail(cur().range, "lambda is not supported");
  ExprPtr body = parseOrTest();
  if (!body || !atKw("if"))
    return body;
  next();
  ExprPtr test = parseOrTest();
  if (!test)
    return nullptr;
  if (!atKw("else"))
    return failAtCur("expected 'else' in conditional expression");
  next();
  ExprPtr orelse = parseTest();
  if (!orelse)
    return nullptr;
  SourceRange r = SourceRange::cover(body->range, orelse->range);
  return make<IfExpExpr>(r, std::move(test), std::move(body),
                         std::move(orelse));
}

ExprPtr Parser::parseBoolChain(const char *keyword, BoolOpKind kind,
                               ExprPtr (Parser::*operand)()) {
  ExprPtr lhs = (this->*operand)();
  while (lhs && atKw(keyword)) {
    next();
    ExprPtr rhs = (this->*operand)();
    if (!rhs)
      return nullptr;
    SourceRange r = SourceRange::cover(lhs->range, rhs->range);
    lhs = make<BoolOpExpr>(r, kind, std::move(lhs), std::move(rhs));
  }
  return lhs;
}

ExprPtr Parser::parseOrTest() {
  return parseBoolChain("or", BoolOpKind::Or, &Parser::parseAndTest);
}

ExprPtr Parser::parseAndTest() {
  return parseBoolChain("and", BoolOpKind::And, &Parser::parseNotTest);
}

ExprPtr Parser::parseNotTest() {
  if (!atKw("not"))
    return parseComparison();
  DepthGuard guard(*this);
  if (!guard.ok)
    return nullptr;
  SourceLoc begin = cur().range.begin;
  next();
  ExprPtr operand = parseNotTest();
  if (!operand)
    return nullptr;
  return make<UnaryOpExpr>(from(begin), UnaryOpKind::Not, std::move(operand));
}

ExprPtr Parser::parseComparison() {
  ExprPtr first = parseBitOr();
  if (!first)
    return nullptr;
  std::vector<CmpOpKind> ops;
  std::vector<ExprPtr> operands;
  SourceLoc begin = first->range.begin;
  operands.push_back(std::move(first));
  while (true) {
    const Token &t = cur();
    std::optional<CmpOpKind> op;
    if (t.isOp("<"))
      op = CmpOpKind::Lt;
    else if (t.isOp("<="))
      op = CmpOpKind::Le;
    else if (t.isOp(">"))
      op = CmpOpKind::Gt;
    else if (t.isOp(">="))
      op = CmpOpKind::Ge;
    else if (t.isOp("=="))
      op = CmpOpKind::Eq;
    else if (t.isOp("!="))
      op = CmpOpKind::Ne;
    else if (t.isName("in"))
      op = CmpOpKind::In;
    else if (t.isName("not") && ahead(1).isName("in")) {
      op = CmpOpKind::NotIn;
      next();
    } else if (t.isName("is")) {
      op = CmpOpKind::Is;
      if (ahead(1).isName("not")) {
        op = CmpOpKind::IsNot;
        next();
      }
    }
    if (!op)
      break;
    if (ops.size() >= kMaxExprHeight)
      return failAtCur("expression is nested too deeply");
    next();
    ExprPtr rhs = parseBitOr();
    if (!rhs)
      return nullptr;
    ops.push_back(*op);
    operands.push_back(std::move(rhs));
  }
  if (ops.empty())
    return std::move(operands[0]);
  return make<CompareExpr>(from(begin), std::move(ops), std::move(operands));
}

namespace {
struct BinOpSpelling {
  const char *text;
  BinOpKind kind;
};
} // namespace

/// One left-associative precedence level.
template <typename Next>
static ExprPtr parseBinaryLevel(Parser &p,
                                std::initializer_list<BinOpSpelling> ops,
                                Next next) {
  ExprPtr lhs = next();
  while (lhs) {
    const BinOpSpelling *match = nullptr;
    for (const BinOpSpelling &op : ops)
      if (p.cur().isOp(op.text))
        match = &op;
    if (!match)
      break;
    SourceRange opRange = p.cur().range;
    p.next();
    ExprPtr rhs = next();
    if (!rhs)
      return nullptr;
    SourceRange r = SourceRange::cover(lhs->range, rhs->range);
    lhs = p.make<BinOpExpr>(r, match->kind, std::move(lhs), std::move(rhs),
                            opRange);
  }
  return lhs;
}

ExprPtr Parser::parseBitOr() {
  return parseBinaryLevel(*this, {{"|", BinOpKind::BitOr}},
                          [&] { return parseBitXor(); });
}
ExprPtr Parser::parseBitXor() {
  return parseBinaryLevel(*this, {{"^", BinOpKind::BitXor}},
                          [&] { return parseBitAnd(); });
}
ExprPtr Parser::parseBitAnd() {
  return parseBinaryLevel(*this, {{"&", BinOpKind::BitAnd}},
                          [&] { return parseShift(); });
}
ExprPtr Parser::parseShift() {
  return parseBinaryLevel(
      *this, {{"<<", BinOpKind::LShift}, {">>", BinOpKind::RShift}},
      [&] { return parseArith(); });
}
ExprPtr Parser::parseArith() {
  return parseBinaryLevel(*this, {{"+", BinOpKind::Add}, {"-", BinOpKind::Sub}},
                          [&] { return parseTerm(); });
}
ExprPtr Parser::parseTerm() {
  return parseBinaryLevel(*this,
                          {{"*", BinOpKind::Mul},
                           {"@", BinOpKind::MatMul},
                           {"/", BinOpKind::Div},
                           {"//", BinOpKind::FloorDiv},
                           {"%", BinOpKind::Mod}},
                          [&] { return parseFactor(); });
}

ExprPtr Parser::parseFactor() {
  std::optional<UnaryOpKind> op;
  if (atOp("-"))
    op = UnaryOpKind::Neg;
  else if (atOp("+"))
    op = UnaryOpKind::Pos;
  else if (atOp("~"))
    op = UnaryOpKind::Invert;
  if (!op)
    return parsePower();
  DepthGuard guard(*this);
  if (!guard.ok)
    return nullptr;
  SourceLoc begin = cur().range.begin;
  next();
  ExprPtr operand = parseFactor();
  if (!operand)
    return nullptr;
  return make<UnaryOpExpr>(from(begin), *op, std::move(operand));
}

ExprPtr Parser::parsePower() {
  ExprPtr base = parsePrimary();
  if (!base || !atOp("**"))
    return base;
  DepthGuard guard(*this);
  if (!guard.ok)
    return nullptr;
  SourceRange opRange = cur().range;
  next();
  // The exponent is a factor, so `2 ** -1` works and `**` is right
  // associative.
  ExprPtr exp = parseFactor();
  if (!exp)
    return nullptr;
  SourceRange r = SourceRange::cover(base->range, exp->range);
  return make<BinOpExpr>(r, BinOpKind::Pow, std::move(base), std::move(exp),
                         opRange);
}

ExprPtr Parser::parsePrimary() {
  if (atKw("await"))
    return fail(cur().range, "await is not supported");
  ExprPtr e = parseAtom();
  while (e) {
    if (atOp("(")) {
      e = parseCall(std::move(e));
    } else if (atOp("[")) {
      e = parseSubscript(std::move(e));
    } else if (atOp(".")) {
      next();
      if (!cur().is(TokenKind::Name) || cur().isKeyword())
        return failAtCur("expected an attribute name after '.'");
      SourceRange attrRange = cur().range;
      std::string attr = cur().text;
      next();
      SourceRange r = SourceRange::cover(e->range, attrRange);
      e = make<AttributeExpr>(r, std::move(e), std::move(attr), attrRange);
    } else {
      break;
    }
  }
  return e;
}

ExprPtr Parser::parseCall(ExprPtr func) {
  next(); // (
  std::vector<ExprPtr> args;
  std::vector<Keyword> keywords;
  std::set<std::string> seen;
  while (!atOp(")")) {
    if (atOp("*"))
      return fail(SourceRange::cover(cur().range, ahead(1).range),
                  "*args is not supported");
    if (atOp("**"))
      return fail(SourceRange::cover(cur().range, ahead(1).range),
                  "**kwargs is not supported");
    if (cur().is(TokenKind::Name) && !cur().isKeyword() && ahead(1).isOp("=")) {
      SourceLoc begin = cur().range.begin;
      std::string name = cur().text;
      SourceRange nameRange = cur().range;
      next();
      next();
      ExprPtr value = parseTest();
      if (!value)
        return nullptr;
      if (!seen.insert(name).second)
        return fail(nameRange, "keyword argument '" + name + "' repeated");
      keywords.push_back({std::move(name), std::move(value), from(begin)});
    } else {
      ExprPtr arg = parseNamedTest();
      if (!arg)
        return nullptr;
      // `sum(d for d in s)`: a generator as the only argument.
      if (atKw("for")) {
        if (!args.empty() || !keywords.empty())
          return fail(cur().range, "a generator expression must be "
                                   "parenthesized unless it is the only "
                                   "argument");
        SourceLoc at = arg->range.begin;
        arg = parseComprehension(at, std::move(arg));
        if (!arg)
          return nullptr;
        if (!atOp(")"))
          return fail(cur().range, "a generator expression must be "
                                   "parenthesized unless it is the only "
                                   "argument");
      }
      if (!keywords.empty())
        return fail(arg->range, "positional argument follows keyword argument");
      args.push_back(std::move(arg));
    }
    if (!acceptOp(","))
      break;
  }
  if (!expectOp(")"))
    return nullptr;
  SourceRange r = from(func->range.begin);
  return make<CallExpr>(r, std::move(func), std::move(args),
                        std::move(keywords));
}

ExprPtr Parser::parseSubscriptIndex() {
  SourceLoc begin = cur().range.begin;
  if (atOp("*"))
    return fail(cur().range, "starred expression is not supported");
  ExprPtr lower;
  if (!atOp(":")) {
    lower = parseNamedTest();
    if (!lower || !atOp(":"))
      return lower;
  }
  next(); // :
  auto part = [&]() -> ExprPtr {
    if (atOp(":") || atOp(",") || atOp("]"))
      return nullptr;
    return parseTest();
  };
  ExprPtr upper = part();
  if (failed())
    return nullptr;
  ExprPtr step;
  if (acceptOp(":")) {
    step = part();
    if (failed())
      return nullptr;
  }
  return make<SliceExpr>(from(begin), std::move(lower), std::move(upper),
                         std::move(step));
}

ExprPtr Parser::parseSubscript(ExprPtr value) {
  next(); // [
  std::vector<ExprPtr> indices;
  if (atOp("]"))
    return failAtCur("expected an expression");
  while (!atOp("]")) {
    ExprPtr index = parseSubscriptIndex();
    if (!index)
      return nullptr;
    indices.push_back(std::move(index));
    if (!acceptOp(","))
      break;
  }
  if (!expectOp("]"))
    return nullptr;
  SourceRange r = from(value->range.begin);
  return make<SubscriptExpr>(r, std::move(value), std::move(indices));
}

ExprPtr Parser::parseStrings() {
  SourceLoc begin = cur().range.begin;
  std::string value;
  // Literals next to an f-string are literal parts of it.
  std::vector<FStringExpr::Part> parts;
  bool isF = false;
  while (cur().is(TokenKind::String)) {
    const Token &t = cur();
    if (t.stringPrefix.find('b') != std::string::npos)
      return fail(t.range, "bytes literal is not supported");
    if (t.stringPrefix.find('f') != std::string::npos) {
      isF = true;
      if (!value.empty())
        parts.push_back({std::move(value), nullptr, 0, ""});
      value.clear();
      if (!parseFStringToken(t, parts))
        return nullptr;
    } else {
      value += t.text;
    }
    next();
  }
  if (!isF)
    return make<StrLitExpr>(from(begin), std::move(value));
  if (!value.empty())
    parts.push_back({std::move(value), nullptr, 0, ""});
  return make<FStringExpr>(from(begin), std::move(parts));
}

ExprPtr Parser::parseAtom() {
  const Token &t = cur();
  SourceRange r = t.range;
  switch (t.kind) {
  case TokenKind::Int: {
    int64_t v = t.intValue;
    next();
    return make<IntLitExpr>(r, v);
  }
  case TokenKind::Float: {
    double v = t.floatValue;
    next();
    return make<FloatLitExpr>(r, v);
  }
  case TokenKind::String:
    return parseStrings();
  case TokenKind::Name:
    if (t.text == "True" || t.text == "False") {
      bool v = t.text == "True";
      next();
      return make<BoolLitExpr>(r, v);
    }
    if (t.text == "None") {
      next();
      return make<NoneLitExpr>(r);
    }
    if (t.text == "yield")
      return fail(r, "yield is not supported");
    if (t.text == "lambda")
      return fail(r, "lambda is not supported");
    if (t.text == "await")
      return fail(r, "await is not supported");
    if (t.isKeyword())
      return fail(r, "expected an expression");
    {
      std::string id = t.text;
      next();
      return make<NameExpr>(r, std::move(id));
    }
  case TokenKind::Op:
    if (t.text == "(")
      return parseParenOrTuple();
    if (t.text == "[")
      return parseListDisplay();
    if (t.text == "{")
      return parseBraceDisplay();
    if (t.text == "...") {
      next();
      return make<EllipsisLitExpr>(r);
    }
    if (t.text == "*")
      return fail(r, "starred expression is not supported");
    return fail(r, "expected an expression");
  default:
    return failAtCur("expected an expression");
  }
}

ExprPtr Parser::parseParenOrTuple() {
  SourceLoc begin = cur().range.begin;
  next(); // (
  std::vector<ExprPtr> elts;
  if (acceptOp(")"))
    return make<TupleExpr>(from(begin), std::move(elts));
  ExprPtr first = parseNamedTest();
  if (!first)
    return nullptr;
  if (atKw("for")) {
    ExprPtr comp = parseComprehension(begin, std::move(first));
    if (!comp || !expectOp(")"))
      return nullptr;
    comp->range = from(begin);
    return comp;
  }
  if (!atOp(",")) {
    if (!expectOp(")"))
      return nullptr;
    return first;
  }
  elts.push_back(std::move(first));
  if (!parseMoreElements(")", elts))
    return nullptr;
  return make<TupleExpr>(from(begin), std::move(elts));
}

bool Parser::parseMoreElements(const char *closer, std::vector<ExprPtr> &elts) {
  while (acceptOp(",")) {
    if (atOp(closer))
      break; // a trailing comma
    ExprPtr e = parseNamedTest();
    if (!e)
      return false;
    elts.push_back(std::move(e));
  }
  return expectOp(closer);
}

ExprPtr Parser::parseListDisplay() {
  SourceLoc begin = cur().range.begin;
  next(); // [
  std::vector<ExprPtr> elts;
  if (acceptOp("]"))
    return make<ListExpr>(from(begin), std::move(elts));
  ExprPtr first = parseNamedTest();
  if (!first)
    return nullptr;
  if (atKw("async"))
    return fail(cur().range, "async is not supported");
  if (atKw("for")) {
    ExprPtr comp = parseComprehension(begin, std::move(first));
    if (!comp || !expectOp("]"))
      return nullptr;
    comp->range = from(begin);
    return comp;
  }
  elts.push_back(std::move(first));
  if (!parseMoreElements("]", elts))
    return nullptr;
  return make<ListExpr>(from(begin), std::move(elts));
}

ExprPtr Parser::parseComprehension(SourceLoc begin, ExprPtr elt) {
  std::vector<CompFor> fors;
  while (atKw("for")) {
    next(); // for
    CompFor f;
    f.target = parseExprList();
    if (!f.target || !checkTarget(*f.target))
      return nullptr;
    if (!atKw("in"))
      return failAtCur("expected 'in'");
    next();
    f.iter = parseOrTest();
    if (!f.iter)
      return nullptr;
    while (atKw("if")) {
      next();
      // As in CPython's grammar: a filter is an or_test, so a conditional
      // expression there needs parentheses.
      ExprPtr c = parseOrTest();
      if (!c)
        return nullptr;
      f.conds.push_back(std::move(c));
    }
    fors.push_back(std::move(f));
  }
  if (atKw("async"))
    return fail(cur().range, "async is not supported");
  return make<ListCompExpr>(from(begin), std::move(elt), std::move(fors));
}

ExprPtr Parser::parseBraceDisplay() {
  SourceLoc begin = cur().range.begin;
  if (!toks[pos + 1].isOp("**")) {
    // A dict display, `{k: v, ...}`; a set or a comprehension is refused
    // below, blaming the whole display.
    size_t start = pos;
    next(); // {
    std::vector<ExprPtr> keys, values;
    bool isDict = true;
    while (!atOp("}") && !atOp("**")) {
      ExprPtr k = parseTest();
      if (!k)
        return nullptr;
      if (!atOp(":")) {
        isDict = false;
        break;
      }
      next();
      ExprPtr v = parseTest();
      if (!v)
        return nullptr;
      if (atKw("for") || atKw("async"))
        break;
      keys.push_back(std::move(k));
      values.push_back(std::move(v));
      if (!acceptOp(","))
        break;
    }
    if (isDict && atOp("}")) {
      next();
      return make<DictExpr>(from(begin), std::move(keys), std::move(values));
    }
    if (isDict && !atOp("**") && !atKw("for") && !atKw("async"))
      return failAtCur("expected ',' or '}' in a dict display");
    pos = start;
  }
  // Neither sets nor comprehensions are in the subset; look ahead only far
  // enough to name the right one and blame the whole display.
  size_t i = pos + 1;
  bool isDict = toks[i].isOp("}") || toks[i].isOp("**");
  bool isComp = false;
  int nesting = 0;
  SourceRange r = cur().range;
  for (; i < toks.size() && !toks[i].is(TokenKind::EndOfFile); ++i) {
    const Token &t = toks[i];
    if (t.isOp("(") || t.isOp("[") || t.isOp("{")) {
      ++nesting;
    } else if (t.isOp(")") || t.isOp("]") || t.isOp("}")) {
      if (nesting-- == 0) {
        r = SourceRange::cover(r, t.range);
        break;
      }
    } else if (nesting == 0 && t.isOp(":")) {
      isDict = true;
    } else if (nesting == 0 && t.isOp("**")) {
      isDict = true;
    } else if (nesting == 0 && t.isName("for")) {
      isComp = true;
    }
  }
  if (isDict)
    return fail(r, isComp ? "dict comprehension is not supported"
                          : "dict unpacking '**' is not supported");
  return fail(r, "set display is not supported");
}

ExprPtr Parser::parseTestList(const char *starMessage) {
  if (atOp("*"))
    return fail(cur().range, starMessage);
  ExprPtr first = parseTest();
  if (!first || !atOp(","))
    return first;
  SourceLoc begin = first->range.begin;
  std::vector<ExprPtr> elts;
  elts.push_back(std::move(first));
  while (acceptOp(",")) {
    if (!canStartExpr(cur()))
      break;
    if (atOp("*"))
      return fail(cur().range, starMessage);
    ExprPtr e = parseTest();
    if (!e)
      return nullptr;
    elts.push_back(std::move(e));
  }
  return make<TupleExpr>(from(begin), std::move(elts));
}

ExprPtr Parser::parseExprList() {
  if (atOp("*"))
    return fail(cur().range, "starred assignment is not supported");
  ExprPtr first = parseBitOr();
  if (!first || !atOp(","))
    return first;
  SourceLoc begin = first->range.begin;
  std::vector<ExprPtr> elts;
  elts.push_back(std::move(first));
  while (acceptOp(",")) {
    if (!canStartExpr(cur()))
      break;
    if (atOp("*"))
      return fail(cur().range, "starred assignment is not supported");
    ExprPtr e = parseBitOr();
    if (!e)
      return nullptr;
    elts.push_back(std::move(e));
  }
  return make<TupleExpr>(from(begin), std::move(elts));
}

bool Parser::checkTarget(const Expr &e) {
  const char *what = nullptr;
  switch (e.kind) {
  case Expr::Kind::Name:
  case Expr::Kind::Attribute:
  case Expr::Kind::Subscript:
    return true;
  case Expr::Kind::Tuple:
    for (const ExprPtr &elt : llvm::cast<TupleExpr>(e).elts)
      if (!checkTarget(*elt))
        return false;
    return true;
  case Expr::Kind::List:
    for (const ExprPtr &elt : llvm::cast<ListExpr>(e).elts)
      if (!checkTarget(*elt))
        return false;
    return true;
  case Expr::Kind::Call:
    what = "a call";
    break;
  case Expr::Kind::BoolLit:
    what = llvm::cast<BoolLitExpr>(e).value ? "True" : "False";
    break;
  case Expr::Kind::NoneLit:
    what = "None";
    break;
  case Expr::Kind::IntLit:
  case Expr::Kind::FloatLit:
  case Expr::Kind::StrLit:
  case Expr::Kind::EllipsisLit:
    what = "a literal";
    break;
  case Expr::Kind::Compare:
    what = "a comparison";
    break;
  case Expr::Kind::IfExp:
    what = "a conditional expression";
    break;
  case Expr::Kind::ListComp:
    what = "a list comprehension";
    break;
  case Expr::Kind::Dict:
    what = "a dict display";
    break;
  default:
    what = "an expression";
    break;
  }
  fail(e.range, std::string("cannot assign to ") + what);
  return false;
}

} // namespace kiln::detail
