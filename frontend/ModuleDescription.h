//===- ModuleDescription.h - nn.Module instances described by Python -*- C++
//-*-===//
//
// A module description (docs/module-description.md) is what Python writes
// after it has run a model's __init__: the module tree, each module's
// class, constant attributes, children and weights. kiln builds its
// ModuleObject tree from it instead of interpreting __init__, so any
// __init__ that Python can run is compiled.
//
// Reading is two steps: parseModuleDescription checks the JSON alone (no
// source, no MLIR), so that a malformed file is refused before anything
// else; buildDescribedModule then binds its classes to the parsed source
// and declares the weights.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_FRONTEND_MODULEDESCRIPTION_H
#define KILN_FRONTEND_MODULEDESCRIPTION_H

#include "frontend/ModuleObject.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kiln {

class ModuleLowering;

/// The format version this compiler reads.
inline constexpr int kModuleDescriptionVersion = 1;

struct DescribedTensor {
  std::string name;
  /// A torch dtype name without "torch.": "float32", "int64", ...
  std::string dtype;
  std::vector<int64_t> shape;
  bool persistent = true;
  /// Tied to an earlier weight (its state_dict() name): no values of its own.
  std::string sameAs;
};

struct DescribedModule {
  /// Its state_dict() prefix without the final dot: "" for the root.
  std::string path;
  /// torch.nn's own class ("Linear"), or empty for a user class.
  std::string torchClass;
  /// A user class: its source file and qualified name, and the nearest
  /// torch.nn class it derives from ("Sequential"), if any.
  std::string file, qualname, torchBase;
  std::vector<std::pair<std::string, ConstValue>> attributes;
  std::vector<DescribedTensor> parameters, buffers;
  /// Name and the path of the module it names, in registration order.
  std::vector<std::pair<std::string, std::string>> children;
  /// Attributes Python could not describe (a function, a config object),
  /// with what they were, for error messages.
  std::vector<std::pair<std::string, std::string>> opaque;
  /// Where the source created it (`self.fc = nn.Linear(...)`), if known:
  /// errors about its weights point there.
  std::string sourceFile;
  SourceRange source;
};

struct ModuleDescription {
  int version = 0;
  /// The weights file, as written in the description (relative to it).
  std::string weights;
  /// modules[0] is the root.
  std::vector<DescribedModule> modules;
};

/// Checks and reads a description's JSON; returns "" or an error naming
/// the field at fault ("modules[2].parameters[0].shape: ...").
std::string parseModuleDescription(llvm::StringRef text,
                                   ModuleDescription &out);

/// Builds the instance of `root` that the description describes, declaring
/// its weights on `m`; null after reporting an error.
std::shared_ptr<ModuleObject>
buildDescribedModule(ModuleLowering &m, const ModuleDescription &description,
                     const ast::ClassDef &root);

} // namespace kiln

#endif // KILN_FRONTEND_MODULEDESCRIPTION_H
