//===- LexerTest.cpp ------------------------------------------------------===//
#include "frontend/Lexer.h"

#include <catch2/catch.hpp>

using namespace kiln;

namespace {

std::vector<Token> lex(const std::string &text,
                       std::vector<ast::SpecComment> *specs = nullptr) {
  SourceFile file("test.py", text);
  return tokenize(file, specs);
}

/// A compact rendering of the token stream: names and ops as themselves,
/// layout tokens as NL/IN/DE/EOF, literals as kind:text.
std::string shape(const std::vector<Token> &toks) {
  std::string out;
  for (const Token &t : toks) {
    if (!out.empty())
      out += ' ';
    switch (t.kind) {
    case TokenKind::Name:
    case TokenKind::Op:
      out += t.text;
      break;
    case TokenKind::Int:
      out += "int:" + std::to_string(t.intValue);
      break;
    case TokenKind::Float:
      out += "float:" + t.text;
      break;
    case TokenKind::String:
      out += "str:" + t.text;
      break;
    case TokenKind::Newline:
      out += "NL";
      break;
    case TokenKind::Indent:
      out += "IN";
      break;
    case TokenKind::Dedent:
      out += "DE";
      break;
    case TokenKind::EndOfFile:
      out += "EOF";
      break;
    case TokenKind::Error:
      out += "ERR(" + t.text + ")";
      break;
    }
  }
  return out;
}

const Token *firstError(const std::vector<Token> &toks) {
  for (const Token &t : toks)
    if (t.is(TokenKind::Error))
      return &t;
  return nullptr;
}

} // namespace

TEST_CASE("lexer: simple line and ranges", "[lexer]") {
  auto toks = lex("x = y+1\n");
  CHECK(shape(toks) == "x = y + int:1 NL EOF");
  CHECK(toks[0].range.begin.line == 1);
  CHECK(toks[0].range.begin.col == 1);
  CHECK(toks[0].range.end.col == 2);
  CHECK(toks[2].range.begin.col == 5);
  CHECK(toks[4].range.begin.col == 7);
}

TEST_CASE("lexer: indentation produces indent and dedent", "[lexer]") {
  auto toks = lex("def f():\n"
                  "    if x:\n"
                  "        return 1\n"
                  "    return 2\n"
                  "y\n");
  CHECK(shape(toks) == "def f ( ) : NL IN if x : NL IN return int:1 NL DE "
                       "return int:2 NL DE y NL EOF");
}

TEST_CASE("lexer: dedents at end of file", "[lexer]") {
  auto toks = lex("if a:\n  if b:\n    c");
  CHECK(shape(toks) == "if a : NL IN if b : NL IN c NL DE DE EOF");
}

TEST_CASE("lexer: tabs count to the next multiple of 8", "[lexer]") {
  auto toks = lex("if a:\n\tb\n\tif c:\n\t    d\n");
  CHECK(shape(toks) == "if a : NL IN b NL if c : NL IN d NL DE DE EOF");
}

// CPython measures indentation with tabs as 8 columns and as 1; where the
// two disagree about a block, the file means different things in different
// editors, and CPython raises TabError.
TEST_CASE("lexer: inconsistent tabs and spaces are fatal", "[lexer]") {
  for (const char *src :
       {"if a:\n\tb\n        c\n", "if a:\n\tif b:\n        c\n",
        "if a:\n        b\n\tc\n"}) {
    INFO(src);
    auto toks = lex(src);
    const Token *err = firstError(toks);
    REQUIRE(err);
    CHECK(err->fatal);
    CHECK(err->text == "inconsistent use of tabs and spaces in indentation");
    CHECK(err->range.begin.line == 3);
  }
}

TEST_CASE("lexer: a dedent to no outer level is fatal", "[lexer]") {
  auto toks = lex("def f(x):\n        y = x\n    return y\n");
  const Token *err = firstError(toks);
  REQUIRE(err);
  CHECK(err->fatal);
  CHECK(err->text == "unindent does not match any outer indentation level");
  CHECK(err->range.begin.line == 3);
  CHECK(err->range.begin.col == 5);
}

TEST_CASE("lexer: indentation is limited to CPython's 100 levels", "[lexer]") {
  auto nested = [](int n) {
    std::string src;
    for (int i = 0; i < n; ++i)
      src += std::string(i, ' ') + "if x:\n";
    return src + std::string(n, ' ') + "pass\n";
  };
  CHECK(firstError(lex(nested(99))) == nullptr);
  auto toks = lex(nested(100));
  const Token *err = firstError(toks);
  REQUIRE(err);
  CHECK(err->fatal);
  CHECK(err->text == "too many levels of indentation");
}

TEST_CASE("lexer: blank and comment lines emit nothing", "[lexer]") {
  auto toks = lex("a\n\n   \n  # comment\n# other\nb # trailing\n");
  CHECK(shape(toks) == "a NL b NL EOF");
}

TEST_CASE("lexer: implicit line joining inside brackets", "[lexer]") {
  auto toks = lex("f(a,\n      b,\n  [c,\n d])\ne\n");
  CHECK(shape(toks) == "f ( a , b , [ c , d ] ) NL e NL EOF");
}

TEST_CASE("lexer: indentation after a multi-line bracket", "[lexer]") {
  auto toks = lex("def f(a,\n      b):\n    return a\n");
  CHECK(shape(toks) == "def f ( a , b ) : NL IN return a NL DE EOF");
}

TEST_CASE("lexer: backslash continuation", "[lexer]") {
  auto toks = lex("x = 1 + \\\n    2\ny\n");
  CHECK(shape(toks) == "x = int:1 + int:2 NL y NL EOF");
}

TEST_CASE("lexer: inconsistent dedent is an error token", "[lexer]") {
  auto toks = lex("if a:\n    b\n  c\nd\n");
  const Token *err = firstError(toks);
  REQUIRE(err);
  CHECK(err->text == "unindent does not match any outer indentation level");
  CHECK(err->range.begin.line == 3);
  CHECK(err->range.begin.col == 3);
  // Lexing goes on and stays balanced.
  CHECK(toks.back().is(TokenKind::EndOfFile));
  int balance = 0;
  for (const Token &t : toks)
    balance += t.is(TokenKind::Indent) - t.is(TokenKind::Dedent);
  CHECK(balance == 0);
}

TEST_CASE("lexer: operators, longest match first", "[lexer]") {
  auto toks = lex("a **= b //= c >>= d <<= e ... -> := @ @= ** // != == <= "
                  ">= ~ ^ | & % ;\n");
  CHECK(shape(toks) == "a **= b //= c >>= d <<= e ... -> := @ @= ** // != == "
                       "<= >= ~ ^ | & % ; NL EOF");
}

TEST_CASE("lexer: integer literals", "[lexer]") {
  auto toks = lex("0 42 1_000 0x_ff 0o17 0b1010 9223372036854775807\n");
  CHECK(shape(toks) == "int:0 int:42 int:1000 int:255 int:15 int:10 "
                       "int:9223372036854775807 NL EOF");
}

TEST_CASE("lexer: float literals", "[lexer]") {
  auto toks = lex("1.5 1e-3 .5 5. 2E+2 1_0.0_1\n");
  REQUIRE(toks.size() == 8);
  CHECK(toks[0].floatValue == 1.5);
  CHECK(toks[1].floatValue == 1e-3);
  CHECK(toks[2].floatValue == 0.5);
  CHECK(toks[3].floatValue == 5.0);
  CHECK(toks[4].floatValue == 200.0);
  CHECK(toks[5].floatValue == 10.01);
  for (int i = 0; i < 6; ++i)
    CHECK(toks[i].is(TokenKind::Float));
}

TEST_CASE("lexer: attribute access on an int is not a float", "[lexer]") {
  CHECK(shape(lex("x[1:...]\n")) == "x [ int:1 : ... ] NL EOF");
}

TEST_CASE("lexer: string literals and escapes", "[lexer]") {
  auto toks = lex(R"('a\n' "b\"c" r'\d' u'e' '\x41\101\u00e9' 'x\qy')"
                  "\n");
  REQUIRE(toks.size() == 8);
  CHECK(toks[0].text == "a\n");
  CHECK(toks[1].text == "b\"c");
  CHECK(toks[2].text == "\\d");
  CHECK(toks[2].stringPrefix == "r");
  CHECK(toks[3].text == "e");
  CHECK(toks[3].stringPrefix == "");
  CHECK(toks[4].text == "AA\xc3\xa9");
  CHECK(toks[5].text == "x\\qy");
}

TEST_CASE("lexer: triple-quoted strings span lines", "[lexer]") {
  auto toks = lex("s = \"\"\"one\n'two'\n\"\"\"\nt\n");
  REQUIRE(toks.size() >= 4);
  CHECK(toks[2].text == "one\n'two'\n");
  CHECK(toks[2].range.begin.line == 1);
  CHECK(toks[2].range.end.line == 3);
  CHECK(shape(toks).find("NL t NL EOF") != std::string::npos);
}

TEST_CASE("lexer: string prefixes", "[lexer]") {
  auto toks = lex("f'x' b'y' rb'z' Rb'w' fr'v' bar\n");
  CHECK(toks[0].stringPrefix == "f");
  CHECK(toks[1].stringPrefix == "b");
  CHECK(toks[2].stringPrefix == "br");
  CHECK(toks[3].stringPrefix == "br");
  CHECK(toks[4].stringPrefix == "fr");
  CHECK(toks[5].is(TokenKind::Name));
  CHECK(toks[5].text == "bar");
}

TEST_CASE("lexer: error tokens", "[lexer]") {
  struct Case {
    const char *src;
    const char *msg;
    uint32_t col;
  } cases[] = {
      {"x = 'abc\n", "unterminated string literal", 5},
      {"x = '''abc\n", "unterminated triple-quoted string literal", 5},
      {"x = 1 $ 2\n", "invalid character '$'", 7},
      {"x = 1 ? 2\n", "invalid character '?'", 7},
      {"x = 99999999999999999999\n", "integer literal is too large", 5},
      {"x = 0xffffffffffffffffff\n", "integer literal is too large", 5},
      {"x = 1j\n", "complex literal is not supported", 5},
      {"x = 1.5J\n", "complex literal is not supported", 5},
      {"x = 12abc\n", "invalid decimal literal", 5},
      {"x = 0x\n", "invalid hexadecimal literal", 5},
      {"x = 1 \\ 2\n",
       "unexpected character after line continuation "
       "character",
       7},
      {"x = '\\x4'\n", "invalid escape sequence in string literal", 6},
  };
  for (const Case &c : cases) {
    INFO(c.src);
    auto toks = lex(c.src);
    const Token *err = firstError(toks);
    REQUIRE(err);
    CHECK(err->text == c.msg);
    CHECK(err->range.begin.line == 1);
    CHECK(err->range.begin.col == c.col);
    CHECK(toks.back().is(TokenKind::EndOfFile));
  }
}

// Every error token is either fatal (CPython's tokenizer rejects the text,
// so the file is not Python) or valid Python that kiln does not support.
TEST_CASE("lexer: fatal and unsupported errors", "[lexer]") {
  struct Case {
    std::string src;
    const char *msg;
    uint32_t line, col;
    bool fatal;
  } cases[] = {
      {std::string("x = 1 # a\0b\n", 12),
       "source code cannot contain null bytes", 1, 10, true},
      {std::string("x = 'a\0b'\n", 11), "source code cannot contain null bytes",
       1, 7, true},
      {std::string("x = \0\n", 6), "source code cannot contain null bytes", 1,
       5, true},
      {"def f\xff(x):\n",
       "byte 0xff is not valid UTF-8; Python source "
       "files must be UTF-8",
       1, 6, true},
      {"x = 'a\xc3('\n",
       "byte 0xc3 is not valid UTF-8; Python source "
       "files must be UTF-8",
       1, 7, true},
      {"x = 1  # \xed\xa0\x80 surrogate\n",
       "byte 0xed is not valid UTF-8; Python source files must be UTF-8", 1, 10,
       true},
      {"x = \xc0\x80\n",
       "byte 0xc0 is not valid UTF-8; Python source "
       "files must be UTF-8",
       1, 5, true},
      {"x = 1 + \\", "unexpected EOF while parsing", 1, 9, true},
      {"x = 1 + \\\n", "unexpected EOF while parsing", 1, 9, true},
      {"x = )\n", "unmatched ')'", 1, 5, true},
      {"x = (]\n",
       "closing parenthesis ']' does not match opening "
       "parenthesis '('",
       1, 6, true},
      {"x = (1,\n 2]\n",
       "closing parenthesis ']' does not match opening "
       "parenthesis '(' on line 1",
       2, 3, true},
      {"x = [(1,\n", "'(' was never closed", 1, 6, true},
      {"x = 1jabc\n", "invalid imaginary literal", 1, 5, true},
      {"x = 007\n",
       "leading zeros in decimal integer literals are not "
       "permitted; use an 0o prefix for octal integers",
       1, 5, true},
      {"x = b'\xc3\xa9'\n", "bytes can only contain ASCII literal characters",
       1, 7, true},
      {"x = '\\N'\n", "malformed \\N character escape", 1, 6, true},
      {"x = 1 \x01 2\n", "invalid non-printable character U+0001", 1, 7, true},
      {"caf\xc3\xa9 = 1\n", "non-ASCII identifiers are not supported", 1, 1,
       false},
      {"x = '\\N{DASH}'\n", "\\N{...} escapes are not supported", 1, 5, false},
      {"x = 1j\n", "complex literal is not supported", 1, 5, false},
      {"x = 99999999999999999999\n", "integer literal is too large", 1, 5,
       false},
  };
  for (const Case &c : cases) {
    INFO(c.src);
    auto toks = lex(c.src);
    const Token *err = firstError(toks);
    REQUIRE(err);
    CHECK(err->text == c.msg);
    CHECK(err->range.begin.line == c.line);
    CHECK(err->range.begin.col == c.col);
    CHECK(err->fatal == c.fatal);
    CHECK(toks.back().is(TokenKind::EndOfFile));
  }
}

TEST_CASE("lexer: valid Python that looks odd is accepted", "[lexer]") {
  for (const char *src :
       {"x = 1if y else 2\n", "x = 0x1for y in z\n", "\xef\xbb\xbfx = 1\n",
        "x = b'\\u12'\n",
        "x = 'caf\xc3\xa9 \xf0\x9f\x94\xa5'  # \xe2\x82\xac\n",
        "x = r'\\N'\n"}) {
    INFO(src);
    CHECK(firstError(lex(src)) == nullptr);
  }
  CHECK(shape(lex("x = 1if y else 2\n")) == "x = int:1 if y else int:2 NL EOF");
}

// CPython's MAXLEVEL is 200: the 201st open bracket is an error.
TEST_CASE("lexer: brackets nest 200 deep", "[lexer]") {
  auto nested = [](int n) {
    return "x = " + std::string(n, '(') + "1" + std::string(n, ')') + "\n";
  };
  CHECK(firstError(lex(nested(200))) == nullptr);
  auto toks = lex(nested(201));
  const Token *err = firstError(toks);
  REQUIRE(err);
  CHECK(err->fatal);
  CHECK(err->text == "too many nested parentheses");
  CHECK(err->range.begin.col == 5 + 200);
}

TEST_CASE("lexer: a lone CR ends a line", "[lexer]") {
  auto toks = lex("if a:\r    b = 1\r\r\nc\r");
  CHECK(shape(toks) == "if a : NL IN b = int:1 NL DE c NL EOF");
  CHECK(toks[7].range.begin.line == 2);
  CHECK(toks[10].range.begin.line == 4);
  SourceFile file("cr.py", "a\rbb\r\nccc\nd");
  CHECK(file.numLines() == 4);
  CHECK(file.line(2) == "bb");
  CHECK(file.line(3) == "ccc");
  CHECK(file.line(4) == "d");
}

TEST_CASE("lexer: lexing continues after an error", "[lexer]") {
  auto toks = lex("a = 'x\nb = 2\n");
  CHECK(shape(toks) ==
        "a = ERR(unterminated string literal) NL b = int:2 NL EOF");
}

TEST_CASE("lexer: spec comments are collected", "[lexer]") {
  std::vector<ast::SpecComment> specs;
  auto toks = lex("# kiln: x=f32[B,784], h=f32[B,20]  \n"
                  "#kiln:y=i64[]\n"
                  "# not a spec: kiln: z\n"
                  "def f(x):  # kiln:   w=f16[3]\n"
                  "    pass\n",
                  &specs);
  REQUIRE(specs.size() == 3);
  CHECK(specs[0].text == "x=f32[B,784], h=f32[B,20]");
  CHECK(specs[0].range.begin.line == 1);
  CHECK(specs[0].range.begin.col == 9);
  CHECK(specs[0].range.end.col == 34);
  CHECK(specs[1].text == "y=i64[]");
  CHECK(specs[1].range.begin.col == 7);
  CHECK(specs[2].text == "w=f16[3]");
  CHECK(specs[2].range.begin.line == 4);
  CHECK(shape(toks) == "def f ( x ) : NL IN pass NL DE EOF");
}

TEST_CASE("lexer: CRLF line endings", "[lexer]") {
  auto toks = lex("if a:\r\n    b\r\nc\r\n");
  CHECK(shape(toks) == "if a : NL IN b NL DE c NL EOF");
  CHECK(toks.back().range.begin.line == 4);
}

TEST_CASE("lexer: keywords are names", "[lexer]") {
  auto toks = lex("if not x is None\n");
  CHECK(toks[0].isKeyword());
  CHECK(toks[1].isKeyword());
  CHECK_FALSE(toks[2].isKeyword());
  CHECK(toks[4].isName("None"));
}

TEST_CASE("lexer: never fails on garbage", "[lexer]") {
  std::string garbage;
  uint32_t seed = 12345;
  for (int i = 0; i < 20000; ++i) {
    seed = seed * 1103515245 + 12345;
    garbage += char((seed >> 16) & 0xff);
  }
  for (size_t len : {size_t(0), size_t(1), size_t(7), size_t(100), size_t(5000),
                     garbage.size()}) {
    auto toks = lex(garbage.substr(0, len));
    REQUIRE(!toks.empty());
    CHECK(toks.back().is(TokenKind::EndOfFile));
  }
}
