//===- Diagnostics.cpp ----------------------------------------------------===//
#include "frontend/Diagnostics.h"

#include <algorithm>

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
    bool crlf = text_[i] == '\r' && i + 1 < text_.size() && text_[i + 1] == '\n';
    if ((text_[i] == '\n' || text_[i] == '\r') && !crlf &&
        i + 1 < text_.size())
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
  diags_.push_back(Diagnostic{range, std::move(message), {}});
  return diags_.back();
}

std::string DiagnosticEngine::renderOne(SourceRange range,
                                        std::string_view severity,
                                        std::string_view message) const {
  std::string out = file_.path();
  if (range.begin.isValid())
    out += ":" + std::to_string(range.begin.line) + ":" +
           std::to_string(range.begin.col);
  out += ": ";
  out += severity;
  out += ": ";
  out += message;
  out += "\n";
  if (!range.begin.isValid())
    return out;
  std::string_view text = file_.line(range.begin.line);
  // Tabs are kept in the caret line so the caret stays aligned.
  std::string caret;
  uint32_t startCol = std::max<uint32_t>(range.begin.col, 1);
  for (uint32_t c = 1; c < startCol; ++c)
    caret += (c - 1 < text.size() && text[c - 1] == '\t') ? '\t' : ' ';
  uint32_t endCol = range.end.line == range.begin.line
                        ? range.end.col
                        : static_cast<uint32_t>(text.size()) + 1;
  caret += '^';
  for (uint32_t c = startCol + 1; c < endCol; ++c)
    caret += '~';
  out += text;
  out += "\n";
  out += caret;
  out += "\n";
  return out;
}

std::string DiagnosticEngine::render(const Diagnostic &diag) const {
  std::string out = renderOne(diag.range, "error", diag.message);
  for (const DiagnosticNote &note : diag.notes)
    out += renderOne(note.range, "note", note.message);
  return out;
}

std::string DiagnosticEngine::renderAll() const {
  std::string out;
  for (const Diagnostic &diag : diags_)
    out += render(diag);
  return out;
}

} // namespace kiln
