//===- Model.cpp - Load a .kiln archive and run its entry points ----------===//
//
// Loading checks everything before any code runs: the zip structure, the
// manifest, every entry's CRC-32, the CPU features, and the code object's
// own ABI version and entry table. The code object is loaded from memory
// (memfd + dlopen), so nothing is written to disk.
//
//===----------------------------------------------------------------------===//

#include "kiln/Model.h"

#include "ApiBoundary.h"
#include "CpuFeatures.h"
#include "ModelImpl.h"
#include "ThreadPool.h"
#include "Untrusted.h"
#include "ZipReader.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace kiln {

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

Model::Impl::~Impl() {
  if (library)
    dlclose(library);
  if (codeFd >= 0)
    close(codeFd);
}

std::string Model::Impl::renderSiteError(int64_t site,
                                         const std::string &message) const {
  // Unlocated, the message is like any other runtime error, which the
  // caller prefixes as it likes ("kiln: error: ").
  if (site < 0 || site >= static_cast<int64_t>(sites.size()))
    return message;
  const Site &s = sites[site];
  std::ostringstream out;
  out << s.file << ":" << s.line << ":" << s.col << ": error: " << message;
  if (s.file == sourcePath && s.line > 0) {
    std::istringstream lines(sourceText);
    std::string line;
    for (int64_t i = 0; i < s.line && std::getline(lines, line); ++i) {
    }
    // A column past the end of the line (a corrupt manifest) gets no caret
    // rather than a string of spaces as long as the column says.
    out << "\n" << line;
    if (s.col >= 1 && static_cast<uint64_t>(s.col) <= line.size() + 1)
      out << "\n" << std::string(static_cast<size_t>(s.col - 1), ' ') << "^";
  }
  return out.str();
}

namespace {

Error loadError(const std::string &path, const std::string &message,
                ErrorKind kind = ErrorKind::InvalidArchive) {
  return Error{path + ": " + message, kind};
}

/// Loads an ELF shared object from memory: an anonymous memfd holds it, so
/// nothing touches the file system and nothing is left behind. On success
/// `fd` is the memfd, which the caller must keep open until dlclose (see
/// Model::Impl::codeFd).
void *loadSharedObject(const uint8_t *data, size_t size, int &fd,
                       std::string &error) {
  fd = memfd_create("kiln-code", MFD_CLOEXEC);
  if (fd < 0) {
    error = "memfd_create failed: " + systemError(errno);
    return nullptr;
  }
  size_t written = 0;
  while (written < size) {
    ssize_t n = write(fd, data + written, size - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      error = "cannot stage the code object: " + systemError(errno);
      close(fd);
      fd = -1;
      return nullptr;
    }
    written += static_cast<size_t>(n);
  }
  std::string path = "/proc/self/fd/" + std::to_string(fd);
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *message = dlerror();
    error = std::string("cannot load the code object: ") +
            (message ? message : "unknown dlopen error");
    close(fd);
    fd = -1;
  }
  return handle;
}

/// Points each weight at its entry in the mapping, after checking that the
/// entry holds what compiled code will read in place: numel * element size
/// bytes at a 64-byte aligned address. (The zip reader has refused
/// compressed entries, and every entry "files" lists has passed its CRC.)
/// Returns an error message or "".
std::string locateWeights(Model::Impl &impl,
                          const std::vector<ZipEntry> &zipEntries) {
  for (size_t i = 0; i < impl.weights.size(); ++i) {
    WeightInfo &weight = impl.weights[i];
    const std::string &file = impl.weightFiles[i];
    auto entry = std::find_if(
        zipEntries.begin(), zipEntries.end(),
        [&](const ZipEntry &candidate) { return candidate.name == file; });
    assert(entry != zipEntries.end() &&
           "parseManifest checked that \"files\" lists every weight's entry, "
           "and load that every listed entry is present");
    std::string what = "weight " + inQuotes(weight.name) + " (" +
                       std::string(dtypeName(weight.dtype)) +
                       shapeText(weight.shape) + ")";
    uint64_t bytes;
    if (!checkedByteSize(weight.shape, dtypeSize(weight.dtype), bytes))
      return what + " is too large to address: the archive is corrupt";
    if (entry->size != bytes)
      return what + " needs " + std::to_string(bytes) + " bytes, but entry " +
             inQuotes(file) + " holds " + std::to_string(entry->size) +
             ": the archive is corrupt";
    const uint8_t *data = impl.archive.data + entry->offset;
    if (reinterpret_cast<uintptr_t>(data) % 64 != 0)
      return what + " starts at byte " + std::to_string(entry->offset) +
             " of the archive, which is not 64-byte aligned; kiln compile "
             "aligns every entry, so the archive was rewritten by another tool";
    weight.data = data;
  }
  return "";
}

std::string describeDims(const std::vector<DimInfo> &dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    out += (i ? ", " : "") +
           (dims[i].symbol.empty() ? std::to_string(dims[i].size)
                                   : dims[i].symbol);
  return out + "]";
}

} // namespace

namespace {

/// Model::load's work, from the file `path` or, when `memory` is set, from
/// a copy of those bytes (named `path` in messages); every exception it
/// lets through is caught there.
Result<std::shared_ptr<Model::Impl>>
loadArchive(const std::string &path, const LoadOptions &options,
            const std::string_view *memory = nullptr) {
  auto impl = std::make_shared<Model::Impl>();
  std::string threadsError;
  impl->numThreads = options.numThreads > 0
                         ? std::min(options.numThreads, kMaxThreads)
                         : defaultThreadCount(&threadsError);
  if (!threadsError.empty())
    return loadError(path, threadsError, ErrorKind::InvalidArgument);
  if (options.numThreads < 0)
    return loadError(path,
                     "LoadOptions::numThreads is " +
                         std::to_string(options.numThreads) +
                         "; expected 0 (the default) or a thread count",
                     ErrorKind::InvalidArgument);
  std::string error =
      memory ? impl->archive.copy(memory->data(), memory->size())
             : impl->archive.open(path);
  if (!error.empty())
    return loadError(path, error,
                     memory ? ErrorKind::OutOfMemory : ErrorKind::Io);
  if (impl->archive.size == 0)
    return loadError(path, "truncated or not a zip archive: the file is empty");

  std::vector<ZipEntry> zipEntries;
  if (!readZipDirectory(impl->archive.data, impl->archive.size, zipEntries, error))
    return loadError(path, error);
  auto find = [&](const std::string &name) -> const ZipEntry * {
    for (const ZipEntry &entry : zipEntries)
      if (entry.name == name)
        return &entry;
    return nullptr;
  };
  auto bytes = [&](const ZipEntry &entry) {
    return std::string(reinterpret_cast<const char *>(impl->archive.data) +
                           entry.offset,
                       entry.size);
  };

  const ZipEntry *manifestEntry = find("manifest.json");
  if (!manifestEntry)
    return loadError(path, "missing entry 'manifest.json'");
  if (crc32Of(impl->archive.data + manifestEntry->offset, manifestEntry->size) !=
      manifestEntry->crc32)
    return loadError(path, "checksum mismatch in entry 'manifest.json': the "
                           "archive is corrupt");
  std::vector<std::pair<std::string, uint32_t>> files;
  std::vector<uint64_t> sizes;
  ErrorKind kind = ErrorKind::InvalidArchive;
  error = parseManifest(bytes(*manifestEntry), *impl, files, sizes, kind);
  if (!error.empty())
    return loadError(path, error, kind);

  // Every entry the manifest lists must be present and intact, whether or
  // not this runtime will read it.
  for (size_t i = 0; i < files.size(); ++i) {
    const ZipEntry *entry = find(files[i].first);
    if (!entry)
      return loadError(path, "missing entry " + inQuotes(files[i].first));
    if (entry->size != sizes[i] ||
        crc32Of(impl->archive.data + entry->offset, entry->size) !=
            files[i].second)
      return loadError(path, "checksum mismatch in entry " +
                                 inQuotes(files[i].first) +
                                 ": the archive is corrupt");
  }
  error = locateWeights(*impl, zipEntries);
  if (!error.empty())
    return loadError(path, error);
  if (const ZipEntry *source = find(impl->sourceEntry))
    impl->sourceText = bytes(*source);

  impl->cpu = selectCpuVariant(impl->cpuVariants, error);
  if (!impl->cpu)
    return loadError(path, error, ErrorKind::Unsupported);

  const ZipEntry *object = find(impl->cpu->object);
  if (!object)
    return loadError(path, "missing entry " + inQuotes(impl->cpu->object));
  impl->library = loadSharedObject(impl->archive.data + object->offset,
                                   object->size, impl->codeFd, error);
  if (!impl->library)
    return loadError(path, error);
  auto *module = static_cast<const kiln_module *>(
      dlsym(impl->library, KILN_MODULE_SYMBOL));
  if (!module)
    return loadError(path, "the code object has no " KILN_MODULE_SYMBOL
                           " table");
  if (module->abi_version != KILN_ABI_VERSION ||
      module->size < sizeof(kiln_module))
    return loadError(path,
                     "the code object uses ABI version " +
                         std::to_string(module->abi_version) +
                         "; this runtime implements version " +
                         std::to_string(KILN_ABI_VERSION),
                     ErrorKind::Unsupported);
  *module->host = hostApi();
  // The code indexes its weight table by the manifest's order, so the two
  // must agree in count; the addresses are the mapping's, never copies.
  if (module->num_weights != impl->weights.size() ||
      (module->num_weights != 0 && !module->weights))
    return loadError(path, "the code object reads " +
                               std::to_string(module->num_weights) +
                               " weights, but the manifest lists " +
                               std::to_string(impl->weights.size()) +
                               ": the archive is corrupt");
  for (size_t i = 0; i < impl->weights.size(); ++i)
    module->weights[i] = impl->weights[i].data;
  for (const EntryInfo &entry : impl->entries) {
    kiln_entry_fn fn = nullptr;
    for (uint32_t i = 0; i < module->num_entries; ++i) {
      const kiln_entry &candidate = module->entries[i];
      // An optional input is two arguments: its tensor and a presence flag.
      size_t numArgs = entry.args.size();
      for (const ValueInfo &arg : entry.args)
        numArgs += arg.optional;
      if (entry.name == candidate.name &&
          candidate.num_args == static_cast<int32_t>(numArgs) &&
          candidate.num_results == static_cast<int32_t>(entry.results.size()))
        fn = candidate.fn;
    }
    if (!fn)
      return loadError(path, "the code object has no entry point " +
                                 inQuotes(entry.name) + " matching the manifest");
    impl->entryFunctions.push_back(fn);
  }
  return impl;
}

} // namespace

Result<Model> Model::load(const std::string &path,
                          const LoadOptions &options) {
  Result<std::shared_ptr<Impl>> impl = catchAll<std::shared_ptr<Impl>>(
      path + ": ", [&] { return loadArchive(path, options); });
  if (!impl)
    return impl.error();
  return Model(std::move(*impl));
}

Result<Model> Model::loadFromMemory(const void *data, size_t size,
                                    const std::string &name,
                                    const LoadOptions &options) {
  std::string_view bytes(static_cast<const char *>(data), data ? size : 0);
  Result<std::shared_ptr<Impl>> impl = catchAll<std::shared_ptr<Impl>>(
      name + ": ", [&] { return loadArchive(name, options, &bytes); });
  if (!impl)
    return impl.error();
  return Model(std::move(*impl));
}

const std::vector<EntryInfo> &Model::entries() const { return impl->entries; }

const std::vector<WeightInfo> &Model::weights() const { return impl->weights; }

const std::string &Model::cpuTarget() const { return impl->cpu->name; }

int Model::numThreads() const { return impl->numThreads; }

const EntryInfo *Model::entry(std::string_view name) const {
  for (const EntryInfo &entry : impl->entries)
    if (entry.name == name)
      return &entry;
  return nullptr;
}

namespace {

/// Checks that compiled code can work with `input` without any size it
/// derives from the shape wrapping (kiln/abi.h): no dim is negative, and
/// the dims, each 0 counted as 1, span at most KILN_MAX_TENSOR_BYTES.
/// Returns an error message or "".
std::string checkInputSize(const Tensor &input) {
  const std::vector<int64_t> &shape = input.shape();
  if (std::any_of(shape.begin(), shape.end(), [](int64_t d) { return d < 0; }))
    return "a dim is negative";
  uint64_t bound;
  if (!checkedByteSize(shape, dtypeSize(input.dtype()), bound,
                       /*zeroAsOne=*/true))
    return "kiln refuses inputs whose dims, with each 0 counted as 1, span "
           "more than 2^47 bytes";
  if (input.nbytes() != 0 && !input.data())
    return "it has no data";
  return "";
}

/// Checks inputs against the signature: count, dtype, rank, static dims,
/// one size per dim symbol, and sizes that cannot wrap. Returns an error
/// message or "".
std::string checkInputs(const EntryInfo &entry,
                        const std::vector<Tensor> &inputs) {
  // Trailing optional inputs may be left out, as Python's `= None`, and
  // so may trailing inputs with a default.
  size_t required = entry.args.size();
  while (required > 0 && (entry.args[required - 1].optional ||
                          entry.args[required - 1].hasDefault()))
    --required;
  if (inputs.size() < required || inputs.size() > entry.args.size()) {
    std::string names;
    for (const ValueInfo &arg : entry.args)
      names += (names.empty() ? "" : ", ") + arg.name +
               (arg.optional ? " (optional)"
                : arg.hasDefault() ? " (has a default)"
                                   : "");
    std::string count = std::to_string(entry.args.size());
    if (required != entry.args.size())
      count = std::to_string(required) + " to " + count;
    return "'" + entry.name + "' takes " + count + " input" +
           (entry.args.size() == 1 ? "" : "s") + " (" + names + "), got " +
           std::to_string(inputs.size());
  }
  std::vector<std::pair<std::string, std::pair<int64_t, std::string>>> bound;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ValueInfo &arg = entry.args[i];
    const Tensor &input = inputs[i];
    std::string what = "input '" + arg.name + "' of '" + entry.name + "'";
    if (input.isNone()) {
      // None binds no dim symbol: the code never reads an absent input.
      if (!arg.optional && !arg.hasDefault())
        return what + " is required, but got None (only an Optional "
                      "input may be None)";
      continue;
    }
    if (input.dtype() != arg.dtype)
      return what + " must be " + std::string(dtypeName(arg.dtype)) +
             ", got " + std::string(dtypeName(input.dtype()));
    if (input.rank() != static_cast<int64_t>(arg.dims.size()))
      return what + " must have rank " + std::to_string(arg.dims.size()) +
             " (shape " + describeDims(arg.dims) + "), got rank " +
             std::to_string(input.rank()) + " (shape " +
             shapeText(input.shape()) + ")";
    std::string problem = checkInputSize(input);
    if (!problem.empty())
      return what + " has shape " + shapeText(input.shape()) + ": " + problem;
    for (size_t d = 0; d < arg.dims.size(); ++d) {
      int64_t size = input.shape()[d];
      const DimInfo &dim = arg.dims[d];
      if (dim.symbol.empty()) {
        if (size != dim.size)
          return what + " must have shape " + describeDims(arg.dims) +
                 ", got " + shapeText(input.shape()) + " (dim " +
                 std::to_string(d) + " must be " + std::to_string(dim.size) +
                 ")";
        continue;
      }
      if (dim.symbol == "?")
        continue;
      auto it = std::find_if(bound.begin(), bound.end(), [&](const auto &b) {
        return b.first == dim.symbol;
      });
      if (it == bound.end()) {
        bound.push_back({dim.symbol, {size, arg.name}});
      } else if (it->second.first != size) {
        return what + " has " + dim.symbol + " = " + std::to_string(size) +
               " in dim " + std::to_string(d) + ", but input '" +
               it->second.second + "' has " + dim.symbol + " = " +
               std::to_string(it->second.first);
      }
    }
  }
  return "";
}

/// A ranked memref descriptor: allocated, aligned, offset, sizes, strides.
std::vector<int64_t> describeInput(const Tensor &tensor) {
  std::vector<int64_t> desc;
  auto pointer = reinterpret_cast<int64_t>(tensor.data());
  desc.push_back(pointer);
  desc.push_back(pointer);
  desc.push_back(0);
  for (int64_t size : tensor.shape())
    desc.push_back(size);
  int64_t stride = 1;
  std::vector<int64_t> strides(tensor.shape().size());
  for (size_t i = strides.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= tensor.shape()[i];
  }
  desc.insert(desc.end(), strides.begin(), strides.end());
  return desc;
}

/// Turns the result descriptors of a successful call into Tensors. Each
/// output owns its buffer; one that is returned twice, or whose data does
/// not start at its allocation, is copied instead. Every buffer in `live`
/// that no output adopts is freed, even when this throws.
std::vector<Tensor> collectOutputs(const EntryInfo &entry,
                                   const std::vector<int64_t> &results,
                                   const std::vector<void *> &live) {
  std::vector<Tensor> outputs;
  std::vector<void *> owned;
  auto freeUnowned = [&] {
    for (void *ptr : live)
      if (std::find(owned.begin(), owned.end(), ptr) == owned.end())
        hostFree(ptr);
  };
  try {
    owned.reserve(entry.results.size());
    size_t word = 0;
    for (const ValueInfo &info : entry.results) {
      size_t rank = info.dims.size();
      void *allocated = reinterpret_cast<void *>(results[word]);
      auto *aligned = reinterpret_cast<uint8_t *>(results[word + 1]);
      int64_t offset = results[word + 2];
      std::vector<int64_t> shape(results.begin() + word + 3,
                                 results.begin() + word + 3 + rank);
      word += 3 + 2 * rank;
      uint64_t bytes;
      if (!checkedByteSize(shape, dtypeSize(info.dtype), bytes))
        throw std::length_error("result " + inQuotes(info.name) + " of " +
                                inQuotes(entry.name) + " has shape " +
                                shapeText(shape) +
                                ", which no tensor can have");
      uint8_t *data =
          aligned + offset * static_cast<int64_t>(dtypeSize(info.dtype));
      bool taken =
          std::find(owned.begin(), owned.end(), allocated) != owned.end();
      if (data == allocated && !taken) {
        // Owned before adopt: if adopt throws, it has already freed it.
        owned.push_back(allocated);
        outputs.push_back(
            Tensor::adopt(info.dtype, shape, allocated, hostFree));
        continue;
      }
      Tensor copy = Tensor::zeros(info.dtype, shape);
      std::memcpy(copy.data(), data, copy.nbytes());
      outputs.push_back(copy);
    }
  } catch (...) {
    freeUnowned();
    throw;
  }
  freeUnowned();
  return outputs;
}

Result<std::vector<Tensor>> runEntry(const Model::Impl &impl,
                                     std::string_view name,
                                     const std::vector<Tensor> &inputs) {
  size_t index = 0;
  while (index < impl.entries.size() && impl.entries[index].name != name)
    ++index;
  if (index == impl.entries.size()) {
    std::string names;
    for (const EntryInfo &entry : impl.entries)
      names += (names.empty() ? "" : ", ") + entry.name;
    return Error{"no entry point " + inQuotes(name) +
                     " in this archive (it has: " + names + ")",
                 ErrorKind::NotFound};
  }
  const EntryInfo &entry = impl.entries[index];
  std::string error = checkInputs(entry, inputs);
  if (!error.empty())
    return Error{error};

  // An optional input passes its tensor, then a rank-0 bool that says
  // whether it is there (docs/archive.md). An absent one passes no data
  // (a scalar, a zero) and its declared rank, static sizes kept and
  // symbols 0.
  static const uint8_t kPresent = 1, kAbsent = 0;
  std::vector<std::vector<int64_t>> descriptors;
  for (size_t i = 0; i < entry.args.size(); ++i) {
    const ValueInfo &arg = entry.args[i];
    bool omitted = i >= inputs.size();
    bool absent = omitted || inputs[i].isNone();
    // A default stands for an input left out, and for None unless None
    // is a value the input can take.
    if (absent && arg.hasDefault() && (omitted || !arg.optional)) {
      absent = false;
      descriptors.push_back(describeInput(arg.defaultValue));
    } else if (!absent) {
      descriptors.push_back(describeInput(inputs[i]));
    } else {
      std::vector<int64_t> shape;
      for (const DimInfo &dim : arg.dims)
        shape.push_back(dim.symbol.empty() ? dim.size : 0);
      // The code reads a scalar argument where it starts, before any test
      // of its flag, so an absent one points at a zero.
      static const int64_t kZero = 0;
      descriptors.push_back(describeInput(Tensor::borrow(
          arg.dtype, shape,
          arg.scalar ? const_cast<int64_t *>(&kZero) : nullptr)));
    }
    if (arg.optional)
      descriptors.push_back(describeInput(Tensor::borrow(
          DType::Bool, {},
          const_cast<uint8_t *>(absent ? &kAbsent : &kPresent))));
  }
  std::vector<void *> args;
  for (auto &desc : descriptors)
    args.push_back(desc.data());
  size_t resultWords = 0;
  for (const ValueInfo &result : entry.results)
    resultWords += 3 + 2 * result.dims.size();
  std::vector<int64_t> results(resultWords + 1, 0);

  std::vector<void *> live;
  Error failure;
  if (!invokeEntry(impl, impl.entryFunctions[index], args.data(),
                   results.data(), live, failure))
    return failure;
  return collectOutputs(entry, results, live);
}

} // namespace

Result<std::vector<Tensor>> Model::run(std::string_view name,
                                       const std::vector<Tensor> &inputs) const {
  return catchAll<std::vector<Tensor>>(
      "", [&] { return runEntry(*impl, name, inputs); });
}

} // namespace kiln
