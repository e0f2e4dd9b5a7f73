//===- ArchiveWriter.cpp - Package a compiled module as a .kiln file ------===//
//
// The manifest is the archive's table of contents and the runtime's only
// source of truth about entry signatures, so it is derived from the kiln IR
// itself: argument names and dim symbols from the `kiln.name`/`kiln.dims`
// attributes the frontend left on each entry function.
//
//===----------------------------------------------------------------------===//

#include "codegen/ArchiveWriter.h"

#include "codegen/archive/ZipWriter.h"
#include "codegen/lowering/LoweringSupport.h"
#include "runtime/include/kiln/abi.h"

#include "ir/KilnDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <cstdio>
#include <xxhash.h>
#include <zlib.h>

using namespace mlir;
using json = nlohmann::ordered_json;

namespace kiln {

/// One argument or result: {"name", "dtype", "scalar", "dims"}.
static json describeValue(const std::string &name, Type type,
                          ArrayAttr dimNames) {
  json value;
  value["name"] = name;
  auto tensor = dyn_cast<RankedTensorType>(type);
  // The manifest spells dtypes as the runtime functions' suffixes do.
  value["dtype"] =
      codegen::elementSuffix(tensor ? tensor.getElementType() : type);
  value["scalar"] = !tensor;
  json dims = json::array();
  if (tensor) {
    for (int64_t i = 0; i < tensor.getRank(); ++i) {
      if (!tensor.isDynamicDim(i))
        dims.push_back(tensor.getDimSize(i));
      else if (dimNames && i < static_cast<int64_t>(dimNames.size()))
        dims.push_back(cast<StringAttr>(dimNames[i]).str());
      else
        dims.push_back("?");
    }
  }
  value["dims"] = dims;
  return value;
}

/// Archives with an optional input are format 3: their entries take a
/// presence flag after each optional tensor, which a 2.x runtime, reading
/// the input as required, would not pass. The rest stay 2.0, so that older
/// runtimes still load them.
/// Optional scalars are format 4: a 3.x runtime refuses a scalar marked
/// optional as a corrupt manifest, where it should say it is too old.
static bool hasOptionalInput(ModuleOp module, bool scalar) {
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn->hasAttr("kiln.entry"))
      for (unsigned i = 0; i < fn.getNumArguments(); ++i)
        if (fn.getArgAttr(i, "kiln.optional") &&
            isa<RankedTensorType>(fn.getArgumentTypes()[i]) != scalar)
          return true;
  return false;
}

/// A scalar input's default as JSON: a bool, an integer or a number, as
/// its dtype says.
static json defaultValue(Attribute attr) {
  if (auto b = dyn_cast<BoolAttr>(attr))
    return b.getValue();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getInt();
  return cast<FloatAttr>(attr).getValueAsDouble();
}

/// Defaults and str_args only add a field, which an older runtime ignores
/// (it then asks for the input), so they raise the minor version.
static bool hasDefault(ModuleOp module) {
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn->hasAttr("kiln.entry"))
      for (unsigned i = 0; i < fn.getNumArguments(); ++i)
        if (fn.getArgAttr(i, "kiln.default") || fn->hasAttr("kiln.strings"))
          return true;
  return false;
}

/// List and Tuple inputs add the "containers" field (minor version 2):
/// their elements are plain inputs, which an older runtime passes as well.
static bool hasContainerInput(ModuleOp module) {
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn->hasAttr("kiln.entry") && fn->hasAttr("kiln.containers"))
      return true;
  return false;
}

/// A str chosen at run time adds "str_choices" (minor version 3): to an
/// older runtime its input is an int, the value's index.
static bool hasStrChoice(ModuleOp module) {
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn->hasAttr("kiln.entry"))
      for (unsigned i = 0; i < fn.getNumArguments(); ++i)
        if (fn.getArgAttr(i, "kiln.str_choices"))
          return true;
  return false;
}

static json describeEntries(ModuleOp module) {
  json entries = json::array();
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn->hasAttr("kiln.entry"))
      continue;
    json entry;
    entry["name"] = fn.getName().str();
    json args = json::array();
    for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
      // An optional input's presence flag is part of that input.
      if (fn.getArgAttr(i, "kiln.presence"))
        continue;
      auto name = fn.getArgAttrOfType<StringAttr>(i, "kiln.name");
      auto dims = fn.getArgAttrOfType<ArrayAttr>(i, "kiln.dims");
      json arg = describeValue(name ? name.str() : "arg" + std::to_string(i),
                               fn.getArgumentTypes()[i], dims);
      if (fn.getArgAttr(i, "kiln.optional"))
        arg["optional"] = true;
      if (Attribute d = fn.getArgAttr(i, "kiln.default"))
        arg["default"] = defaultValue(d);
      // A str chosen at run time: the input is the index of its value.
      if (auto choices = fn.getArgAttrOfType<ArrayAttr>(i, "kiln.str_choices")) {
        json listed = json::array();
        for (Attribute c : choices)
          listed.push_back(cast<StringAttr>(c).str());
        arg["str_choices"] = listed;
      }
      args.push_back(arg);
    }
    // Results are result0, result1, ..., or a returned dict's keys.
    auto names = fn->getAttrOfType<ArrayAttr>("kiln.result_names");
    json results = json::array();
    for (unsigned i = 0; i < fn.getNumResults(); ++i) {
      std::string name = names ? cast<StringAttr>(names[i]).str()
                               : "result" + std::to_string(i);
      results.push_back(describeValue(name, fn.getResultTypes()[i], nullptr));
    }
    entry["args"] = args;
    entry["results"] = results;
    // List and Tuple parameters: their elements are inputs of their own
    // ("xs.0", "xs.1"); this says which make up which parameter.
    if (auto containers = fn->getAttrOfType<ArrayAttr>("kiln.containers")) {
      json params = json::array();
      for (Attribute a : containers) {
        auto c = cast<DictionaryAttr>(a);
        json leaves = json::array();
        for (Attribute leaf : c.getAs<ArrayAttr>("args"))
          leaves.push_back(cast<StringAttr>(leaf).str());
        params.push_back({{"name", c.getAs<StringAttr>("name").str()},
                          {"type", c.getAs<StringAttr>("type").str()},
                          {"args", leaves}});
      }
      entry["containers"] = params;
    }
    // The str parameters it was compiled for: no inputs, but the caller
    // should know which variant this is.
    if (auto strings = fn->getAttrOfType<DictionaryAttr>("kiln.strings")) {
      json fixed = json::array();
      for (NamedAttribute s : strings)
        fixed.push_back(
            {{"name", s.getName().str()},
             {"value", cast<StringAttr>(s.getValue()).str()}});
      entry["str_args"] = fixed;
    }
    entries.push_back(entry);
  }
  return entries;
}

/// The weights in the code object's slot order: by name, as `kiln.params`
/// (a dictionary) orders them. Pointers into inputs.weights.
static std::vector<const WeightData *> weightsInSlotOrder(
    const ArchiveInputs &inputs) {
  std::vector<const WeightData *> out;
  auto params = const_cast<ModuleOp &>(inputs.kilnModule)
                    ->getAttrOfType<DictionaryAttr>(kParamsAttrName);
  if (!params || !inputs.weights)
    return out;
  for (NamedAttribute param : params)
    for (const WeightData &w : *inputs.weights)
      if (w.name == param.getName().strref())
        out.push_back(&w);
  assert(out.size() == params.size() && "every declared weight has a value");
  return out;
}

/// The code objects, best first: a stable sort by feature count, so that the
/// runtime, taking the first one this CPU can run, takes the richest.
static std::vector<const CpuArtifacts *>
variantsBestFirst(std::vector<const CpuArtifacts *> variants) {
  std::stable_sort(variants.begin(), variants.end(),
                   [](const CpuArtifacts *a, const CpuArtifacts *b) {
                     return a->target.features.size() >
                            b->target.features.size();
                   });
  return variants;
}

static std::string cubinEntry(const std::string &arch) {
  return "cuda/kernels." + arch + ".cubin";
}

static std::string ptxEntry(const std::string &arch) {
  return "cuda/kernels." + arch + ".ptx";
}

/// Where a code object lies in the archive: cpu/<name>.so, or for the
/// host code of the CUDA kernels cuda/host-<name>.so.
static std::string objectEntry(const CpuArtifacts &cpu, bool cudaHost) {
  return (cudaHost ? "cuda/host-" : "cpu/") + cpu.target.name + ".so";
}

/// The manifest's list of code objects, best first.
static json codeObjects(const std::vector<const CpuArtifacts *> &variants,
                        bool cudaHost, unsigned optLevel) {
  json list = json::array();
  for (const CpuArtifacts *variant : variantsBestFirst(variants)) {
    json entry = {{"name", variant->target.name},
                  {"triple", variant->target.triple},
                  {"cpu", variant->target.tuneCpu},
                  {"features", variant->target.features},
                  {"object", objectEntry(*variant, cudaHost)},
                  {"opt_level", optLevel}};
    if (!variant->target.featureEdits.empty())
      entry["target_features"] = variant->target.featureEdits;
    // Per code object: each target's tiles keep other buffers on the stack.
    if (variant->staticBlocks) {
      json blocks = json::array();
      for (Attribute block : variant->staticBlocks)
        blocks.push_back(cast<DenseI64ArrayAttr>(block).asArrayRef());
      entry["blocks"] = std::move(blocks);
    }
    list.push_back(std::move(entry));
  }
  return list;
}

/// Every code object of the archive, CPU and CUDA host code alike.
static std::vector<const CpuArtifacts *>
allCodeObjects(const ArchiveInputs &inputs) {
  std::vector<const CpuArtifacts *> all = inputs.cpu;
  all.insert(all.end(), inputs.cudaHost.begin(), inputs.cudaHost.end());
  return all;
}

static json stringsTable(ArrayAttr table) {
  json strings = json::array();
  if (table)
    for (Attribute s : table)
      strings.push_back(cast<StringAttr>(s).str());
  return strings;
}

static json sitesTable(ArrayAttr table) {
  json sites = json::array();
  if (!table)
    return sites;
  for (Attribute s : table) {
    auto site = cast<DictionaryAttr>(s);
    sites.push_back({{"file", site.getAs<StringAttr>("file").str()},
                     {"line", site.getAs<IntegerAttr>("line").getInt()},
                     {"col", site.getAs<IntegerAttr>("col").getInt()},
                     {"message", site.getAs<StringAttr>("message").str()}});
  }
  return sites;
}

/// The CPU code's kernel library calls of static shapes, which the runtime
/// prepares at load (codegen/cpu/LibraryCallRecords.cpp); a weight operand
/// names its row of "weights", which is in slot order.
static json libraryCallsTable(ArrayAttr table) {
  json calls = json::array();
  for (Attribute c : table) {
    auto call = cast<DictionaryAttr>(c);
    json operands = json::array();
    for (Attribute o : call.getAs<ArrayAttr>("operands")) {
      auto operand = cast<DictionaryAttr>(o);
      json row = {
          {"sizes", operand.getAs<DenseI64ArrayAttr>("sizes").asArrayRef()},
          {"strides",
           operand.getAs<DenseI64ArrayAttr>("strides").asArrayRef()}};
      if (auto weight = operand.getAs<IntegerAttr>("weight")) {
        row["weight"] = weight.getInt();
        row["offset"] = operand.getAs<IntegerAttr>("offset").getInt();
      }
      operands.push_back(std::move(row));
    }
    calls.push_back(
        {{"op", call.getAs<StringAttr>("op").str()},
         {"operands", std::move(operands)},
         {"params", call.getAs<DenseI64ArrayAttr>("params").asArrayRef()}});
  }
  return calls;
}

std::string buildManifest(
    const ArchiveInputs &inputs,
    const std::vector<std::pair<std::string, std::string>> &files) {
  json manifest;
  manifest["format"] = "kiln";
  ModuleOp module = const_cast<ModuleOp &>(inputs.kilnModule);
  int minor = hasStrChoice(module)        ? 3
              : hasContainerInput(module) ? 2
              : hasDefault(module)        ? 1
                                          : 0;
  if (hasOptionalInput(module, /*scalar=*/true))
    manifest["format_version"] = {4, minor};
  else if (hasOptionalInput(module, /*scalar=*/false))
    manifest["format_version"] = {3, minor};
  else
    manifest["format_version"] = {2, minor};
  manifest["producer"] = "kiln " KILN_VERSION_STRING;
  manifest["abi_version"] = KILN_ABI_VERSION;
  manifest["source"] = {
      {"path", inputs.sourcePath},
      {"entry", "source/" + llvm::sys::path::filename(inputs.sourcePath).str()}};
  manifest["targets"] = json::object();
  if (!inputs.cpu.empty())
    manifest["targets"]["cpu"] = codeObjects(inputs.cpu, false, inputs.optLevel);
  if (const CudaKernels *cuda = inputs.cuda) {
    json cubins = json::array();
    for (const std::string &arch : cuda->archs)
      cubins.push_back({{"arch", arch}, {"file", cubinEntry(arch)}});
    manifest["targets"]["cuda"] = {
        {"kernels", cuda->names},
        {"ptx", {{"arch", cuda->archs.front()},
                 {"file", ptxEntry(cuda->archs.front())}}},
        {"cubins", cubins},
        {"libraries", cuda->libraries},
        {"host", codeObjects(inputs.cudaHost, true, inputs.optLevel)}};
    if (cuda->allowTf32)
      manifest["targets"]["cuda"]["allow_tf32"] = true;
    // The CUDA lowering adds other checks than the CPU's, so with both its
    // tables may differ from the top-level (CPU) ones.
    const CpuArtifacts *host = inputs.cudaHost.front();
    const CpuArtifacts *top = allCodeObjects(inputs).front();
    if (host->sites != top->sites || host->strings != top->strings) {
      manifest["targets"]["cuda"]["strings"] = stringsTable(host->strings);
      manifest["targets"]["cuda"]["sites"] = sitesTable(host->sites);
    }
  }
  manifest["entries"] = describeEntries(inputs.kilnModule);
  json weights = json::array();
  for (const WeightData *w : weightsInSlotOrder(inputs))
    weights.push_back({{"name", w->name},
                       {"dtype", w->dtype},
                       {"dims", w->shape},
                       {"file", "weights/" + w->name}});
  manifest["weights"] = weights;

  // The code objects of one target are lowered from the same kiln IR by
  // the same passes, so they index one table (checked in writeArchive);
  // the CUDA host code's, when it differs, is in targets.cuda.
  const CpuArtifacts *first = allCodeObjects(inputs).front();
  manifest["strings"] = stringsTable(first->strings);
  manifest["sites"] = sitesTable(first->sites);
  if (!inputs.cpu.empty() && inputs.cpu.front()->libraryCalls)
    manifest["library_calls"] =
        libraryCallsTable(inputs.cpu.front()->libraryCalls);

  json fileTable = json::array();
  for (const auto &[name, data] : files) {
    uLong crc = crc32_z(0L, reinterpret_cast<const Bytef *>(data.data()),
                        data.size());
    // The runtime checks xxh3 when it is there (three times faster to
    // hash); crc32 stays for runtimes written before it.
    char xxh3[17];
    std::snprintf(xxh3, sizeof xxh3, "%016llx",
                  static_cast<unsigned long long>(
                      XXH3_64bits(data.data(), data.size())));
    fileTable.push_back({{"name", name},
                         {"size", data.size()},
                         {"crc32", crc},
                         {"xxh3", xxh3}});
  }
  manifest["files"] = fileTable;
  return manifest.dump(2) + "\n";
}

std::string writeArchive(const std::string &path,
                         const ArchiveInputs &inputs) {
  std::vector<std::pair<std::string, std::string>> files = {
      {"source/" + llvm::sys::path::filename(inputs.sourcePath).str(),
       inputs.sourceText},
      {"ir/input.mlir", inputs.inputIR},
      {"ir/optimized.mlir", inputs.optimizedIR}};
  // The code objects of one target share tables (Attributes are uniqued,
  // so equal tables are the same attribute).
  for (const auto *group : {&inputs.cpu, &inputs.cudaHost})
    for (const CpuArtifacts *variant : *group)
      if (variant->sites != group->front()->sites ||
          variant->strings != group->front()->strings ||
          variant->libraryCalls != group->front()->libraryCalls)
        return "internal error: the code objects for " +
               group->front()->target.name + " and " + variant->target.name +
               " disagree on their run-time check sites or library calls";
  for (const CpuArtifacts *variant : variantsBestFirst(inputs.cpu))
    files.push_back({objectEntry(*variant, false), variant->sharedObject});
  for (const CpuArtifacts *variant : variantsBestFirst(inputs.cudaHost))
    files.push_back({objectEntry(*variant, true), variant->sharedObject});
  if (const CudaKernels *cuda = inputs.cuda) {
    files.push_back({ptxEntry(cuda->archs.front()), cuda->ptx});
    for (size_t i = 0; i < cuda->archs.size(); ++i)
      files.push_back({cubinEntry(cuda->archs[i]), cuda->cubins[i]});
  }
  for (const WeightData *w : weightsInSlotOrder(inputs))
    files.push_back({"weights/" + w->name, w->bytes});
  ZipWriter zip;
  zip.add("manifest.json", buildManifest(inputs, files));
  for (auto &[name, data] : files)
    zip.add(name, data);
  return writeFileAtomically(path, zip.finish());
}

} // namespace kiln
