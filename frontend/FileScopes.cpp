//===- FileScopes.cpp - Classes from other source files -------------------===//
//
// A model's classes often live in several files (torchvision's resnet.py
// imports its blocks, a project keeps layers.py beside model.py). Python
// has run them all, and the module description names each class's file;
// kiln parses each such file once and lowers its methods with that file's
// globals (its imports, helpers and classes), its path in locations, and
// its text in error messages.
//
//===----------------------------------------------------------------------===//

#include "frontend/LoweringImpl.h"
#include "frontend/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

namespace kiln {

/// As for the compiled file (CompileCommand.cpp): far beyond any model
/// file, and never a threat to memory.
constexpr uint64_t kMaxOtherSourceBytes = 16u << 20;

FileScope *ModuleLowering::loadFile(const std::string &path) {
  for (const std::unique_ptr<FileScope> &f : files)
    if (llvm::sys::fs::equivalent(f->source->path(), path))
      return f.get();
  uint64_t size = 0;
  if (!llvm::sys::fs::is_regular_file(path) ||
      llvm::sys::fs::file_size(path, size) || size > kMaxOtherSourceBytes) {
    diags.error({}, "'" + path +
                        "', a source file of the model's classes, is not a "
                        "regular file of at most 16 MiB");
    return nullptr;
  }
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    diags.error({}, "cannot read '" + path +
                        "', a source file of the model's classes: " +
                        buffer.getError().message());
    return nullptr;
  }
  auto scope = std::make_unique<FileScope>();
  scope->source = &diags.addFile(
      std::make_unique<SourceFile>(path, (*buffer)->getBuffer().str()));
  scope->ast = parseModule(*scope->source);
  scope->fileName = mlir::StringAttr::get(&context, path);
  Globals globals;
  collectGlobals(scope->ast, globals);
  scope->functions = std::move(globals.functions);
  scope->classes = std::move(globals.classes);
  scope->imports = std::move(globals.imports);
  for (const ast::SkippedItem &s : scope->ast.skipped)
    if (!s.name.empty())
      scope->skipped[s.name] = &s;
  FileScope *raw = scope.get();
  for (const ast::StmtPtr &item : raw->ast.items) {
    definedIn[item.get()] = raw;
    if (auto *cls = llvm::dyn_cast<ast::ClassDef>(item.get()))
      for (const ast::StmtPtr &s : cls->body)
        definedIn[s.get()] = raw;
  }
  files.push_back(std::move(scope));
  return raw;
}

FileScope *ModuleLowering::fileOf(const void *node) const {
  auto it = definedIn.find(node);
  return it == definedIn.end() ? nullptr : it->second;
}

void ModuleLowering::switchTo(FileScope *file) {
  if (!mainStorage)
    mainStorage = std::make_unique<FileScope>();
  // The active file's names go back to its storage, the new one's come out.
  for (FileScope *s : {activeFile ? activeFile : mainStorage.get(),
                       file ? file : mainStorage.get()}) {
    std::swap(functions, s->functions);
    std::swap(classes, s->classes);
    std::swap(imports, s->imports);
    std::swap(skipped, s->skipped);
    std::swap(fileName, s->fileName);
  }
  activeFile = file;
  diags.setCurrentFile(file ? file->source : nullptr);
}

FileSwap::FileSwap(ModuleLowering &m, const void *node)
    : m(m), previous(m.activeFile) {
  FileScope *target = m.fileOf(node);
  // Prelude code has globals of its own and never calls user code.
  if (m.activePrelude || target == previous)
    return;
  m.switchTo(target);
  swapped = true;
}

FileSwap::~FileSwap() {
  if (swapped)
    m.switchTo(previous);
}

} // namespace kiln
