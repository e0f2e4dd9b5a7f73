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
  // Non-ASCII bytes start a name so that lexName can check them and say
  // what is wrong, whether bad UTF-8 or a non-ASCII identifier.
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

size_t utf8Length(std::string_view s, size_t i) {
  return utf8SequenceLength(s, i);
}

/// Keywords that may directly follow a number: Python 3.11 accepts `1if x
/// else 2` (with a deprecation warning), so kiln must not call it an error.
bool keywordAfterNumber(std::string_view rest) {
  for (std::string_view kw :
       {"and", "else", "for", "if", "in", "is", "not", "or"})
    if (rest.substr(0, kw.size()) == kw &&
        (rest.size() == kw.size() || !isIdentChar(rest[kw.size()])))
      return true;
  return false;
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
  /// The open brackets, innermost last, for CPython's bracket errors.
  std::vector<std::pair<char, SourceLoc>> brackets;
  /// Indentation of the open blocks, measured twice as CPython does: `width`
  /// with tabs to multiples of 8, `altWidth` with tabs as 1. A file whose
  /// blocks compare differently under the two is ambiguous (TabError). A
  /// `phantom` level was pushed after a bad dedent; it emitted no Indent,
  /// so it must not emit a Dedent either.
  struct Level {
    unsigned width;
    unsigned altWidth;
    bool phantom;
  };
  std::vector<Level> indents{{0, 0, false}};
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
  void fatal(std::string msg, SourceLoc begin) {
    push(TokenKind::Error, std::move(msg), begin).fatal = true;
  }
  /// A fatal error blaming the single byte at `at`.
  void fatalAt(std::string msg, SourceLoc at) {
    Token t;
    t.kind = TokenKind::Error;
    t.text = std::move(msg);
    t.range = {at, {at.line, at.col + 1}};
    t.fatal = true;
    toks.push_back(std::move(t));
  }
  /// Why the character at `pos` cannot be in a Python file at all (a NUL
  /// byte or invalid UTF-8), or empty if it can.
  std::string byteProblem() const {
    if (src[pos] == '\0')
      return "source code cannot contain null bytes";
    if (utf8Length(src, pos) != 0)
      return {};
    char buf[80];
    std::snprintf(buf, sizeof(buf),
                  "byte 0x%02x is not valid UTF-8; Python source files must "
                  "be UTF-8",
                  unsigned(static_cast<unsigned char>(src[pos])));
    return buf;
  }
  /// Moves past one character of a comment or string, which may be a
  /// multi-byte UTF-8 sequence.
  void advanceChar() {
    size_t n = std::max<size_t>(1, utf8Length(src, pos));
    for (size_t i = 0; i < n; ++i)
      advance();
  }

  void handleIndentation();
  void lexComment();
  void lexName();
  void lexNumber();
  /// What lexString has found so far inside one literal.
  struct StringState {
    char quote = '"';
    bool triple = false, raw = false, bytes = false;
    std::string value;
    /// The first fatal problem (invalid UTF-8, a bad escape) and where.
    std::string problem;
    SourceLoc problemAt;
    /// Valid Python that kiln does not support (`\N{DASH}`).
    std::string unsupported;
  };
  bool lexString(); // false if the current position does not start a string
  void lexStringChar(StringState &st);
  void lexEscape(StringState &st);
  void lexOperator();
  void openBracket();
  void closeBracket();
};

void Lexer::lexComment() {
  SourceLoc begin = loc();
  size_t start = pos;
  bool reported = false;
  while (!atEnd() && !atNewline()) {
    std::string problem = byteProblem();
    if (!problem.empty() && !reported) {
      fatalAt(std::move(problem), loc());
      reported = true;
    }
    advanceChar();
  }
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
  unsigned width = 0, altWidth = 0;
  while (!atEnd()) {
    char c = peek();
    if (c == ' ') {
      ++width;
      ++altWidth;
    } else if (c == '\t') {
      width = (width / 8 + 1) * 8;
      ++altWidth;
    } else if (c == '\f') {
      width = altWidth = 0; // as CPython, for Emacs users
    } else {
      break;
    }
    advance();
  }
  if (atEnd() || atNewline() || peek() == '#')
    return;
  if (peek() == '\\' && (peek(1) == '\n' || peek(1) == '\r'))
    return; // a continuation line on its own: Python treats it as blank-ish
  SourceLoc here = loc();
  auto layoutToken = [&](TokenKind kind) {
    Token t;
    t.kind = kind;
    t.range = {here, here};
    toks.push_back(std::move(t));
  };
  const char *tabError = "inconsistent use of tabs and spaces in indentation";
  if (width > indents.back().width) {
    if (altWidth <= indents.back().altWidth)
      return fatalAt(tabError, here);
    // CPython's MAXINDENT: 100 levels with the top one.
    if (indents.size() >= 100)
      return fatalAt("too many levels of indentation", here);
    indents.push_back({width, altWidth, false});
    return layoutToken(TokenKind::Indent);
  }
  while (width < indents.back().width) {
    bool phantom = indents.back().phantom;
    indents.pop_back();
    if (!phantom)
      layoutToken(TokenKind::Dedent);
  }
  if (width != indents.back().width) {
    fatalAt("unindent does not match any outer indentation level", here);
    indents.push_back({width, altWidth, true});
    return;
  }
  if (altWidth != indents.back().altWidth)
    fatalAt(tabError, here);
}

void Lexer::lexName() {
  SourceLoc begin = loc();
  size_t start = pos;
  bool nonAscii = false;
  while (!atEnd() && isIdentChar(peek())) {
    if (static_cast<unsigned char>(peek()) < 0x80) {
      advance();
      continue;
    }
    std::string problem = byteProblem();
    if (!problem.empty()) {
      fatalAt(std::move(problem), loc());
      while (!atEnd() && isIdentChar(peek()))
        advance();
      return;
    }
    nonAscii = true;
    advanceChar();
  }
  // Python normalizes non-ASCII names (NFKC) and allows only some
  // characters in them; kiln does neither, so it refuses them rather than
  // treat two spellings of one Python name as two names.
  if (nonAscii)
    return error("non-ASCII identifiers are not supported", begin);
  push(TokenKind::Name, src.substr(start, pos - start), begin);
}

void Lexer::lexNumber() {
  SourceLoc begin = loc();
  size_t start = pos;
  // Malformed numbers are fatal: CPython's tokenizer rejects them too.
  auto finishBad = [&](std::string msg, bool isFatal = true) {
    while (!atEnd() && (isIdentChar(peek()) || peek() == '.'))
      advance();
    if (isFatal)
      fatal(std::move(msg), begin);
    else
      error(std::move(msg), begin);
  };
  auto endsWell = [&] {
    return atEnd() || !isIdentChar(peek()) ||
           keywordAfterNumber(std::string_view(src).substr(pos));
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
    if (!any || !endsWell()) {
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
    if (!endsWell())
      return finishBad("invalid imaginary literal");
    return finishBad("complex literal is not supported", /*isFatal=*/false);
  }
  if (!endsWell())
    return finishBad("invalid decimal literal");
  std::string spelling = src.substr(start, pos - start);
  if (isFloat) {
    Token &t = push(TokenKind::Float, spelling, begin);
    t.floatValue = std::strtod(digits.c_str(), nullptr);
    return;
  }
  if (digits.size() > 1 && digits[0] == '0' &&
      digits.find_first_not_of('0') != std::string::npos)
    return fatal("leading zeros in decimal integer literals are not "
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
  StringState st;
  st.quote = peek();
  st.triple = peek(1) == st.quote && peek(2) == st.quote;
  st.raw = prefix.find('r') != std::string::npos;
  st.bytes = prefix.find('b') != std::string::npos;
  for (int i = 0; i < (st.triple ? 3 : 1); ++i)
    advance();
  while (true) {
    if (atEnd() || (!st.triple && atNewline())) {
      fatal(st.triple ? "unterminated triple-quoted string literal"
                      : "unterminated string literal",
            begin);
      return true;
    }
    char c = peek();
    if (c == st.quote) {
      if (!st.triple) {
        advance();
        break;
      }
      if (peek(1) == st.quote && peek(2) == st.quote) {
        advance();
        advance();
        advance();
        break;
      }
      st.value += c;
      advance();
      continue;
    }
    if (c == '\r') {
      // Normalize line endings inside triple-quoted strings.
      st.value += '\n';
      skipNewline();
      continue;
    }
    if (c == '\\')
      lexEscape(st);
    else
      lexStringChar(st);
  }
  // The whole literal is consumed first, so that lexing resumes after it.
  if (!st.problem.empty())
    return fatalAt(st.problem, st.problemAt), true;
  if (!st.unsupported.empty())
    return error(st.unsupported, begin), true;
  Token &t = push(TokenKind::String, std::move(st.value), begin);
  t.stringPrefix = prefix == "u" ? "" : prefix;
  return true;
}

void Lexer::lexStringChar(StringState &st) {
  std::string problem = byteProblem();
  if (problem.empty() && st.bytes && static_cast<unsigned char>(peek()) >= 0x80)
    problem = "bytes can only contain ASCII literal characters";
  if (!problem.empty() && st.problem.empty()) {
    st.problem = std::move(problem);
    st.problemAt = loc();
  }
  size_t start = pos;
  advanceChar();
  st.value.append(src, start, pos - start);
}

void Lexer::lexEscape(StringState &st) {
  SourceLoc at = loc();
  advance(); // the backslash
  if (atEnd())
    return; // reported as unterminated by the caller
  char e = peek();
  // A non-ASCII or NUL character is no escape; the caller checks it.
  if (static_cast<unsigned char>(e) >= 0x80 || e == '\0') {
    st.value += '\\';
    return;
  }
  if (e == '\n' || e == '\r') {
    // A line continuation inside the literal; raw strings keep it.
    if (st.raw)
      st.value += "\\\n";
    skipNewline();
    return;
  }
  advance();
  if (st.raw) {
    st.value += '\\';
    st.value += e;
    return;
  }
  auto bad = [&](const char *msg) {
    if (st.problem.empty()) {
      st.problem = msg;
      st.problemAt = at;
    }
  };
  static const std::string_view simple = "n\nt\tr\ra\ab\bf\fv\v\\\\''\"\"";
  for (size_t i = 0; i < simple.size(); i += 2)
    if (simple[i] == e) {
      st.value += simple[i + 1];
      return;
    }
  if (e >= '0' && e <= '7') {
    unsigned v = e - '0';
    for (int i = 0; i < 2 && peek() >= '0' && peek() <= '7'; ++i) {
      v = v * 8 + (peek() - '0');
      advance();
    }
    appendUtf8(st.value, v);
    return;
  }
  // Bytes literals have no \u, \U or \N escapes: they stay verbatim.
  if (e == 'x' || (!st.bytes && (e == 'u' || e == 'U'))) {
    int len = e == 'x' ? 2 : e == 'u' ? 4 : 8;
    uint32_t v = 0;
    int i = 0;
    for (; i < len && !atEnd() && digitValue(peek()) < 16; ++i) {
      v = v * 16 + digitValue(peek());
      advance();
    }
    if (i != len || v > 0x10FFFF)
      return bad("invalid escape sequence in string literal");
    if (v >= 0xD800 && v <= 0xDFFF && st.unsupported.empty())
      st.unsupported = "a surrogate code point in a string is not supported";
    appendUtf8(st.value, v);
    return;
  }
  if (e == 'N' && !st.bytes) {
    // Python looks the name up in its Unicode database; kiln has none.
    if (peek() != '{')
      return bad("malformed \\N character escape");
    while (!atEnd() && peek() != '}' && peek() != st.quote && !atNewline())
      advance();
    if (peek() != '}')
      return bad("malformed \\N character escape");
    advance();
    if (st.unsupported.empty())
      st.unsupported = "\\N{...} escapes are not supported";
    return;
  }
  // Python keeps unknown escapes verbatim.
  st.value += '\\';
  st.value += e;
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
  if (c == '(' || c == '[' || c == '{')
    return openBracket();
  if (c == ')' || c == ']' || c == '}')
    return closeBracket();
  if (std::string_view("+-*/%@&|^~<>,:.;=").find(c) != std::string_view::npos)
    return take(rest.substr(0, 1));
  std::string problem = byteProblem();
  advance();
  if (!problem.empty())
    return fatal(std::move(problem), begin);
  char buf[48];
  if (c > 0x20 && c < 0x7f)
    std::snprintf(buf, sizeof(buf), "invalid character '%c'", c);
  else
    std::snprintf(buf, sizeof(buf), "invalid non-printable character U+%04X",
                  unsigned(static_cast<unsigned char>(c)));
  fatal(buf, begin);
}

void Lexer::openBracket() {
  SourceLoc begin = loc();
  char c = peek();
  advance();
  // CPython's MAXLEVEL: its tokenizer refuses the 201st open bracket.
  if (brackets.size() >= 200)
    return fatal("too many nested parentheses", begin);
  brackets.push_back({c, begin});
  push(TokenKind::Op, std::string(1, c), begin);
}

void Lexer::closeBracket() {
  SourceLoc begin = loc();
  char c = peek();
  advance();
  if (brackets.empty())
    return fatal(std::string("unmatched '") + c + "'", begin);
  auto [open, openLoc] = brackets.back();
  brackets.pop_back();
  char expected = open == '(' ? ')' : open == '[' ? ']' : '}';
  if (c != expected) {
    std::string msg = std::string("closing parenthesis '") + c +
                      "' does not match opening parenthesis '" + open + "'";
    if (openLoc.line != begin.line)
      msg += " on line " + std::to_string(openLoc.line);
    return fatal(msg, begin);
  }
  push(TokenKind::Op, std::string(1, c), begin);
}

std::vector<Token> Lexer::run() {
  // A UTF-8 byte order mark is allowed at the start, as in CPython.
  if (src.compare(0, 3, "\xEF\xBB\xBF") == 0)
    for (int i = 0; i < 3; ++i)
      advance();
  bool atLineStart = true;
  while (true) {
    if (atLineStart) {
      // Inside brackets, a new line is a continuation: no layout.
      atLineStart = false;
      if (brackets.empty())
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
      if (brackets.empty() && lineHasTokens) {
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
      if (atNewline())
        skipNewline();
      else if (!atEnd())
        fatal("unexpected character after line continuation character", begin);
      // A continuation must continue something.
      if (atEnd())
        fatal("unexpected EOF while parsing", begin);
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
  if (!brackets.empty())
    fatalAt(std::string("'") + brackets.back().first + "' was never closed",
            brackets.back().second);
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
