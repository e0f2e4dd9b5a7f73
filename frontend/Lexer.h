//===- Lexer.h - Tokenizer for kiln's Python subset -----------------------===//
//
// Turns Python source into tokens with Python's layout rules (INDENT/DEDENT,
// implicit line joining, backslash continuation). The lexer never stops:
// every problem becomes an Error token carrying its message. There are two
// kinds. Text CPython's tokenizer rejects too (invalid UTF-8, a NUL byte, a
// bad dedent, an unclosed bracket) makes the whole file invalid Python, so
// such a token is `fatal` and the parser rejects the file wherever it is.
// Valid Python that kiln does not support (a complex literal, a non-ASCII
// name) only matters inside code kiln compiles.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_LEXER_H
#define KILN_FRONTEND_LEXER_H

#include "frontend/AST.h"
#include "frontend/Diagnostics.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kiln {

enum class TokenKind {
  Name, // identifiers and keywords alike
  Int,
  Float,
  String,
  Op, // operators and delimiters
  Newline,
  Indent,
  Dedent,
  EndOfFile,
  Error,
};
const char *spell(TokenKind kind);

struct Token {
  TokenKind kind = TokenKind::Error;
  /// Name: the identifier. Op: the operator's spelling. String: the decoded
  /// value. Int/Float: the source spelling. Error: the message.
  std::string text;
  SourceRange range;
  int64_t intValue = 0;
  double floatValue = 0;
  /// String prefix letters in lower case and sorted ("", "b", "f", "r",
  /// "br", "fr", "u").
  std::string stringPrefix;
  /// Error: CPython rejects this text as well, so the file is not Python.
  bool fatal = false;

  bool is(TokenKind k) const { return kind == k; }
  bool isOp(std::string_view op) const {
    return kind == TokenKind::Op && text == op;
  }
  bool isName(std::string_view name) const {
    return kind == TokenKind::Name && text == name;
  }
  /// A Name that is one of Python's reserved keywords.
  bool isKeyword() const;
};

/// Whether `name` is a reserved Python keyword (not a soft keyword).
bool isPythonKeyword(std::string_view name);

/// Tokenizes the whole file. The result always ends with EndOfFile, preceded
/// by a Newline (if the last line had tokens) and the Dedents that close
/// every open block. `# kiln: ...` comments are appended to `specs` when it
/// is not null.
std::vector<Token> tokenize(const SourceFile &file,
                            std::vector<ast::SpecComment> *specs = nullptr);

} // namespace kiln

#endif // KILN_FRONTEND_LEXER_H
