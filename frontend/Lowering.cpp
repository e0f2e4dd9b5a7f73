//===- Lowering.cpp - Entry points, specs and helper specialization -------===//
//
// Module-level half of the lowering. It decides what to compile (only what
// the entry points reach), gives every tensor argument its type from the
// `--arg` flags or `# kiln:` comments, and specializes plain helper functions
// per call signature, as TorchScript compiles the helpers a script calls.
// Lowering a function's body is LowerFunction.cpp's.
//
//===----------------------------------------------------------------------===//
#include "frontend/LoweringImpl.h"
#include "frontend/Suggest.h"

#include "frontend/AstPrinter.h"
#include "frontend/ModuleDescription.h"
#include "frontend/Prelude.h"
#include "ir/KilnDialect.h"
#include "ir/ShapeInference.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;

namespace kiln {

void loadFrontendDialects(MLIRContext &context) {
  context.loadDialect<KilnDialect, func::FuncDialect, arith::ArithDialect,
                      scf::SCFDialect, tensor::TensorDialect>();
}

//===----------------------------------------------------------------------===//
// ModuleLowering
//===----------------------------------------------------------------------===//

ModuleLowering::ModuleLowering(MLIRContext &context, const ast::Module &module,
                               DiagnosticEngine &diags,
                               const LoweringOptions &options)
    : context(context), ast(module), diags(diags), options(options) {
  fileName = StringAttr::get(&context, diags.file().path());
}

/// Renders a decorator such as `torch.jit.script` as a dotted name.
static std::string dottedName(const ast::Expr &e) {
  if (auto *n = llvm::dyn_cast<ast::NameExpr>(&e))
    return n->id;
  if (auto *a = llvm::dyn_cast<ast::AttributeExpr>(&e)) {
    std::string base = dottedName(*a->value);
    return base.empty() ? "" : base + "." + a->attr;
  }
  if (auto *c = llvm::dyn_cast<ast::CallExpr>(&e))
    return dottedName(*c->func) + "(...)";
  return "";
}

std::optional<PyValue> ModuleLowering::lookupGlobal(const std::string &name) {
  if (auto it = functions.find(name); it != functions.end())
    return PyValue::function(it->second);
  if (auto it = imports.find(name); it != imports.end())
    return PyValue::global(it->second);
  static const char *const builtins[] = {
      "range", "len", "print", "float",     "int", "bool",
      "min",   "max", "abs",   "enumerate", "zip", "isinstance",
      "round", "sum", "list",  "tuple",     "reversed", "any", "all",
      "getattr"};
  for (const char *builtin : builtins)
    if (name == builtin)
      return PyValue::global(std::string("builtins.") + builtin);
  // TorchScript's typing names are usable without an import.
  if (name == "Tensor" || name == "List" || name == "Tuple" ||
      name == "Optional")
    return PyValue::global("typing." + name);
  return std::nullopt;
}

/// Resolves the full dotted path of a decorator through the import table.
static std::string resolveDecorator(ModuleLowering &m, const ast::Expr &e) {
  std::string name = dottedName(e);
  size_t dot = name.find('.');
  std::string head = name.substr(0, dot);
  if (auto it = m.imports.find(head); it != m.imports.end())
    return it->second + (dot == std::string::npos ? "" : name.substr(dot));
  return name;
}

std::string resolveGlobalName(ModuleLowering &m, const ast::Expr &e) {
  return resolveDecorator(m, e);
}

static bool isScriptDecorator(ModuleLowering &m, const ast::Expr &e) {
  return resolveDecorator(m, e) == "torch.jit.script";
}

/// Checks the decorators of a function that is about to be compiled.
static bool checkDecorators(ModuleLowering &m, const ast::FunctionDef &def) {
  for (const ast::ExprPtr &d : def.decorators) {
    if (isScriptDecorator(m, *d))
      continue;
    std::string name = dottedName(*d);
    m.diags.error(d->range,
                  "decorator '@" + name +
                      "' is not supported; only @torch.jit.script is");
    return false;
  }
  return true;
}

std::vector<const ast::FunctionDef *>
entryMethods(ModuleLowering &m, const ast::ClassDef &cls) {
  std::vector<const ast::FunctionDef *> out;
  for (const ast::StmtPtr &s : cls.body) {
    auto *f = llvm::dyn_cast<ast::FunctionDef>(s.get());
    if (!f)
      continue;
    // TorchScript compiles forward, @torch.jit.export methods and (on a
    // ScriptModule) @torch.jit.script_method ones as callable methods.
    bool entry = f->name == "forward";
    for (const ast::ExprPtr &d : f->decorators) {
      std::string name = resolveDecorator(m, *d);
      entry |= name == "torch.jit.export" || name == "torch.jit.script_method";
    }
    if (entry)
      out.push_back(f);
  }
  return out;
}

void collectGlobals(const ast::Module &module, Globals &out) {
  for (const ast::StmtPtr &item : module.items) {
    if (auto *f = llvm::dyn_cast<ast::FunctionDef>(item.get()))
      out.functions[f->name] = f;
    else if (auto *c = llvm::dyn_cast<ast::ClassDef>(item.get()))
      out.classes[c->name] = c;
    else if (auto *imp = llvm::dyn_cast<ast::ImportStmt>(item.get())) {
      for (const ast::ImportAlias &a : imp->names) {
        if (imp->module.empty()) {
          // `import torch.nn` binds `torch`; `import torch.nn as nn` binds nn.
          if (a.asname.empty())
            out.imports[a.name.substr(0, a.name.find('.'))] =
                a.name.substr(0, a.name.find('.'));
          else
            out.imports[a.asname] = a.name;
        } else {
          out.imports[a.asname.empty() ? a.name : a.asname] =
              imp->module + "." + a.name;
        }
      }
    }
  }
}

mlir::OwningOpRef<ModuleOp> ModuleLowering::run() {
  OpBuilder b(&context);
  module = ModuleOp::create(FileLineColLoc::get(fileName, 1, 1));
  OwningOpRef<ModuleOp> owned(module);
  module->setAttr("kiln.source", fileName);

  Globals globals;
  collectGlobals(ast, globals);
  functions = std::move(globals.functions);
  classes = std::move(globals.classes);
  imports = std::move(globals.imports);
  for (const ast::SkippedItem &s : ast.skipped)
    if (!s.name.empty())
      skipped[s.name] = &s;

  // Decide the entry points: functions, or the methods of a module class.
  struct Entry {
    const ast::FunctionDef *def;
    const ModuleObject *self = nullptr;
  };
  std::vector<Entry> entries;
  bool ok = true;
  if (options.entries.empty()) {
    for (const ast::StmtPtr &item : ast.items)
      if (auto *f = llvm::dyn_cast<ast::FunctionDef>(item.get()))
        if (llvm::any_of(f->decorators, [&](const ast::ExprPtr &d) {
              return isScriptDecorator(*this, *d);
            }))
          entries.push_back({f});
    for (const ast::SkippedItem &s : ast.skipped)
      if (s.isScript) {
        diags.report(s.error);
        ok = false;
      }
    if (entries.empty() && ok) {
      diags.error({}, "no @torch.jit.script function to compile in '" +
                          diags.file().path() +
                          "'; decorate one or pass --entry NAME (a function or an "
                          "nn.Module class)");
      return nullptr;
    }
  } else {
    for (const std::string &name : options.entries) {
      if (auto it = functions.find(name); it != functions.end()) {
        entries.push_back({it->second});
      } else if (auto it = skipped.find(name); it != skipped.end()) {
        diags.report(it->second->error);
        ok = false;
      } else if (auto it = classes.find(name); it != classes.end()) {
        // The kiln driver has Python build the instance first
        // (tools/kiln/InitInPython.h).
        if (!options.description) {
          diags.error(it->second->nameRange,
                      "compiling the class '" + name +
                          "' needs its instance, built by Python: a module "
                          "description");
          return nullptr;
        }
        std::shared_ptr<ModuleObject> root =
            buildDescribedModule(*this, *options.description, *it->second);
        if (!root)
          return nullptr;
        roots.push_back(root);
        std::vector<const ast::FunctionDef *> methods =
            entryMethods(*this, *it->second);
        if (methods.empty()) {
          diags.error(it->second->nameRange,
                      "'" + name + "' has no forward method to compile");
          return nullptr;
        }
        for (const ast::FunctionDef *method : methods)
          entries.push_back({method, root.get()});
      } else {
        std::vector<std::string> known;
        for (const auto &[n, def] : functions)
          known.push_back(n);
        for (const auto &[n, cls] : classes)
          known.push_back(n);
        diags.error({}, "--entry '" + name + "' names no function or class in '" +
                            diags.file().path() + "'" +
                            didYouMean(name, known));
        ok = false;
      }
    }
  }
  if (!ok)
    return nullptr;
  for (size_t i = 0; i < entries.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (entries[i].def->name == entries[j].def->name) {
        diags.error(entries[i].def->nameRange,
                    "two entry points are named '" + entries[i].def->name +
                        "'; compile them into separate archives");
        return nullptr;
      }
  if (!weights.empty()) {
    SmallVector<NamedAttribute> declared;
    for (const DeclaredWeight &w : weights)
      declared.push_back(
          b.getNamedAttr(w.name, TypeAttr::get(w.type)));
    module->setAttr(kParamsAttrName, b.getDictionaryAttr(declared));
  }

  // Every --arg must name a parameter of some entry point, or of the one
  // entry point it is keyed by (`--arg forward.x=...`).
  for (const ArgSpec &spec : options.argSpecs) {
    auto hasParam = [&](const Entry &e) {
      return llvm::any_of(e.def->params, [&](const ast::Param &p) {
        return p.name == spec.name;
      });
    };
    if (spec.entry.empty()) {
      if (!llvm::any_of(entries, hasParam)) {
        diags.error({}, "--arg '" + spec.name +
                            "' does not name a parameter of any entry point");
        return nullptr;
      }
      continue;
    }
    auto keyed = llvm::find_if(
        entries, [&](const Entry &e) { return e.def->name == spec.entry; });
    if (keyed == entries.end()) {
      std::string names;
      for (const Entry &e : entries)
        names += (names.empty() ? "" : ", ") + e.def->name;
      diags.error({}, "--arg '" + spec.entry + "." + spec.name +
                          "': no entry point is named '" + spec.entry +
                          "'; the entry points are: " + names);
      return nullptr;
    }
    if (!hasParam(*keyed)) {
      diags.error({}, "--arg '" + spec.entry + "." + spec.name + "': '" +
                          spec.entry + "' has no parameter '" + spec.name +
                          "'");
      return nullptr;
    }
  }

  // Entry points are independent: one that fails does not stop the next
  // from reporting its own errors, up to the engine's limit.
  bool lowered = true;
  for (const Entry &e : entries) {
    if (diags.tooMany())
      break;
    lowered &= (e.self || checkDecorators(*this, *e.def)) &&
               lowerEntry(e.def, e.self);
  }
  if (!lowered)
    return nullptr;

  // The lowering leaves a few values unused (index casts of a loop it
  // rebuilt with wider types, an empty list that got a typed replacement);
  // drop them so the dump shows only what the program computes. Ops with
  // side effects are never trivially dead, so prints and asserts stay.
  module.walk<WalkOrder::PostOrder, mlir::ReverseIterator>([](Operation *op) {
    if (isOpTriviallyDead(op))
      op->erase();
  });
  // Helpers whose every call folded away (prelude checks) are not shown.
  for (bool erased = true; erased;) {
    erased = false;
    for (func::FuncOp f :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (f.isPrivate() && SymbolTable::symbolKnownUseEmpty(f, module)) {
        f.erase();
        erased = true;
      }
  }

  if (!checkRanks(module))
    return nullptr;
  if (failed(verify(module))) {
    diags.error({}, "internal error: the lowered IR does not verify (see "
                    "the MLIR diagnostics above)");
    return nullptr;
  }
  return owned;
}

std::optional<func::FuncOp>
ModuleLowering::getOrLowerHelper(const ast::FunctionDef &def,
                                 ArrayRef<PyValue> args, SourceRange callSite,
                                 const ModuleObject *self) {
  // Prelude functions reach here through the calls prelude code makes.
  if (!self && isPreludeFunction(def))
    return getOrLowerPrelude(def, args, callSite);
  SmallVector<Type> types;
  // A method is specialized per instance: its `self` is compile-time state.
  std::string qualified =
      self ? self->prefix + def.name : def.name;
  // Two files may each have a helper of one name.
  FileScope *file = fileOf(&def);
  std::string key = (self ? "method " : "") +
                    (file ? file->source->path() + ":" : "") + qualified + "(";
  for (size_t i = 0; i < args.size(); ++i) {
    const PyValue &a = args[i];
    // A method's None argument (`self.attn(x)`, with `mask=None`) is part
    // of the specialization, so that `mask is None` is decided at compile
    // time, as specializeOnConstants does for plain functions.
    const ast::Param *param =
        self && i + 1 < def.params.size() ? &def.params[i + 1] : nullptr;
    if (a.isNone() && param && acceptsNone(*this, *param)) {
      key += "None,";
      continue;
    }
    SmallVector<Value> leaves;
    if (!flattenValues(a, leaves)) {
      diags.error(callSite,
                  "cannot pass " +
                      std::string(a.isNone() ? "None" : "this value") +
                      " to '" + def.name +
                      "'; helpers take tensors, scalars, lists and "
                      "tuples of them");
      return std::nullopt;
    }
    if (a.isOptional())
      key += "Optional "; // (i1, tensor) is also a bool and a tensor
    for (Value v : leaves) {
      types.push_back(v.getType());
      llvm::raw_string_ostream os(key);
      os << v.getType() << ",";
    }
  }
  if (auto it = specializations.find(key); it != specializations.end())
    return it->second;
  if (inProgress.count({&def, self})) {
    diags.error(callSite,
                "recursive call to '" + def.name + "' is not supported");
    return std::nullopt;
  }
  DepthGuard guard(*this, callSite);
  if (!guard.ok())
    return std::nullopt;
  // From here on, names and errors are those of the file defining `def`.
  FileSwap inFile(*this, &def);
  if (!self && !checkDecorators(*this, def))
    return std::nullopt;

  // A fresh symbol: the plain name if free, else name_1, name_2, ...
  std::string name = qualified;
  for (int i = 1; module.lookupSymbol(name); ++i)
    name = qualified + "_" + std::to_string(i);

  OpBuilder b(&context);
  b.setInsertionPointToEnd(module.getBody());
  auto fnLoc =
      FileLineColLoc::get(fileName, def.range.begin.line, def.range.begin.col);
  auto func = b.create<func::FuncOp>(fnLoc, name, b.getFunctionType(types, {}));
  func.setPrivate();
  Block *entry = func.addEntryBlock();
  std::vector<PyValue> params;
  ArrayRef<Value> leaves(entry->getArguments().begin(),
                         entry->getArguments().end());
  SmallVector<Value> storage(leaves.begin(), leaves.end());
  ArrayRef<Value> rest(storage);
  if (self)
    params.push_back(PyValue::ofObject(self));
  for (const PyValue &a : args)
    params.push_back(unflattenValues(a, rest));

  OpBuilder fb(&context);
  fb.setInsertionPointToStart(entry);
  FunctionLowering fl(*this, fb);
  inProgress.insert({&def, self});
  std::optional<PyValue> result = fl.lowerBody(def, std::move(params));
  inProgress.erase({&def, self});
  if (!result)
    return std::nullopt;
  resultShapes[name] = *result;
  specializations[key] = func;
  return func;
}

} // namespace kiln

//===----------------------------------------------------------------------===//
// Public entry
//===----------------------------------------------------------------------===//

mlir::OwningOpRef<mlir::ModuleOp>
kiln::lowerToIR(mlir::MLIRContext &context, const ast::Module &module,
                DiagnosticEngine &diags, const LoweringOptions &options,
                std::vector<DeclaredWeight> *weights) {
  loadFrontendDialects(context);
  ModuleLowering lowering(context, module, diags, options);
  mlir::OwningOpRef<mlir::ModuleOp> result = lowering.run();
  if (result && weights)
    *weights = lowering.weights;
  return result;
}
