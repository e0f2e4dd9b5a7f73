//===- Diagnostics.cpp ----------------------------------------------------===//
#include "frontend/Diagnostics.h"

#include "llvm/Support/ConvertUTF.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace kiln {

static bool before(SourceLoc a, SourceLoc b) {
  return a.line < b.line || (a.line == b.line && a.col < b.col);
}

SourceRange SourceRange::cover(SourceRange a, SourceRange b) {
  if (!a.begin.isValid())
    return b;
  if (!b.begin.isValid())
    return a;
  return {before(a.begin, b.begin) ? a.begin : b.begin,
          before(a.end, b.end) ? b.end : a.end};
}

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  // Python ends a line at \n, \r\n or a lone \r, and so does the lexer.
  lineStarts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i) {
    bool crlf =
        text_[i] == '\r' && i + 1 < text_.size() && text_[i + 1] == '\n';
    if ((text_[i] == '\n' || text_[i] == '\r') && !crlf && i + 1 < text_.size())
      lineStarts_.push_back(i + 1);
  }
}

std::string_view SourceFile::line(uint32_t line) const {
  if (line == 0 || line > lineStarts_.size())
    return {};
  size_t start = lineStarts_[line - 1];
  size_t end = text_.find_first_of("\r\n", start);
  if (end == std::string::npos)
    end = text_.size();
  return std::string_view(text_.data() + start, end - start);
}

Diagnostic &DiagnosticEngine::error(SourceRange range, std::string message) {
  diags_.push_back(Diagnostic{range, std::move(message), {}, current_});
  return diags_.back();
}

void DiagnosticEngine::report(Diagnostic diag) {
  if (!diag.file)
    diag.file = current_;
  diags_.push_back(std::move(diag));
}

const SourceFile &DiagnosticEngine::addFile(std::unique_ptr<SourceFile> file) {
  others_.push_back(std::move(file));
  return *others_.back();
}

size_t utf8SequenceLength(std::string_view s, size_t i) {
  if (i >= s.size() || static_cast<unsigned char>(s[i]) < 0x80)
    return 1;
  // LLVM's check follows RFC 3629: no overlong forms, no surrogates,
  // nothing past U+10FFFF.
  auto *text = reinterpret_cast<const llvm::UTF8 *>(s.data());
  return llvm::getUTF8SequenceSize(text + i, text + s.size());
}

std::string DiagnosticEngine::renderOne(const SourceFile &file,
                                        SourceRange range,
                                        std::string_view severity,
                                        std::string_view message) const {
  if (!range.begin.isValid())
    return fmt::format("{}: {}: {}\n", file.path(), severity, message);
  std::string out = fmt::format("{}:{}:{}: {}: {}\n", file.path(),
                                range.begin.line, range.begin.col, severity,
                                message);
  std::string_view text = file.line(range.begin.line);
  uint32_t startCol = std::max<uint32_t>(range.begin.col, 1);
  uint32_t endCol = range.end.line == range.begin.line
                        ? range.end.col
                        : static_cast<uint32_t>(text.size()) + 1;
  // The line is shown with control bytes and invalid UTF-8 escaped, so the
  // terminal gets printable UTF-8 only, and the caret under each byte is
  // as wide as what shows it. Tabs stay tabs to keep the caret aligned.
  std::string shown, caret;
  auto under = [&](uint32_t col, size_t width, std::string_view bytes) {
    char mark = col < startCol ? ' ' : col == startCol ? '^' : '~';
    if (col >= std::max(endCol, startCol + 1))
      mark = 0;
    if (mark == ' ' && bytes == "\t")
      caret += '\t';
    else if (mark == '^')
      caret.append(1, '^').append(width - 1, '~');
    else if (mark)
      caret.append(width, mark);
  };
  for (size_t i = 0; i < text.size();) {
    auto c = static_cast<unsigned char>(text[i]);
    size_t n = c < 0x80 ? 1 : utf8SequenceLength(text, i);
    uint32_t col = uint32_t(i + 1);
    if ((c < 0x20 && c != '\t') || c == 0x7f || n == 0) {
      shown += fmt::format("\\x{:02x}", c);
      under(col, 4, {});
      ++i;
      continue;
    }
    shown.append(text.substr(i, n));
    under(col, 1, text.substr(i, n));
    for (size_t k = 1; k < n; ++k)
      if (col + k == startCol)
        caret += '^'; // a range starting inside a character
    i += n;
  }
  if (startCol > text.size())
    caret.append(startCol - 1 - text.size(), ' ') += '^';
  return out + fmt::format("{}\n{}\n", shown, caret);
}

std::string DiagnosticEngine::render(const Diagnostic &diag) const {
  const SourceFile &file = diag.file ? *diag.file : file_;
  std::string out = renderOne(file, diag.range, "error", diag.message);
  for (const DiagnosticNote &note : diag.notes)
    out += renderOne(file, note.range, "note", note.message);
  return out;
}

std::string DiagnosticEngine::renderAll() const {
  std::string out;
  std::set<std::string> seen;
  size_t shown = 0;
  for (const Diagnostic &diag : diags_) {
    std::string text = render(diag);
    if (!seen.insert(text).second)
      continue;
    if (shown++ == kMaxErrors) {
      out += "kiln: too many errors; stopping after " +
             std::to_string(kMaxErrors) + "\n";
      break;
    }
    out += text;
  }
  return out;
}

} // namespace kiln
