//===- Diagnostics.h - Source files and clang-style error reports ---------===//
//
// Every user-facing compile error in kiln is a Diagnostic: a message, the
// source range it blames, and notes for every other location that took part.
// Rendering follows clang and TorchScript:
//
//   model.py:12:9: error: message
//       y = x + 1
//           ^~~~~
//
// Errors are values collected here; nothing throws.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_DIAGNOSTICS_H
#define KILN_FRONTEND_DIAGNOSTICS_H

#include <cstdint>
#include <string>
#include <string_view>
#include <memory>
#include <vector>

namespace kiln {

/// A 1-based line and column. Column counts bytes, like clang.
struct SourceLoc {
  uint32_t line = 0;
  uint32_t col = 0;
  bool isValid() const { return line != 0; }
};

/// A half-open range [begin, end) of source text.
struct SourceRange {
  SourceLoc begin;
  SourceLoc end;
  SourceRange() = default;
  SourceRange(SourceLoc b, SourceLoc e) : begin(b), end(e) {}
  /// The smallest range covering both.
  static SourceRange cover(SourceRange a, SourceRange b);
};

/// A file's text with a line index.
class SourceFile {
public:
  SourceFile(std::string path, std::string text);
  const std::string &path() const { return path_; }
  const std::string &text() const { return text_; }
  /// The text of a 1-based line, without its newline. Empty if out of range.
  std::string_view line(uint32_t line) const;
  uint32_t numLines() const { return lineStarts_.size(); }

private:
  std::string path_;
  std::string text_;
  std::vector<size_t> lineStarts_;
};

/// The length of the well-formed UTF-8 sequence at `s[i]`, or 0 where there
/// is none: a stray continuation byte, an overlong form, a surrogate, a code
/// point past U+10FFFF or a truncated sequence, all of which Python's decoder
/// refuses.
size_t utf8SequenceLength(std::string_view s, size_t i);

struct DiagnosticNote {
  SourceRange range;
  std::string message;
};

struct Diagnostic {
  SourceRange range;
  /// Lower case, no trailing period.
  std::string message;
  std::vector<DiagnosticNote> notes;
  /// The file the ranges are in; null for the engine's own file.
  const SourceFile *file = nullptr;
};

/// Collects diagnostics for a source file, and for the other files its
/// classes come from, and renders them.
class DiagnosticEngine {
public:
  explicit DiagnosticEngine(const SourceFile &file) : file_(file) {}

  /// Records an error in the current file and returns it so callers can
  /// attach notes.
  Diagnostic &error(SourceRange range, std::string message);
  /// Records a diagnostic; one without a file is in the current file.
  void report(Diagnostic diag);

  /// Keeps another file for the diagnostics that point into it.
  const SourceFile &addFile(std::unique_ptr<SourceFile> file);
  /// The file that error() and report() blame: null for the engine's own.
  /// Returns the previous one.
  const SourceFile *setCurrentFile(const SourceFile *file) {
    std::swap(file, current_);
    return file;
  }

  bool hasErrors() const { return !diags_.empty(); }
  /// Whether more errors were found than are shown, so that looking for
  /// more is wasted, as clang stops past -ferror-limit.
  bool tooMany() const { return diags_.size() > kMaxErrors; }
  const std::vector<Diagnostic> &diagnostics() const { return diags_; }
  const SourceFile &file() const { return file_; }

  /// "path:line:col: error: msg", the source line and a caret range, then
  /// each note the same way.
  std::string render(const Diagnostic &diag) const;
  /// Every distinct error (a helper that fails for two callers reports
  /// once), up to kMaxErrors.
  std::string renderAll() const;

  static constexpr size_t kMaxErrors = 20;

private:
  std::string renderOne(const SourceFile &file, SourceRange range,
                        std::string_view severity,
                        std::string_view message) const;
  const SourceFile &file_;
  const SourceFile *current_ = nullptr;
  std::vector<std::unique_ptr<SourceFile>> others_;
  std::vector<Diagnostic> diags_;
};

} // namespace kiln

#endif // KILN_FRONTEND_DIAGNOSTICS_H
