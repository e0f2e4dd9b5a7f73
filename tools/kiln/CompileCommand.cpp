//===- CompileCommand.cpp - `kiln compile` --------------------------------===//
//
// Reads a Python file, parses it, lowers its entry points to kiln IR,
// optimizes and compiles them, then prints the requested stage and/or
// writes the .kiln archive. Every user error is rendered clang-style on
// stderr and the exit code is 1; a bad flag exits with 2, as CLI11 does.
//
//===----------------------------------------------------------------------===//
#include "tools/kiln/Commands.h"
#include "tools/kiln/InitInPython.h"

#include "codegen/ArchiveWriter.h"
#include "codegen/Passes.h"
#include "codegen/archive/Weights.h"
#include "codegen/lowering/LoweringSupport.h"
#include "codegen/cpu/CpuBackend.h"
#include "codegen/cuda/CudaBackend.h"
#include "frontend/ArgSpec.h"
#include "frontend/AstPrinter.h"
#include "frontend/Lowering.h"
#include "frontend/ModuleDescription.h"
#include "frontend/Parser.h"
#include "frontend/Suggest.h"
#include "ir/DotGraph.h"
#include "passes/Passes.h"
#include "runtime/src/Untrusted.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <cctype>

namespace kiln {

/// The pass names of `pipeline` ("a,b{opt=1},func.func(c)") that name no
/// registered pass, each with the nearest pass of kiln's -O2 pipeline or of
/// upstream's common ones; MLIR's own message names only the first.
static std::string unknownPasses(llvm::StringRef pipeline) {
  std::vector<std::string> known = {"cse", "canonicalize", "inline",
                                    "symbol-dce", "sccp"};
  {
    mlir::MLIRContext context;
    mlir::PassManager pm(&context);
    PipelineOptions options;
    options.optLevel = 2;
    buildOptimizationPipeline(pm, options);
    for (mlir::Pass &pass : pm.getPasses())
      known.push_back(pass.getArgument().str());
  }
  std::string out;
  int braces = 0;
  size_t start = std::string::npos;
  for (size_t i = 0; i <= pipeline.size(); ++i) {
    char c = i < pipeline.size() ? pipeline[i] : ',';
    bool word = std::isalnum(static_cast<unsigned char>(c)) || c == '-' ||
                c == '_' || c == '.';
    if (braces == 0 && word && start == std::string::npos)
      start = i;
    if (!word && start != std::string::npos) {
      llvm::StringRef name = pipeline.slice(start, i);
      start = std::string::npos;
      // An op anchor (`func.func(...)`) is not a pass.
      if (c != '(' && !mlir::PassInfo::lookup(name) &&
          !mlir::PassPipelineInfo::lookup(name)) {
        std::optional<std::string> near = nearestName(name, known);
        out += (out.empty() ? "'" : "; '") + name.str() +
               "' is not a registered pass" +
               (near ? " (did you mean '" + *near + "'?)" : "");
      }
    }
    braces += c == '{' ? 1 : c == '}' ? -1 : 0;
  }
  return out;
}

/// Whether the command lowers past kiln IR, so the CPU pipeline runs.
/// Whether `--target` names `target`.
static bool hasTarget(const CompileOptions &o, llvm::StringRef target) {
  llvm::SmallVector<llvm::StringRef> names;
  llvm::StringRef(o.target).split(names, ',');
  return llvm::is_contained(names, target);
}

static bool lowersToCode(const CompileOptions &o) {
  return !o.output.empty() || o.emit == "llvm" || o.emit == "asm" ||
         o.emit == "ptx";
}

/// The requested IR dumps and timing, on the kiln-level pipeline and on
/// the CPU lowering alike, so that --print-ir-after-all shows every step.
static void instrument(const CompileOptions &o,
                       const mlir::OpPrintingFlags &flags,
                       mlir::PassManager &pm) {
  auto matches = [](const std::vector<std::string> &names) {
    return [&names](mlir::Pass *pass, mlir::Operation *) {
      return llvm::is_contained(names, pass->getArgument());
    };
  };
  bool all = o.printIRAfterAll;
  if (all || !o.printIRBefore.empty() || !o.printIRAfter.empty()) {
    // Threads would interleave the dumps of nested pass managers.
    pm.getContext()->disableMultithreading();
    auto after = matches(o.printIRAfter);
    pm.enableIRPrinting(
        matches(o.printIRBefore),
        [all, after](mlir::Pass *pass, mlir::Operation *op) {
          return all || after(pass, op);
        },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
        /*printAfterOnlyOnFailure=*/false, llvm::errs(), flags);
  }
  if (o.passTiming)
    pm.enableTiming();
}

/// Whether `--conv-layout` makes -O2 compute convolutions channels last
/// (kiln-channels-last). auto asks for what the kernel library computes
/// in: oneDNN 2.6 picks N x H x W x C for f32 layers of 16 channels and
/// more with AVX-512, but blocks of 8 channels (nChw8c) with AVX2 alone,
/// where channels last only adds reorders (a ResNet block, one Zen 3
/// core: 7.1 ms against 6.3 as written). The CUDA backend's convolutions
/// have not run channels last.
static bool computesChannelsLast(const CompileOptions &o) {
  if (o.convLayout != "auto")
    return o.convLayout == "channels-last";
  if (hasTarget(o, "cuda"))
    return false;
  llvm::SmallVector<llvm::StringRef> names;
  llvm::StringRef(o.targetCpu).split(names, ',');
  return llvm::all_of(names, [&](llvm::StringRef name) {
    CpuTarget target;
    // parseTargets has checked every name.
    return resolveCpuTarget(name.trim(), o.targetFeatures, target).empty() &&
           llvm::is_contained(target.features, "avx512f");
  });
}

/// The kiln-level pipeline: `--passes` or the -O level's, with the
/// requested IR dumps and timing. The verifier runs after every pass.
static bool buildPassManager(const CompileOptions &o,
                             const mlir::OpPrintingFlags &flags,
                             mlir::PassManager &pm, std::string &error) {
  registerKilnPasses();
  pm.enableVerifier(true);
  if (!o.passes.empty()) {
    std::string message;
    llvm::raw_string_ostream stream(message);
    if (mlir::failed(mlir::parsePassPipeline(o.passes, pm, stream))) {
      std::string unknown = unknownPasses(o.passes);
      error = "--passes: " + (unknown.empty()
                                  ? llvm::StringRef(message).trim().str()
                                  : unknown);
      return false;
    }
  } else {
    PipelineOptions options;
    options.optLevel = o.optLevel;
    options.unroll.unrollFactor = o.unrollFactor;
    options.unroll.unrollMaxBody = o.unrollMaxBody;
    options.channelsLast = computesChannelsLast(o);
    buildOptimizationPipeline(pm, options);
  }
  // A name that matches no pass of either pipeline would print nothing,
  // which looks like a pass that changed nothing; say so instead. The CPU
  // lowering's passes count when it runs (an archive, --emit=llvm|asm).
  std::vector<std::string> inPipeline;
  for (mlir::Pass &pass : pm.getPasses())
    inPipeline.push_back(pass.getArgument().str());
  if (lowersToCode(o)) {
    mlir::OpPassManager lowering("builtin.module");
    if (hasTarget(o, "cpu"))
      buildCpuLoweringPipeline(lowering, o.optLevel);
    if (hasTarget(o, "cuda")) {
      buildCudaKernelPipeline(lowering, o.optLevel);
      buildLlvmLoweringPipeline(lowering, o.optLevel);
      buildNvvmPipeline(lowering, "sm_80", 3);
    }
    // The textual pipeline names the passes of nested pass managers too
    // (the GPU kernels' gpu.module(...)); options in braces are dropped.
    std::string text;
    llvm::raw_string_ostream stream(text);
    lowering.printAsTextualPipeline(stream);
    std::string names;
    int depth = 0;
    for (char c : text) {
      depth += c == '{' ? 1 : c == '}' ? -1 : 0;
      if (depth == 0 && c != '}')
        names += c == '(' || c == ')' ? ',' : c;
    }
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(names).split(parts, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef part : parts)
      if (part.trim() != "builtin.module" && part.trim() != "gpu.module")
        inPipeline.push_back(part.trim().str());
  }
  for (const auto *names : {&o.printIRBefore, &o.printIRAfter})
    for (const std::string &name : *names)
      if (!llvm::is_contained(inPipeline, name)) {
        error = "no pass named '" + name + "' runs in this pipeline" +
                didYouMean(name, inPipeline) + "; it runs: " +
                (inPipeline.empty() ? std::string("nothing (-O0)")
                                    : llvm::join(inPipeline, ", "));
        return false;
      }
  instrument(o, flags, pm);
  return true;
}

/// Values for the declared weights: from --weights, from --random-weights,
/// or an error naming every weight that needs one.
static std::string loadWeights(const CompileOptions &o, const SourceFile &file,
                               const std::vector<DeclaredWeight> &declared,
                               std::vector<WeightData> &weights) {
  std::vector<WeightSpec> specs;
  for (const DeclaredWeight &w : declared) {
    auto type = llvm::cast<mlir::RankedTensorType>(w.type);
    specs.push_back({w.name, codegen::elementSuffix(type.getElementType()),
                     type.getShape().vec(),
                     file.path() + ":" + std::to_string(w.where.begin.line) +
                         ":" + std::to_string(w.where.begin.col),
                     w.aliases});
  }
  if (!o.weights.empty())
    return readSafetensors(o.weights, specs, weights);
  if (o.randomWeights) {
    std::string error = checkRandomWeightBudget(specs);
    if (!error.empty())
      return error;
    weights = randomWeights(specs, *o.randomWeights);
    return "";
  }
  if (specs.empty())
    return "";
  std::string message =
      "the model has " + std::to_string(specs.size()) +
      " weights and no values for them; pass --weights FILE.safetensors "
      "(saved from state_dict()) or --random-weights=SEED for testing:";
  for (const WeightSpec &w : specs)
    message += "\n  " + w.name + ": " + weightTypeText(w.dtype, w.shape) + " (declared at " +
               w.origin + ")";
  return message;
}

/// The largest source file kiln reads (a FIFO or device is refused rather
/// than read): far beyond any model file, and small enough that reading
/// one never threatens memory. Past kMaxStatements a program is refused
/// anyway.
constexpr uint64_t kMaxSourceBytes = 16u << 20;

/// Checks --target, --cuda-arch and --emit=ptx together and fills `archs`
/// for --target=cuda. Returns an error message or "".
static std::string checkCudaOptions(const CompileOptions &o,
                                    std::vector<std::string> &archs) {
  llvm::SmallVector<llvm::StringRef> names;
  llvm::StringRef(o.target).split(names, ',');
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] != "cpu" && names[i] != "cuda")
      return "--target '" + names[i].str() +
             "' is not a target: expected cpu, cuda or cpu,cuda";
    if (llvm::is_contained(llvm::ArrayRef(names).take_front(i), names[i]))
      return "--target lists '" + names[i].str() + "' twice";
  }
  if (!hasTarget(o, "cuda")) {
    if (!o.cudaArchs.empty())
      return "--cuda-arch needs --target=cuda";
    if (o.allowTf32)
      return "--allow-tf32 needs --target=cuda";
    if (o.emit == "ptx")
      return "--emit=ptx needs --target=cuda";
    return "";
  }
  if (o.convLayout == "channels-last")
    return "--conv-layout=channels-last is for CPU targets only: the CUDA "
           "backend's convolutions compute N x C x H x W";
  return parseCudaArchs(o.cudaArchs.empty() ? kDefaultCudaArchs : o.cudaArchs,
                        archs);
}

/// Splits `--target-cpu` into its names and checks each, with
/// `--target-features`, before any compiling is done.
static std::string parseTargets(const CompileOptions &o,
                                std::vector<std::string> &targets) {
  llvm::SmallVector<llvm::StringRef> names;
  llvm::StringRef(o.targetCpu).split(names, ',');
  for (llvm::StringRef name : names) {
    name = name.trim();
    if (name.empty())
      return "--target-cpu '" + o.targetCpu + "' has an empty name";
    if (llvm::is_contained(targets, name))
      return "--target-cpu lists '" + name.str() + "' twice";
    CpuTarget target;
    if (std::string error = resolveCpuTarget(name, o.targetFeatures, target);
        !error.empty())
      return error;
    targets.push_back(name.str());
  }
  return "";
}

/// Whether `text` is IR (from `kiln inspect --ir` or `--emit=ir`) rather
/// than Python: a .mlir name, or a first line no Python file can start
/// with.
static bool looksLikeIR(llvm::StringRef path, llvm::StringRef text) {
  if (path.ends_with(".mlir"))
    return true;
  llvm::StringRef first = text.ltrim();
  return first.starts_with("//") || first.starts_with("module {") ||
         first.starts_with("module attributes") ||
         first.starts_with("func.func");
}

/// Reads and checks a module description; its weights file becomes the
/// default --weights. Returns "" or the error.
static std::string loadDescription(const std::string &path, CompileOptions &o,
                                   ModuleDescription &d) {
  std::string text;
  std::string error = readRegularFile(path, text, kMaxSourceBytes * 4);
  if (error.empty())
    error = parseModuleDescription(text, d);
  if (!error.empty())
    return inQuotes(path) + ": " + error;
  if (o.weights.empty() && !o.randomWeights && !d.weights.empty()) {
    llvm::SmallString<256> file(d.weights);
    if (!llvm::sys::path::is_absolute(file)) {
      file = llvm::sys::path::parent_path(path);
      llvm::sys::path::append(file, d.weights);
    }
    o.weights = file.str().str();
  }
  return "";
}

/// --module-description: its root class is the entry point.
static std::string useDescription(CompileOptions &o, ModuleDescription &d) {
  if (!o.initArgs.empty())
    return "--init-arg builds a class in Python; the instance of "
           "--module-description is already built";
  if (std::string error = loadDescription(o.moduleDescription, o, d);
      !error.empty())
    return error;
  const std::string &root = d.modules[0].qualname;
  if (o.entries.empty())
    o.entries = {root};
  else if (o.entries.size() != 1 || o.entries[0] != root)
    return "--module-description describes an instance of '" + root +
           "'; --entry can only name that class";
  return "";
}

/// Whether `module` defines the class `name` at top level and it parsed.
static bool parsedClass(const ast::Module &module, const std::string &name) {
  return llvm::any_of(module.items, [&](const ast::StmtPtr &item) {
    auto *c = llvm::dyn_cast<ast::ClassDef>(item.get());
    return c && c->name == name;
  });
}

/// Whether `module` defines the class `name` at top level (or tried to:
/// a class the parser skipped is reported by the lowering).
static bool definesClass(const ast::Module &module, const std::string &name) {
  return parsedClass(module, name) ||
         llvm::any_of(module.skipped, [&](const ast::SkippedItem &s) {
           return s.kind == ast::SkippedItem::Kind::Class && s.name == name;
         });
}

/// `--entry Class` without --module-description: builds the instance in
/// Python (InitInPython.h) and compiles from its description. --weights
/// brings the values, --random-weights=SEED seeds torch before __init__
/// runs. A class kiln could not parse is left to the lowering, which
/// reports why. Returns false after reporting an error.
static bool describeClassEntry(CompileOptions &o, const ast::Module &module,
                               DiagnosticEngine &diags, InitFolder &folder,
                               ModuleDescription &d) {
  std::vector<std::string> classes;
  for (const std::string &e : o.entries)
    if (parsedClass(module, e))
      classes.push_back(e);
  if (classes.empty()) {
    if (o.initArgs.empty())
      return true;
    fmt::print(stderr, "kiln: error: --init-arg is for an nn.Module class "
                       "named by --entry, and no --entry names one\n");
    return false;
  }
  if (classes.size() > 1) {
    fmt::print(stderr,
               "kiln: error: --entry names two classes, '{}' and '{}'; an "
               "archive holds one nn.Module instance, so compile each "
               "into its own\n",
               classes[0], classes[1]);
    return false;
  }
  InitRequest request;
  request.file = o.input;
  request.cls = classes[0];
  request.initArgs = o.initArgs;
  request.seed = o.randomWeights.value_or(0);
  request.weights = o.randomWeights.has_value();
  request.timeoutSeconds = o.initTimeout;
  if (!instantiateInPython(request, diags, folder))
    return false;
  // Python made the random weights: they are read like any weights file.
  o.randomWeights.reset();
  std::string error = loadDescription(folder.path + "/module.json", o, d);
  if (!error.empty()) {
    fmt::print(stderr, "kiln: internal: {}\n", error);
    return false;
  }
  return true;
}

/// The --arg specs; returns "" or the error for the first bad one.
static std::string parseArgSpecs(const std::vector<std::string> &args,
                                 std::vector<ArgSpec> &out) {
  for (const std::string &a : args) {
    // ENTRY.NAME=...: the entry's name is cut off before the spec is parsed.
    size_t dot = a.find('.'), eq = a.find('=');
    bool keyed = dot != std::string::npos && dot < eq;
    SpecResult<ArgSpec> spec = parseArgSpec(keyed ? a.substr(dot + 1) : a);
    if (keyed && spec.ok() && dot == 0)
      spec.error = "an entry point name must come before the '.'";
    if (!spec.ok())
      return "--arg " + a + ": " + spec.error;
    if (keyed)
      spec.value.entry = a.substr(0, dot);
    out.push_back(spec.value);
  }
  return "";
}

/// What compileCodeObjects makes: per --target-cpu name, a CPU code object
/// (--target=cpu) and the host code of the CUDA kernels (--target=cuda).
struct CodeObjects {
  std::vector<CpuArtifacts> cpu, cudaHost;
  CudaKernels kernels;
};

/// Compiles each code object from its own copy of the optimized module,
/// printing the --emit=llvm|asm text of each. The CUDA kernels are the
/// same for every --target-cpu name, so the first lowering's are kept.
static bool compileCodeObjects(const CompileOptions &o,
                               const mlir::OpPrintingFlags &flags,
                               mlir::ModuleOp ir,
                               const std::vector<std::string> &targets,
                               const std::vector<std::string> &cudaArchs,
                               CodeObjects &code, std::string &error) {
  bool cpu = hasTarget(o, "cpu"), cuda = hasTarget(o, "cuda");
  code.cpu.resize(cpu ? targets.size() : 0);
  code.cudaHost.resize(cuda ? targets.size() : 0);
  size_t objects = code.cpu.size() + code.cudaHost.size();
  for (size_t i = 0; i < targets.size(); ++i) {
    for (bool forCuda : {false, true}) {
      if (forCuda ? !cuda : !cpu)
        continue;
      mlir::OwningOpRef<mlir::ModuleOp> lowered(ir.clone());
      CpuRequest request;
      request.llvmIR = o.emit == "llvm";
      request.assembly = o.emit == "asm";
      request.sharedObject = !o.output.empty();
      request.targetCpu = targets[i];
      request.targetFeatures = o.targetFeatures;
      request.instrument = [&](mlir::PassManager &lowering) {
        instrument(o, flags, lowering);
      };
      if (forCuda)
        request.lowerToKernels = [&, i](mlir::ModuleOp m, std::string &why) {
          CudaKernels made;
          if (!compileKernels(m, o.optLevel, cudaArchs, request.instrument,
                              made, why))
            return false;
          made.allowTf32 = o.allowTf32;
          if (i == 0)
            code.kernels = std::move(made);
          return true;
        };
      CpuArtifacts &made = forCuda ? code.cudaHost[i] : code.cpu[i];
      if (!compileForCpu(*lowered, o.optLevel, request, made, error))
        return false;
      if (objects > 1 && (request.llvmIR || request.assembly))
        llvm::outs() << (request.llvmIR ? "; " : "# ") << "target "
                     << (forCuda ? "cuda host code for " : "") << targets[i]
                     << "\n";
      llvm::outs() << made.llvmIR << made.assembly;
    }
  }
  return true;
}

int runCompile(const CompileOptions &given) {
  CompileOptions o = given;
  std::string text;
  std::string readError = readRegularFile(o.input, text, kMaxSourceBytes);
  if (!readError.empty()) {
    fmt::print(stderr, "kiln: error: {}: {}\n", inQuotes(o.input), readError);
    return 1;
  }
  if (looksLikeIR(o.input, text)) {
    fmt::print(stderr,
               "kiln: error: {}: this is MLIR, not Python source; kiln "
               "compile takes the .py file the IR came from (IR input is not "
               "accepted)\n",
               inQuotes(o.input));
    return 1;
  }
  SourceFile file(o.input, std::move(text));
  DiagnosticEngine diags(file);

  LoweringOptions lowering;
  if (std::string error = parseArgSpecs(o.args, lowering.argSpecs);
      !error.empty()) {
    fmt::print(stderr, "kiln: error: {}\n", error);
    return 2;
  }
  ModuleDescription description;
  if (!o.moduleDescription.empty()) {
    std::string error = useDescription(o, description);
    if (!error.empty()) {
      fmt::print(stderr, "kiln: error: {}\n", error);
      return 1;
    }
    lowering.description = &description;
  }
  lowering.entries = o.entries;
  std::vector<std::string> targets;
  if (std::string error = parseTargets(o, targets); !error.empty()) {
    fmt::print(stderr, "kiln: error: {}\n", error);
    return 2;
  }
  std::vector<std::string> cudaArchs;
  if (std::string error = checkCudaOptions(o, cudaArchs); !error.empty()) {
    fmt::print(stderr, "kiln: error: {}\n", error);
    return 2;
  }

  mlir::DialectRegistry registry;
  registerCodegenDialects(registry);
  mlir::MLIRContext context(registry);
  // An error a pass reports at a place in the user's file (a static shape
  // too large to allocate) is a user error and is rendered like the
  // frontend's. Any other MLIR diagnostic is an internal error (a verifier
  // failure after lowering); show it rather than lose it.
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    mlir::FileLineColLoc at = codegen::findFileLoc(d.getLocation());
    if (d.getSeverity() == mlir::DiagnosticSeverity::Error && at &&
        at.getFilename() == o.input) {
      SourceLoc begin{at.getLine(), at.getColumn()};
      Diagnostic &diag = diags.error({begin, {begin.line, begin.col + 1}}, d.str());
      fmt::print(stderr, "{}", diags.render(diag));
      return mlir::success();
    }
    llvm::errs() << "kiln: internal: " << d << "\n";
    return mlir::success();
  });
  mlir::OpPrintingFlags flags;
  if (o.locations)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false)
        .useLocalScope();
  // A bad pipeline flag is a usage error, found before any work is done.
  mlir::PassManager pm(&context);
  std::string error;
  if (!buildPassManager(o, flags, pm, error)) {
    fmt::print(stderr, "kiln: error: {}\n", error);
    return 2;
  }

  ast::Module module = parseModule(file);
  if (o.emit == "ast") {
    fmt::print("{}", printAST(module));
    return 0;
  }
  if (lowering.description && !definesClass(module, o.entries[0])) {
    fmt::print(stderr,
               "kiln: error: {}: the root class '{}' (from {}) is not a "
               "top-level class of {}\n",
               inQuotes(o.moduleDescription), o.entries[0],
               inQuotes(description.modules[0].file), inQuotes(o.input));
    return 1;
  }
  InitFolder initFolder;
  if (!lowering.description) {
    if (!describeClassEntry(o, module, diags, initFolder, description))
      return 1;
    if (!description.modules.empty())
      lowering.description = &description;
  }

  std::vector<DeclaredWeight> declared;
  mlir::OwningOpRef<mlir::ModuleOp> ir =
      lowerToIR(context, module, diags, lowering, &declared);
  if (!ir) {
    fmt::print(stderr, "{}", diags.renderAll());
    return 1;
  }
  // Weights are checked before the slow part, and whenever a file is given.
  std::vector<WeightData> weights;
  if (!o.output.empty() || !o.weights.empty()) {
    error = loadWeights(o, file, declared, weights);
    if (!error.empty()) {
      fmt::print(stderr, "kiln: error: {}\n", error);
      return 1;
    }
  }
  auto print = [&](mlir::ModuleOp m) {
    std::string text;
    llvm::raw_string_ostream stream(text);
    m.print(stream, flags);
    stream << "\n";
    return text;
  };
  std::string inputIR = print(*ir);
  if (o.emit == "ir" || (o.emit.empty() && o.output.empty())) {
    llvm::outs() << inputIR;
    if (o.output.empty())
      return 0;
  }

  if (mlir::failed(pm.run(*ir)))
    return 1;
  std::string optimizedIR = print(*ir);
  if (o.emit == "opt" || o.emit == "dot") {
    if (o.emit == "opt")
      llvm::outs() << optimizedIR;
    else
      printDotGraph(*ir, llvm::outs());
    if (o.output.empty())
      return 0;
  }

  CodeObjects code;
  if (!compileCodeObjects(o, flags, *ir, targets, cudaArchs, code, error)) {
    if (!diags.hasErrors()) // else the located error says it all
      fmt::print(stderr, "kiln: error: {}\n", error);
    return 1;
  }
  const CudaKernels &kernels = code.kernels;
  if (o.emit == "ptx")
    llvm::outs() << kernels.ptx;
  if (o.output.empty())
    return 0;

  ArchiveInputs archive;
  archive.sourcePath = o.input;
  archive.sourceText = file.text();
  archive.inputIR = inputIR;
  archive.optimizedIR = optimizedIR;
  archive.optLevel = o.optLevel;
  archive.kilnModule = *ir;
  for (const CpuArtifacts &variant : code.cpu)
    archive.cpu.push_back(&variant);
  if (hasTarget(o, "cuda")) {
    archive.cuda = &kernels;
    for (const CpuArtifacts &variant : code.cudaHost)
      archive.cudaHost.push_back(&variant);
  }
  archive.weights = &weights;
  error = writeArchive(o.output, archive);
  if (!error.empty()) {
    fmt::print(stderr, "kiln: error: {}\n", error);
    return 1;
  }
  return 0;
}

} // namespace kiln
