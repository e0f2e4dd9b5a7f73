//===- InitInPython.h - Building an nn.Module instance in real Python ------===//
//
// `kiln compile FILE --entry Class` needs the instance that Class's
// __init__ builds: its submodules, constants and weights. Real __init__
// code is all of Python (layer factories, functools.partial, dataclass
// configs), so kiln runs it in Python with torch
// (python/kiln/_instantiate.py) and compiles from the description that
// writes (docs/module-description.md), the same one kiln.compile makes.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_TOOLS_KILN_INITINPYTHON_H
#define KILN_TOOLS_KILN_INITINPYTHON_H

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

class DiagnosticEngine;

struct InitRequest {
  /// The source file and the class to build.
  std::string file, cls;
  /// --init-arg NAME=VALUE, as given.
  std::vector<std::string> initArgs;
  /// torch.manual_seed before the file runs.
  uint64_t seed = 0;
  /// Whether to write the weights (not when --weights brings them).
  bool weights = true;
  unsigned timeoutSeconds = 300;
};

/// A temporary folder that holds the description; removed with it.
class InitFolder {
public:
  InitFolder() = default;
  InitFolder(const InitFolder &) = delete;
  InitFolder &operator=(const InitFolder &) = delete;
  ~InitFolder();
  std::string path;
};

/// Runs the class's __init__ in Python and leaves module.json (and
/// weights.safetensors) in `folder`. On failure returns false after
/// reporting: an error raised in `diags`' file is reported there, at its
/// line; any other is printed as one `kiln: error:` line.
bool instantiateInPython(const InitRequest &request, DiagnosticEngine &diags,
                         InitFolder &folder);

} // namespace kiln

#endif // KILN_TOOLS_KILN_INITINPYTHON_H
