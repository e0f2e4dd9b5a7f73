//===- Suggest.cpp - "did you mean" and PyTorch's own names ---------------===//
//
// Nearness is LLVM's edit distance (StringRef::edit_distance, the one
// clang's typo correction uses), bounded so that only likely typos are
// suggested. PyTorch's names come from tools/names/gen_torch_names.py,
// run against Debian's python3-torch; test/frontend/torch-names.test
// checks that the list matches the installed torch.
//
//===----------------------------------------------------------------------===//
#include "frontend/Suggest.h"

#include "frontend/OpTable.h"

#include "llvm/ADT/StringSet.h"

namespace kiln {

std::optional<std::string> nearestName(llvm::StringRef word,
                                       llvm::ArrayRef<std::string> candidates) {
  unsigned limit = std::max<unsigned>(1, (word.size() + 2) / 3);
  std::optional<std::string> best;
  unsigned bestDistance = limit + 1;
  for (const std::string &c : candidates) {
    if (c == word)
      continue;
    unsigned d = word.edit_distance(c, /*AllowReplacements=*/true, limit);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best;
}

std::string didYouMean(llvm::StringRef word,
                       llvm::ArrayRef<std::string> candidates,
                       llvm::StringRef prefix) {
  std::optional<std::string> near = nearestName(word, candidates);
  return near ? "; did you mean '" + prefix.str() + *near + "'?" : "";
}

bool isTorchName(llvm::StringRef qualified) {
  static const llvm::StringSet<> names = [] {
    llvm::StringSet<> s;
    for (const char *n : {
#include "frontend/TorchNames.inc"
         })
      s.insert(n);
    return s;
  }();
  return names.contains(qualified);
}

std::vector<std::string> supportedNames(llvm::StringRef prefix) {
  ops::Spelling s = prefix == "Tensor."                ? ops::Method
                    : prefix == "torch.nn.functional." ? ops::Functional
                    : prefix == "math."                ? ops::Math
                                                       : ops::Torch;
  std::vector<std::string> out;
  for (const ops::Row &row : ops::allRows()) {
    if (!(row.spellings & s))
      continue;
    out.push_back(row.schema().name);
    if (s == ops::Method && (row.spellings & ops::InPlace))
      out.push_back(row.schema().name + "_");
    for (const char *alias : row.aliases)
      out.push_back(alias);
  }
  return out;
}

std::string unsupportedTorchName(llvm::StringRef qualified,
                                 llvm::StringRef kind) {
  if (isTorchName(qualified))
    return "'" + qualified.str() + "' is a PyTorch " + kind.str() +
           " that kiln does not support yet";
  auto [prefix, name] = qualified.rsplit('.');
  std::string dotted = prefix.str() + ".";
  return "'" + qualified.str() + "' is not a PyTorch " + kind.str() +
         didYouMean(name, supportedNames(dotted), dotted);
}

} // namespace kiln
