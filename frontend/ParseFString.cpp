//===- ParseFString.cpp - The replacement fields of an f-string -----------===//
//
// The lexer reads an f-string as one String token; here its raw source is
// split into literal text and `{expr!conversion:spec}` fields. Each field's
// expression is parsed from a copy of the file in which everything but the
// expression is blanked, so that its nodes carry their real lines and
// columns and an error inside a field points at it.
//
//===----------------------------------------------------------------------===//
#include "frontend/Parser.h"
#include "frontend/ParserImpl.h"

namespace kiln::detail {

using namespace ast;

namespace {

/// The byte offset of `loc` in `file`'s text.
size_t offsetOf(const SourceFile &file, SourceLoc loc) {
  std::string_view line = file.line(loc.line);
  return size_t(line.data() - file.text().data()) + loc.col - 1;
}

/// The location of byte `offset` of `file`, whose text up to `from` (at
/// `fromLoc`) is known.
SourceLoc locOf(const std::string &text, size_t from, SourceLoc fromLoc,
                size_t offset) {
  SourceLoc l = fromLoc;
  for (size_t i = from; i < offset; ++i) {
    if (text[i] == '\n') {
      ++l.line;
      l.col = 1;
    } else {
      ++l.col;
    }
  }
  return l;
}

/// Decodes the escapes of a literal part (a raw f-string keeps them). The
/// lexer has already refused malformed escapes in the token.
std::string decode(std::string_view raw, bool isRaw) {
  if (isRaw)
    return std::string(raw);
  std::string out;
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c != '\\' || i + 1 == raw.size()) {
      out += c;
      continue;
    }
    char e = raw[++i];
    switch (e) {
    case 'n': out += '\n'; break;
    case 't': out += '\t'; break;
    case 'r': out += '\r'; break;
    case '0': out += '\0'; break;
    case '\\': case '\'': case '"': out += e; break;
    case '\n': break; // a line continuation
    default: out += '\\'; out += e; break;
    }
  }
  return out;
}

} // namespace

bool Parser::parseFStringToken(const Token &t,
                               std::vector<FStringExpr::Part> &parts) {
  const std::string &text = file.text();
  size_t begin = offsetOf(file, t.range.begin);
  size_t end = offsetOf(file, t.range.end);
  size_t q = begin + t.stringPrefix.size();
  size_t quoteLen = text.compare(q, 3, std::string(3, text[q])) == 0 ? 3 : 1;
  size_t body = q + quoteLen, bodyEnd = end - quoteLen;
  bool isRaw = t.stringPrefix.find('r') != std::string::npos;
  auto at = [&](size_t off) {
    SourceLoc l = locOf(text, begin, t.range.begin, off);
    return SourceRange(l, SourceLoc{l.line, l.col + 1});
  };
  std::string literal;
  size_t litStart = body;
  auto flushLiteral = [&](size_t upTo) {
    literal += decode(std::string_view(text).substr(litStart, upTo - litStart),
                      isRaw);
  };
  for (size_t i = body; i < bodyEnd; ++i) {
    char c = text[i];
    if ((c == '{' || c == '}') && i + 1 < bodyEnd && text[i + 1] == c) {
      flushLiteral(i + 1); // keeps one brace
      litStart = ++i + 1;
      continue;
    }
    if (c == '}')
      return fail(at(i), "f-string: single '}' is not allowed"), false;
    if (c != '{')
      continue;
    flushLiteral(i);
    if (!literal.empty())
      parts.push_back({std::move(literal), nullptr, 0, ""});
    literal.clear();
    // The expression ends at a `!`, `:` or `}` outside brackets and quotes.
    size_t j = i + 1;
    int depth = 0;
    char quote = 0;
    for (; j < bodyEnd; ++j) {
      char d = text[j];
      if (quote) {
        if (d == quote)
          quote = 0;
      } else if (d == '\'' || d == '"') {
        quote = d;
      } else if (d == '(' || d == '[' || d == '{') {
        ++depth;
      } else if (depth > 0 && (d == ')' || d == ']' || d == '}')) {
        --depth;
      } else if (depth == 0 &&
                 (d == '}' || d == ':' || (d == '!' && text[j + 1] != '='))) {
        break;
      }
    }
    if (j >= bodyEnd)
      return fail(at(i), "f-string: expecting '}'"), false;
    // Parse the expression in place: a blank copy of the file, with the
    // field's braces as parentheses so that indentation does not matter.
    std::string blank(text.size(), ' ');
    for (size_t k = 0; k < text.size(); ++k)
      if (text[k] == '\n')
        blank[k] = '\n';
    blank[i] = '(';
    blank.replace(i + 1, j - i - 1, text, i + 1, j - i - 1);
    blank[j] = ')';
    SourceFile sub(file.path(), std::move(blank));
    ParseResult<ExprPtr> e = parseExpression(sub);
    if (!e.ok())
      return fail(e.error->range, "f-string: " + e.error->message), false;
    FStringExpr::Part part{"", std::move(e.value), 0, ""};
    if (text[j] == '!') {
      part.conversion = text[j + 1];
      if (part.conversion != 'r' && part.conversion != 's' &&
          part.conversion != 'a')
        return fail(at(j), "f-string: invalid conversion character: "
                           "expected 's', 'r', or 'a'"),
               false;
      j += 2;
    }
    if (text[j] == ':') {
      size_t k = j + 1;
      while (k < bodyEnd && text[k] != '}' && text[k] != '{')
        ++k;
      if (k >= bodyEnd || text[k] == '{')
        return fail(at(k < bodyEnd ? k : j),
                    "f-string: a format spec with replacement fields of its "
                    "own is not supported"),
               false;
      part.spec = text.substr(j + 1, k - j - 1);
      j = k;
    }
    if (text[j] != '}')
      return fail(at(j), "f-string: expecting '}'"), false;
    parts.push_back(std::move(part));
    i = j;
    litStart = j + 1;
  }
  flushLiteral(bodyEnd);
  if (!literal.empty())
    parts.push_back({std::move(literal), nullptr, 0, ""});
  return true;
}

} // namespace kiln::detail
