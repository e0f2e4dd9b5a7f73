//===- Lexer.cpp - Tokenizer for kiln's Python subset ---------------------===//
#include "frontend/Lexer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace kiln {

const char *spell(TokenKind kind) {
  switch (kind) {
  case TokenKind::Name:
    return "name";
  case TokenKind::Int:
    return "integer";
  case TokenKind::Float:
    return "float";
  case TokenKind::String:
    return "string";
  case TokenKind::Op:
    return "operator";
  case TokenKind::Newline:
    return "newline";
  case TokenKind::Indent:
    return "indent";
  case TokenKind::Dedent:
    return "dedent";
  case TokenKind::EndOfFile:
    return "end of file";
  case TokenKind::Error:
    return "error";
  }
  return "?";
}

bool isPythonKeyword(std::string_view name) {
  static const char *const keywords[] = {
      "False",  "None",   "True",    "and",      "as",       "assert", "async",
      "await",  "break",  "class",   "continue", "def",      "del",    "elif",
      "else",   "except", "finally", "for",      "from",     "global", "if",
      "import", "in",     "is",      "lambda",   "nonlocal", "not",    "or",
      "pass",   "raise",  "return",  "try",      "while",    "with",   "yield"};
  for (const char *k : keywords)
    if (name == k)
      return true;
  return false;
}

bool Token::isKeyword() const {
  return kind == TokenKind::Name && isPythonKeyword(text);
}

namespace {

bool isIdentStart(unsigned char c) {
  // Bytes of multi-byte UTF-8 sequences are accepted as identifier bytes:
  // Python allows non-ASCII identifiers and we do not need to classify them.
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c >= 0x80;
}
bool isIdentChar(unsigned char c) {
  return isIdentStart(c) || (c >= '0' && c <= '9');
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }

int digitValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return 99;
}

void appendUtf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

class Lexer {
public:
  Lexer(const SourceFile &file, std::vector<ast::SpecComment> *specs)
      : src(file.text()), specs(specs) {}

  std::vector<Token> run();

private:
  const std::string &src;
  std::vector<ast::SpecComment> *specs;
  std::vector<Token> toks;
  size_t pos = 0;
  uint32_t line = 1, col = 1;
  int parenDepth = 0;
  /// Indentation columns of the open blocks. A `phantom` level was pushed
  /// after an inconsistent dedent; it emitted no Indent, so it must not emit
  /// a Dedent either.
  struct Level {
    unsigned width;
    bool phantom;
  };
  std::vector<Level> indents{{0, false}};
  bool lineHasTokens = false;

  char peek(size_t ahead = 0) const {
    return pos + ahead < src.size() ? src[pos + ahead] : '\0';
  }
  bool atEnd() const { return pos >= src.size(); }
  SourceLoc loc() const { return {line, col}; }
  void advance() {
    if (atEnd())
      return;
    char c = src[pos++];
    if (c == '\n' || (c == '\r' && peek() != '\n')) {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  bool atNewline() const { return peek() == '\n' || peek() == '\r'; }
  void skipNewline() {
    if (peek() == '\r')
      advance();
    if (peek() == '\n')
      advance();
  }

  Token &push(TokenKind kind, std::string text, SourceLoc begin) {
    Token t;
    t.kind = kind;
    t.text = std::move(text);
    t.range = {begin, loc()};
    toks.push_back(std::move(t));
    if (kind != TokenKind::Newline && kind != TokenKind::Indent &&
        kind != TokenKind::Dedent)
      lineHasTokens = true;
    return toks.back();
  }
  void error(std::string msg, SourceLoc begin) {
    push(TokenKind::Error, std::move(msg), begin);
  }

  void handleIndentation();
  void lexComment();
  void lexName();
  void lexNumber();
  bool lexString(); // false if the current position does not start a string
  void lexOperator();
};

void Lexer::lexComment() {
  SourceLoc begin = loc();
  size_t start = pos;
  while (!atEnd() && !atNewline())
    advance();
  if (!specs)
    return;
  std::string_view text(src.data() + start + 1, pos - start - 1);
  size_t i = text.find_first_not_of(" \t");
  if (i == std::string_view::npos || text.substr(i, 5) != "kiln:")
    return;
  i += 5;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
    ++i;
  size_t end = text.size();
  while (end > i && (text[end - 1] == ' ' || text[end - 1] == '\t'))
    --end;
  ast::SpecComment spec;
  spec.text = std::string(text.substr(i, end - i));
  spec.range = {{begin.line, uint32_t(begin.col + 1 + i)},
                {begin.line, uint32_t(begin.col + 1 + end)}};
  specs->push_back(std::move(spec));
}

void Lexer::handleIndentation() {
  // Measure the indentation; blank and comment-only lines do not count.
  unsigned width = 0;
  while (!atEnd()) {
    char c = peek();
    if (c == ' ')
      ++width;
    else if (c == '\t')
      width = (width / 8 + 1) * 8;
    else if (c == '\f')
      width = 0;
    else
      break;
    advance();
  }
  if (atEnd() || atNewline() || peek() == '#')
    return;
  if (peek() == '\\' && (peek(1) == '\n' || peek(1) == '\r'))
    return; // a continuation line on its own: Python treats it as blank-ish
  SourceLoc here = loc();
  if (width > indents.back().width) {
    indents.push_back({width, false});
    Token t;
    t.kind = TokenKind::Indent;
    t.range = {here, here};
    toks.push_back(std::move(t));
    return;
  }
  while (width < indents.back().width) {
    bool phantom = indents.back().phantom;
    indents.pop_back();
    if (!phantom) {
      Token t;
      t.kind = TokenKind::Dedent;
      t.range = {here, here};
      toks.push_back(std::move(t));
    }
  }
  if (width != indents.back().width) {
    Token t;
    t.kind = TokenKind::Error;
    t.text = "unindent does not match any outer indentation level";
    t.range = {here, {here.line, here.col + 1}};
    toks.push_back(std::move(t));
    indents.push_back({width, true});
  }
}

void Lexer::lexName() {
  SourceLoc begin = loc();
  size_t start = pos;
  while (!atEnd() && isIdentChar(peek()))
    advance();
  push(TokenKind::Name, src.substr(start, pos - start), begin);
}

void Lexer::lexNumber() {
  SourceLoc begin = loc();
  size_t start = pos;
  auto finishBad = [&](std::string msg) {
    while (!atEnd() && (isIdentChar(peek()) || peek() == '.'))
      advance();
    error(std::move(msg), begin);
  };

  char p1 = peek(1) | 0x20;
  if (peek() == '0' && (p1 == 'x' || p1 == 'o' || p1 == 'b')) {
    int base = p1 == 'x' ? 16 : p1 == 'o' ? 8 : 2;
    advance();
    advance();
    uint64_t value = 0;
    bool overflow = false, any = false;
    while (!atEnd()) {
      char c = peek();
      if (c == '_') {
        advance();
        continue;
      }
      int d = digitValue(c);
      if (d >= base)
        break;
      any = true;
      if (value > (uint64_t(INT64_MAX) - d) / base)
        overflow = true;
      else
        value = value * base + d;
      advance();
    }
    if (!any || (!atEnd() && isIdentChar(peek()))) {
      const char *what = base == 16  ? "hexadecimal"
                         : base == 8 ? "octal"
                                     : "binary";
      return finishBad(std::string("invalid ") + what + " literal");
    }
    if (overflow)
      return error("integer literal is too large", begin);
    Token &t = push(TokenKind::Int, src.substr(start, pos - start), begin);
    t.intValue = int64_t(value);
    return;
  }

  std::string digits; // without underscores, for strtod/strtoull
  bool isFloat = false;
  auto eatDigits = [&] {
    while (!atEnd() &&
           (isDigit(peek()) || (peek() == '_' && isDigit(peek(1))))) {
      if (peek() != '_')
        digits += peek();
      advance();
    }
  };
  eatDigits();
  if (peek() == '.' && !(peek(1) == '.' && peek(2) == '.')) {
    isFloat = true;
    digits += '.';
    advance();
    eatDigits();
  }
  if ((peek() | 0x20) == 'e' &&
      (isDigit(peek(1)) ||
       ((peek(1) == '+' || peek(1) == '-') && isDigit(peek(2))))) {
    isFloat = true;
    digits += 'e';
    advance();
    if (peek() == '+' || peek() == '-') {
      digits += peek();
      advance();
    }
    eatDigits();
  }
  if ((peek() | 0x20) == 'j') {
    advance();
    return finishBad("complex literal is not supported");
  }
  if (!atEnd() && isIdentChar(peek()))
    return finishBad("invalid decimal literal");
  std::string spelling = src.substr(start, pos - start);
  if (isFloat) {
    Token &t = push(TokenKind::Float, spelling, begin);
    t.floatValue = std::strtod(digits.c_str(), nullptr);
    return;
  }
  if (digits.size() > 1 && digits[0] == '0' &&
      digits.find_first_not_of('0') != std::string::npos)
    return error("leading zeros in decimal integer literals are not "
                 "permitted; use an 0o prefix for octal integers",
                 begin);
  uint64_t value = 0;
  for (char c : digits) {
    int d = c - '0';
    if (value > (uint64_t(INT64_MAX) - d) / 10)
      return error("integer literal is too large", begin);
    value = value * 10 + d;
  }
  Token &t = push(TokenKind::Int, spelling, begin);
  t.intValue = int64_t(value);
}

bool Lexer::lexString() {
  // Up to two prefix letters from r, b, u, f in any case and order.
  size_t n = 0;
  std::string prefix;
  while (n < 3 &&
         std::string_view("rRbBuUfF").find(peek(n)) != std::string_view::npos &&
         peek(n) != '\0') {
    prefix += char(peek(n) | 0x20);
    ++n;
  }
  if (peek(n) != '\'' && peek(n) != '"')
    return false;
  std::sort(prefix.begin(), prefix.end());
  static const char *const valid[] = {"", "r", "b", "u", "f", "br", "fr"};
  if (std::find_if(std::begin(valid), std::end(valid), [&](const char *v) {
        return prefix == v;
      }) == std::end(valid))
    return false;

  SourceLoc begin = loc();
  for (size_t i = 0; i < n; ++i)
    advance();
  char quote = peek();
  bool triple = peek(1) == quote && peek(2) == quote;
  for (int i = 0; i < (triple ? 3 : 1); ++i)
    advance();
  bool raw = prefix.find('r') != std::string::npos;
  std::string value;
  while (true) {
    if (atEnd() || (!triple && atNewline())) {
      error(triple ? "unterminated triple-quoted string literal"
                   : "unterminated string literal",
            begin);
      return true;
    }
    char c = peek();
    if (c == quote) {
      if (!triple) {
        advance();
        break;
      }
      if (peek(1) == quote && peek(2) == quote) {
        advance();
        advance();
        advance();
        break;
      }
      value += c;
      advance();
      continue;
    }
    if (c == '\r') {
      // Normalize line endings inside triple-quoted strings.
      value += '\n';
      skipNewline();
      continue;
    }
    if (c != '\\') {
      value += c;
      advance();
      continue;
    }
    // A backslash.
    advance();
    if (atEnd())
      continue; // reported as unterminated on the next iteration
    char e = peek();
    if (raw) {
      value += '\\';
      if (e == '\r' || e == '\n') {
        value += '\n';
        skipNewline();
      } else {
        value += e;
        advance();
      }
      continue;
    }
    if (e == '\n' || e == '\r') {
      skipNewline(); // line continuation inside the literal
      continue;
    }
    advance();
    switch (e) {
    case 'n':
      value += '\n';
      break;
    case 't':
      value += '\t';
      break;
    case 'r':
      value += '\r';
      break;
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7': {
      unsigned v = e - '0';
      for (int i = 0; i < 2 && peek() >= '0' && peek() <= '7'; ++i) {
        v = v * 8 + (peek() - '0');
        advance();
      }
      appendUtf8(value, v);
      break;
    }
    case 'a':
      value += '\a';
      break;
    case 'b':
      value += '\b';
      break;
    case 'f':
      value += '\f';
      break;
    case 'v':
      value += '\v';
      break;
    case '\\':
      value += '\\';
      break;
    case '\'':
      value += '\'';
      break;
    case '"':
      value += '"';
      break;
    case 'x':
    case 'u':
    case 'U': {
      int len = e == 'x' ? 2 : e == 'u' ? 4 : 8;
      uint32_t v = 0;
      int i = 0;
      for (; i < len && digitValue(peek()) < 16; ++i) {
        v = v * 16 + digitValue(peek());
        advance();
      }
      if (i != len || v > 0x10FFFF) {
        // Consume the rest of the literal so lexing resumes after it.
        while (!atEnd() && peek() != quote && !atNewline())
          advance();
        if (peek() == quote)
          advance();
        error("invalid escape sequence in string literal", begin);
        return true;
      }
      appendUtf8(value, v);
      break;
    }
    default:
      // Python keeps unknown escapes verbatim.
      value += '\\';
      value += e;
      break;
    }
  }
  Token &t = push(TokenKind::String, std::move(value), begin);
  t.stringPrefix = prefix == "u" ? "" : prefix;
  return true;
}

void Lexer::lexOperator() {
  static const char *const ops3[] = {"**=", "//=", ">>=", "<<=", "..."};
  static const char *const ops2[] = {
      "**", "//", ">>", "<<", "<=", ">=", "==", "!=", "->", "+=",
      "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", ":="};
  SourceLoc begin = loc();
  std::string_view rest(src.data() + pos, src.size() - pos);
  auto take = [&](std::string_view op) {
    for (size_t i = 0; i < op.size(); ++i)
      advance();
    push(TokenKind::Op, std::string(op), begin);
  };
  for (const char *op : ops3)
    if (rest.substr(0, 3) == op)
      return take(op);
  for (const char *op : ops2)
    if (rest.substr(0, 2) == op)
      return take(op);
  char c = peek();
  if (std::string_view("+-*/%@&|^~<>()[]{},:.;=").find(c) !=
      std::string_view::npos) {
    if (c == '(' || c == '[' || c == '{')
      ++parenDepth;
    else if ((c == ')' || c == ']' || c == '}') && parenDepth > 0)
      --parenDepth;
    return take(rest.substr(0, 1));
  }
  advance();
  char buf[32];
  if (c >= 0x20 && c < 0x7f)
    std::snprintf(buf, sizeof(buf), "invalid character '%c'", c);
  else
    std::snprintf(buf, sizeof(buf), "invalid character '\\x%02x'",
                  unsigned(static_cast<unsigned char>(c)));
  error(buf, begin);
}

std::vector<Token> Lexer::run() {
  bool atLineStart = true;
  while (true) {
    if (atLineStart) {
      // Inside brackets, a new line is a continuation: no layout.
      atLineStart = false;
      if (parenDepth == 0)
        handleIndentation();
    }
    if (atEnd())
      break;
    char c = peek();
    if (c == ' ' || c == '\t' || c == '\f') {
      advance();
      continue;
    }
    if (c == '#') {
      lexComment();
      continue;
    }
    if (c == '\n' || c == '\r') {
      SourceLoc begin = loc();
      skipNewline();
      if (parenDepth == 0 && lineHasTokens) {
        Token t;
        t.kind = TokenKind::Newline;
        t.range = {begin, {begin.line, begin.col + 1}};
        toks.push_back(std::move(t));
        lineHasTokens = false;
      }
      atLineStart = true;
      continue;
    }
    if (c == '\\') {
      SourceLoc begin = loc();
      advance();
      if (atNewline()) {
        skipNewline();
        continue;
      }
      if (atEnd())
        continue;
      error("unexpected character after line continuation character", begin);
      continue;
    }
    if (isDigit(c) || (c == '.' && isDigit(peek(1)))) {
      lexNumber();
      continue;
    }
    if (isIdentStart(c)) {
      if (lexString())
        continue;
      lexName();
      continue;
    }
    if (c == '\'' || c == '"') {
      lexString();
      continue;
    }
    lexOperator();
  }
  SourceLoc end = loc();
  if (lineHasTokens) {
    Token t;
    t.kind = TokenKind::Newline;
    t.range = {end, end};
    toks.push_back(std::move(t));
  }
  while (indents.size() > 1) {
    bool phantom = indents.back().phantom;
    indents.pop_back();
    if (!phantom) {
      Token t;
      t.kind = TokenKind::Dedent;
      t.range = {end, end};
      toks.push_back(std::move(t));
    }
  }
  Token eof;
  eof.kind = TokenKind::EndOfFile;
  eof.range = {end, end};
  toks.push_back(std::move(eof));
  return std::move(toks);
}

} // namespace

std::vector<Token> tokenize(const SourceFile &file,
                            std::vector<ast::SpecComment> *specs) {
  return Lexer(file, specs).run();
}

} // namespace kiln
