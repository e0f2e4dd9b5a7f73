//===- Suggest.h - "did you mean" and PyTorch's own names -------*- C++ -*-===//
//
// Private to frontend/ and tools/kiln. A misspelled name gets the nearest
// known one, as clang and TorchScript suggest; a real PyTorch name that kiln
// lacks is said to be one, so that it does not read like the user's typo.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_SUGGEST_H
#define KILN_FRONTEND_SUGGEST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln {

/// The candidate nearest `word`, when it is near enough to be a likely
/// typo: about a third of the word's length apart at most (one edit up to
/// three letters, two up to six; a swap of two letters is two edits).
std::optional<std::string> nearestName(llvm::StringRef word,
                                       llvm::ArrayRef<std::string> candidates);

/// "; did you mean 'PREFIXname'?", or "" when no candidate is near.
std::string didYouMean(llvm::StringRef word,
                       llvm::ArrayRef<std::string> candidates,
                       llvm::StringRef prefix = "");

/// Whether `qualified` ("torch.std", "Tensor.std", "torch.nn.functional.rrelu",
/// "torch.nn.GRU", "math.gamma", "builtins.sorted") is a public name of
/// PyTorch 1.13, or of Python's math module or builtins
/// (frontend/TorchNames.inc).
bool isTorchName(llvm::StringRef qualified);

/// The names after `prefix` ("torch.", "Tensor.", "torch.nn.functional.")
/// that kiln compiles: the op table's spellings there, for suggestions.
std::vector<std::string> supportedNames(llvm::StringRef prefix);

/// The error for `qualified`, which kiln does not compile: a PyTorch name
/// kiln lacks says so; any other gets the nearest supported name.
/// `kind` is "function" or "method".
std::string unsupportedTorchName(llvm::StringRef qualified,
                                 llvm::StringRef kind);

} // namespace kiln

#endif // KILN_FRONTEND_SUGGEST_H
