//===- AstPrinter.cpp - Textual dump of the syntax tree -------------------===//
#include "frontend/AstPrinter.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace kiln {

using namespace ast;
using llvm::cast;

namespace {

std::string formatFloat(double v) {
  // Python's repr: the shortest digits that read back exactly, in fixed
  // notation unless the exponent is below -4 or at least 16.
  if (v != v)
    return "nan";
  if (v == 1.0 / 0.0 || v == -1.0 / 0.0)
    return v > 0 ? "inf" : "-inf";
  char buf[64];
  int prec = 1;
  for (; prec < 17; ++prec) {
    std::snprintf(buf, sizeof(buf), "%.*e", prec - 1, v);
    if (std::strtod(buf, nullptr) == v)
      break;
  }
  std::snprintf(buf, sizeof(buf), "%.*e", prec - 1, v);
  int exp = std::atoi(std::strchr(buf, 'e') + 1);
  if (exp < -4 || exp >= 16)
    return buf;
  std::snprintf(buf, sizeof(buf), "%.*f", std::max(prec - 1 - exp, 1), v);
  return buf;
}

std::string quote(const std::string &s) {
  std::string out = "'";
  for (unsigned char c : s) {
    switch (c) {
    case '\\':
      out += "\\\\";
      break;
    case '\'':
      out += "\\'";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (c < 0x20 || c == 0x7f) {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\x%02x", c);
        out += buf;
      } else {
        out += char(c);
      }
    }
  }
  return out + "'";
}

// Binding strength for re-parenthesizing in exprToString.
int binOpPrec(BinOpKind k) {
  switch (k) {
  case BinOpKind::BitOr:
    return 6;
  case BinOpKind::BitXor:
    return 7;
  case BinOpKind::BitAnd:
    return 8;
  case BinOpKind::LShift:
  case BinOpKind::RShift:
    return 9;
  case BinOpKind::Add:
  case BinOpKind::Sub:
    return 10;
  case BinOpKind::Pow:
    return 13;
  default:
    return 11;
  }
}

int precOf(const Expr &e) {
  switch (e.kind) {
  case Expr::Kind::IfExp:
    return 1;
  case Expr::Kind::BoolOp:
    return cast<BoolOpExpr>(e).op == BoolOpKind::Or ? 2 : 3;
  case Expr::Kind::UnaryOp:
    return cast<UnaryOpExpr>(e).op == UnaryOpKind::Not ? 4 : 12;
  case Expr::Kind::Compare:
    return 5;
  case Expr::Kind::BinOp:
    return binOpPrec(cast<BinOpExpr>(e).op);
  case Expr::Kind::Tuple:
    return 0;
  default:
    return 15;
  }
}

std::string unparse(const Expr &e, int minPrec);

std::string joined(const std::vector<ExprPtr> &elts) {
  std::string out;
  for (size_t i = 0; i < elts.size(); ++i)
    out += (i ? ", " : "") + unparse(*elts[i], 1);
  return out;
}

std::string unparse(const Expr &e, int minPrec) {
  std::string s;
  int prec = precOf(e);
  switch (e.kind) {
  case Expr::Kind::Name:
    s = cast<NameExpr>(e).id;
    break;
  case Expr::Kind::IntLit:
    s = std::to_string(cast<IntLitExpr>(e).value);
    break;
  case Expr::Kind::FloatLit:
    s = formatFloat(cast<FloatLitExpr>(e).value);
    break;
  case Expr::Kind::BoolLit:
    s = cast<BoolLitExpr>(e).value ? "True" : "False";
    break;
  case Expr::Kind::NoneLit:
    s = "None";
    break;
  case Expr::Kind::StrLit:
    s = quote(cast<StrLitExpr>(e).value);
    break;
  case Expr::Kind::EllipsisLit:
    s = "...";
    break;
  case Expr::Kind::Tuple: {
    const auto &elts = cast<TupleExpr>(e).elts;
    s = "(" + joined(elts) + (elts.size() == 1 ? ",)" : ")");
    prec = 15;
    break;
  }
  case Expr::Kind::List:
    s = "[" + joined(cast<ListExpr>(e).elts) + "]";
    break;
  case Expr::Kind::ListComp: {
    const auto &c = cast<ListCompExpr>(e);
    s = "[" + unparse(*c.elt, 1);
    for (const CompFor &f : c.fors) {
      s += " for " + unparse(*f.target, 6) + " in " + unparse(*f.iter, 2);
      for (const ExprPtr &cond : f.conds)
        s += " if " + unparse(*cond, 2);
    }
    s += "]";
    break;
  }
  case Expr::Kind::Dict: {
    const auto &d = cast<DictExpr>(e);
    s = "{";
    for (size_t i = 0; i < d.keys.size(); ++i)
      s += (i ? ", " : "") + unparse(*d.keys[i], 1) + ": " +
           unparse(*d.values[i], 1);
    s += "}";
    break;
  }
  case Expr::Kind::BinOp: {
    const auto &b = cast<BinOpExpr>(e);
    bool rightAssoc = b.op == BinOpKind::Pow;
    s = unparse(*b.lhs, rightAssoc ? prec + 1 : prec) + " " + spell(b.op) +
        " " + unparse(*b.rhs, rightAssoc ? 12 : prec + 1);
    break;
  }
  case Expr::Kind::UnaryOp: {
    const auto &u = cast<UnaryOpExpr>(e);
    s = std::string(spell(u.op)) + (u.op == UnaryOpKind::Not ? " " : "") +
        unparse(*u.operand, prec);
    break;
  }
  case Expr::Kind::BoolOp: {
    const auto &b = cast<BoolOpExpr>(e);
    s = unparse(*b.lhs, prec) + " " + spell(b.op) + " " +
        unparse(*b.rhs, prec + 1);
    break;
  }
  case Expr::Kind::Compare: {
    const auto &c = cast<CompareExpr>(e);
    s = unparse(*c.operands[0], 6);
    for (size_t i = 0; i < c.ops.size(); ++i)
      s += std::string(" ") + spell(c.ops[i]) + " " +
           unparse(*c.operands[i + 1], 6);
    break;
  }
  case Expr::Kind::IfExp: {
    const auto &i = cast<IfExpExpr>(e);
    s = unparse(*i.body, 2) + " if " + unparse(*i.test, 2) + " else " +
        unparse(*i.orelse, 1);
    break;
  }
  case Expr::Kind::Call: {
    const auto &c = cast<CallExpr>(e);
    s = unparse(*c.func, 14) + "(" + joined(c.args);
    for (size_t i = 0; i < c.keywords.size(); ++i)
      s += (i || !c.args.empty() ? ", " : "") + c.keywords[i].name + "=" +
           unparse(*c.keywords[i].value, 1);
    s += ")";
    break;
  }
  case Expr::Kind::Attribute: {
    const auto &a = cast<AttributeExpr>(e);
    s = unparse(*a.value, 14) + "." + a.attr;
    break;
  }
  case Expr::Kind::Subscript: {
    const auto &sub = cast<SubscriptExpr>(e);
    s = unparse(*sub.value, 14) + "[" + joined(sub.indices) + "]";
    break;
  }
  case Expr::Kind::Slice: {
    const auto &sl = cast<SliceExpr>(e);
    if (sl.lower)
      s += unparse(*sl.lower, 1);
    s += ":";
    if (sl.upper)
      s += unparse(*sl.upper, 1);
    if (sl.step)
      s += ":" + unparse(*sl.step, 1);
    break;
  }
  case Expr::Kind::FString: {
    std::string body;
    for (const FStringExpr::Part &p : cast<FStringExpr>(e).parts) {
      if (!p.expr) {
        for (char c : p.text)
          body += (c == '{' || c == '}') ? std::string(2, c) : std::string(1, c);
        continue;
      }
      body += "{" + unparse(*p.expr, 1);
      if (p.conversion)
        body += std::string("!") + p.conversion;
      if (!p.spec.empty())
        body += ":" + p.spec;
      body += "}";
    }
    s = "f" + quote(body);
    break;
  }
  }
  if (prec < minPrec)
    return "(" + s + ")";
  return s;
}

class Printer {
public:
  std::string out;

  /// `head @line:col tail`: the location comes right after the node's name
  /// so that it is easy to find whatever follows.
  void line(unsigned indent, const std::string &head, SourceRange r,
            const std::string &tail = "") {
    out.append(indent * 2, ' ');
    out += head;
    out += " @" + std::to_string(r.begin.line) + ":" +
           std::to_string(r.begin.col) + tail + "\n";
  }
  void label(unsigned indent, const char *text) {
    out.append(indent * 2, ' ');
    out += text;
    out += "\n";
  }

  void expr(const Expr &e, unsigned indent, bool isTarget = false);
  void stmt(const Stmt &s, unsigned indent);
  void block(const Block &b, unsigned indent) {
    for (const StmtPtr &s : b)
      stmt(*s, indent);
  }
  void optional(const ExprPtr &e, unsigned indent) {
    if (e)
      expr(*e, indent);
    else
      label(indent, "<none>");
  }
};

void Printer::expr(const Expr &e, unsigned indent, bool isTarget) {
  std::string suffix = isTarget ? " (target)" : "";
  auto targets = [&](const std::vector<ExprPtr> &elts) {
    for (const ExprPtr &elt : elts)
      expr(*elt, indent + 1, isTarget);
  };
  switch (e.kind) {
  case Expr::Kind::Name:
    line(indent, "Name " + cast<NameExpr>(e).id, e.range, suffix);
    return;
  case Expr::Kind::IntLit:
  case Expr::Kind::FloatLit:
  case Expr::Kind::BoolLit:
  case Expr::Kind::NoneLit:
  case Expr::Kind::StrLit:
  case Expr::Kind::EllipsisLit: {
    static const char *const names[] = {"",     "Int", "Float",   "Bool",
                                        "None", "Str", "Ellipsis"};
    std::string text = names[int(e.kind)];
    if (!llvm::isa<NoneLitExpr, EllipsisLitExpr>(e))
      text += " " + unparse(e, 0);
    line(indent, text, e.range, suffix);
    return;
  }
  case Expr::Kind::Tuple:
    line(indent, "Tuple", e.range, suffix);
    targets(cast<TupleExpr>(e).elts);
    return;
  case Expr::Kind::List:
    line(indent, "List", e.range, suffix);
    targets(cast<ListExpr>(e).elts);
    return;
  case Expr::Kind::ListComp: {
    const auto &c = cast<ListCompExpr>(e);
    line(indent, "ListComp", e.range, suffix);
    expr(*c.elt, indent + 1);
    for (const CompFor &f : c.fors) {
      expr(*f.target, indent + 1, /*isTarget=*/true);
      expr(*f.iter, indent + 1);
      for (const ExprPtr &cond : f.conds)
        expr(*cond, indent + 1);
    }
    return;
  }
  case Expr::Kind::Dict: {
    const auto &d = cast<DictExpr>(e);
    line(indent, "Dict", e.range, suffix);
    for (size_t i = 0; i < d.keys.size(); ++i) {
      expr(*d.keys[i], indent + 1);
      expr(*d.values[i], indent + 1);
    }
    return;
  }
  case Expr::Kind::BinOp: {
    const auto &b = cast<BinOpExpr>(e);
    line(indent, std::string("BinOp ") + spell(b.op), e.range, suffix);
    expr(*b.lhs, indent + 1);
    expr(*b.rhs, indent + 1);
    return;
  }
  case Expr::Kind::UnaryOp: {
    const auto &u = cast<UnaryOpExpr>(e);
    line(indent, std::string("UnaryOp ") + spell(u.op), e.range, suffix);
    expr(*u.operand, indent + 1);
    return;
  }
  case Expr::Kind::BoolOp: {
    const auto &b = cast<BoolOpExpr>(e);
    line(indent, std::string("BoolOp ") + spell(b.op), e.range, suffix);
    expr(*b.lhs, indent + 1);
    expr(*b.rhs, indent + 1);
    return;
  }
  case Expr::Kind::Compare: {
    const auto &c = cast<CompareExpr>(e);
    std::string text = "Compare";
    for (CmpOpKind op : c.ops)
      text += std::string(" ") + spell(op);
    line(indent, text, e.range, suffix);
    for (const ExprPtr &operand : c.operands)
      expr(*operand, indent + 1);
    return;
  }
  case Expr::Kind::IfExp: {
    const auto &i = cast<IfExpExpr>(e);
    line(indent, "IfExp", e.range, suffix);
    expr(*i.test, indent + 1);
    expr(*i.body, indent + 1);
    expr(*i.orelse, indent + 1);
    return;
  }
  case Expr::Kind::Call: {
    const auto &c = cast<CallExpr>(e);
    line(indent, "Call", e.range, suffix);
    expr(*c.func, indent + 1);
    for (const ExprPtr &arg : c.args)
      expr(*arg, indent + 1);
    for (const Keyword &k : c.keywords) {
      line(indent + 1, "Keyword " + k.name, k.range);
      expr(*k.value, indent + 2);
    }
    return;
  }
  case Expr::Kind::Attribute: {
    const auto &a = cast<AttributeExpr>(e);
    line(indent, "Attribute ." + a.attr, e.range, suffix);
    expr(*a.value, indent + 1);
    return;
  }
  case Expr::Kind::Subscript: {
    const auto &s = cast<SubscriptExpr>(e);
    line(indent, "Subscript", e.range, suffix);
    expr(*s.value, indent + 1);
    for (const ExprPtr &index : s.indices)
      expr(*index, indent + 1);
    return;
  }
  case Expr::Kind::Slice: {
    const auto &s = cast<SliceExpr>(e);
    line(indent, "Slice", e.range);
    optional(s.lower, indent + 1);
    optional(s.upper, indent + 1);
    optional(s.step, indent + 1);
    return;
  }
  case Expr::Kind::FString:
    line(indent, "FString " + unparse(e, 0), e.range, suffix);
    for (const FStringExpr::Part &p : cast<FStringExpr>(e).parts)
      if (p.expr)
        expr(*p.expr, indent + 1);
    return;
  }
}

std::string decoratorList(const std::vector<ExprPtr> &decorators) {
  if (decorators.empty())
    return "";
  std::string s = " [decorators: ";
  for (size_t i = 0; i < decorators.size(); ++i)
    s += (i ? ", " : "") + unparse(*decorators[i], 0);
  return s + "]";
}

void Printer::stmt(const Stmt &s, unsigned indent) {
  switch (s.kind) {
  case Stmt::Kind::Expr:
    line(indent, "Expr", s.range);
    expr(*cast<ExprStmt>(s).value, indent + 1);
    return;
  case Stmt::Kind::Assign: {
    const auto &a = cast<AssignStmt>(s);
    line(indent, "Assign", s.range);
    for (const ExprPtr &t : a.targets)
      expr(*t, indent + 1, /*isTarget=*/true);
    expr(*a.value, indent + 1);
    return;
  }
  case Stmt::Kind::AnnAssign: {
    const auto &a = cast<AnnAssignStmt>(s);
    line(indent, "AnnAssign", s.range, " : " + unparse(*a.annotation, 0));
    expr(*a.target, indent + 1, /*isTarget=*/true);
    if (a.value)
      expr(*a.value, indent + 1);
    return;
  }
  case Stmt::Kind::AugAssign: {
    const auto &a = cast<AugAssignStmt>(s);
    line(indent, std::string("AugAssign ") + spell(a.op) + "=", s.range);
    expr(*a.target, indent + 1, /*isTarget=*/true);
    expr(*a.value, indent + 1);
    return;
  }
  case Stmt::Kind::If: {
    const auto &i = cast<IfStmt>(s);
    line(indent, "If", s.range);
    expr(*i.test, indent + 1);
    label(indent + 1, "Then");
    block(i.body, indent + 2);
    if (!i.orelse.empty()) {
      label(indent + 1, "Else");
      block(i.orelse, indent + 2);
    }
    return;
  }
  case Stmt::Kind::For: {
    const auto &f = cast<ForStmt>(s);
    line(indent, "For", s.range);
    expr(*f.target, indent + 1, /*isTarget=*/true);
    expr(*f.iter, indent + 1);
    label(indent + 1, "Body");
    block(f.body, indent + 2);
    return;
  }
  case Stmt::Kind::While: {
    const auto &w = cast<WhileStmt>(s);
    line(indent, "While", s.range);
    expr(*w.test, indent + 1);
    label(indent + 1, "Body");
    block(w.body, indent + 2);
    return;
  }
  case Stmt::Kind::Break:
    line(indent, "Break", s.range);
    return;
  case Stmt::Kind::Continue:
    line(indent, "Continue", s.range);
    return;
  case Stmt::Kind::Pass:
    line(indent, "Pass", s.range);
    return;
  case Stmt::Kind::Return: {
    const auto &r = cast<ReturnStmt>(s);
    line(indent, "Return", s.range);
    if (r.value)
      expr(*r.value, indent + 1);
    return;
  }
  case Stmt::Kind::Assert: {
    const auto &a = cast<AssertStmt>(s);
    line(indent, "Assert", s.range);
    expr(*a.test, indent + 1);
    if (a.msg)
      expr(*a.msg, indent + 1);
    return;
  }
  case Stmt::Kind::Raise: {
    const auto &r = cast<RaiseStmt>(s);
    line(indent, "Raise", s.range);
    if (r.exc)
      expr(*r.exc, indent + 1);
    if (r.cause)
      expr(*r.cause, indent + 1);
    return;
  }
  case Stmt::Kind::FunctionDef: {
    const auto &f = cast<FunctionDef>(s);
    std::string tail;
    if (f.returns)
      tail += " -> " + unparse(*f.returns, 0);
    tail += decoratorList(f.decorators);
    line(indent, "FunctionDef " + f.name, s.range, tail);
    for (const SpecComment &spec : f.specs)
      line(indent + 1, "Spec", spec.range, " " + spec.text);
    for (const Param &p : f.params) {
      std::string detail;
      if (p.annotation)
        detail += " : " + unparse(*p.annotation, 0);
      if (p.defaultValue)
        detail += " = " + unparse(*p.defaultValue, 0);
      line(indent + 1, "Param " + p.name, p.range, detail);
    }
    block(f.body, indent + 1);
    return;
  }
  case Stmt::Kind::ClassDef: {
    const auto &c = cast<ClassDef>(s);
    std::string tail;
    if (!c.bases.empty()) {
      tail += " (";
      for (size_t i = 0; i < c.bases.size(); ++i)
        tail += (i ? ", " : "") + unparse(*c.bases[i], 0);
      tail += ")";
    }
    line(indent, "ClassDef " + c.name, s.range,
         tail + decoratorList(c.decorators));
    block(c.body, indent + 1);
    return;
  }
  case Stmt::Kind::Import: {
    const auto &imp = cast<ImportStmt>(s);
    std::string head = imp.module.empty() ? "Import" : "ImportFrom";
    std::string tail = imp.module.empty() ? "" : " " + imp.module + ":";
    for (size_t i = 0; i < imp.names.size(); ++i) {
      tail += (i ? ", " : " ") + imp.names[i].name;
      if (!imp.names[i].asname.empty())
        tail += " as " + imp.names[i].asname;
    }
    line(indent, head, s.range, tail);
    return;
  }
  }
}

} // namespace

std::string exprToString(const Expr &e) { return unparse(e, 0); }

std::string printAST(const Expr &e, unsigned indent) {
  Printer p;
  p.expr(e, indent);
  return std::move(p.out);
}

std::string printAST(const Stmt &s, unsigned indent) {
  Printer p;
  p.stmt(s, indent);
  return std::move(p.out);
}

std::string printAST(const Module &m) {
  Printer p;
  p.block(m.items, 0);
  for (const SkippedItem &item : m.skipped) {
    std::string text = "Skipped ";
    switch (item.kind) {
    case SkippedItem::Kind::Function:
      text += "function";
      break;
    case SkippedItem::Kind::Class:
      text += "class";
      break;
    case SkippedItem::Kind::Other:
      text += "statement";
      break;
    }
    if (!item.name.empty())
      text += " '" + item.name + "'";
    text += " @" + std::to_string(item.range.begin.line) + ":" +
            std::to_string(item.range.begin.col);
    if (item.isScript)
      text += " [script]";
    text += ": " + item.error.message + " (at " +
            std::to_string(item.error.range.begin.line) + ":" +
            std::to_string(item.error.range.begin.col) + ")\n";
    p.out += text;
  }
  return std::move(p.out);
}

} // namespace kiln
