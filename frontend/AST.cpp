//===- AST.cpp - Operator spellings ---------------------------------------===//
#include "frontend/AST.h"

namespace kiln::ast {

const char *spell(BinOpKind kind) {
  switch (kind) {
  case BinOpKind::Add:
    return "+";
  case BinOpKind::Sub:
    return "-";
  case BinOpKind::Mul:
    return "*";
  case BinOpKind::Div:
    return "/";
  case BinOpKind::FloorDiv:
    return "//";
  case BinOpKind::Mod:
    return "%";
  case BinOpKind::Pow:
    return "**";
  case BinOpKind::MatMul:
    return "@";
  case BinOpKind::BitAnd:
    return "&";
  case BinOpKind::BitOr:
    return "|";
  case BinOpKind::BitXor:
    return "^";
  case BinOpKind::LShift:
    return "<<";
  case BinOpKind::RShift:
    return ">>";
  }
  return "?";
}

const char *spell(UnaryOpKind kind) {
  switch (kind) {
  case UnaryOpKind::Neg:
    return "-";
  case UnaryOpKind::Pos:
    return "+";
  case UnaryOpKind::Not:
    return "not";
  case UnaryOpKind::Invert:
    return "~";
  }
  return "?";
}

const char *spell(BoolOpKind kind) {
  return kind == BoolOpKind::And ? "and" : "or";
}

const char *spell(CmpOpKind kind) {
  switch (kind) {
  case CmpOpKind::Lt:
    return "<";
  case CmpOpKind::Le:
    return "<=";
  case CmpOpKind::Gt:
    return ">";
  case CmpOpKind::Ge:
    return ">=";
  case CmpOpKind::Eq:
    return "==";
  case CmpOpKind::Ne:
    return "!=";
  case CmpOpKind::Is:
    return "is";
  case CmpOpKind::IsNot:
    return "is not";
  case CmpOpKind::In:
    return "in";
  case CmpOpKind::NotIn:
    return "not in";
  }
  return "?";
}

} // namespace kiln::ast
