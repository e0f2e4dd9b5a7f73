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
#include "Warmup.h"
#include "CpuFeatures.h"
#include "EntryCall.h"
#include "ModelImpl.h"
#include "PreparedCalls.h"
#include "ThreadPool.h"
#include "Untrusted.h"
#include "ListedFiles.h"
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

namespace {

/// Expands {0} to {3} and doubled braces in a site message.
std::string expand(const std::string &text, const int64_t values[4]) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {
      out += c;
      ++i;
    } else if (c == '{' && i + 2 < text.size() && text[i + 2] == '}' &&
               text[i + 1] >= '0' && text[i + 1] <= '3') {
      out += std::to_string(values[text[i + 1] - '0']);
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

} // namespace

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

std::string Model::Impl::siteMessage(int64_t site,
                                     const int64_t values[4]) const {
  if (site < 0 || site >= static_cast<int64_t>(sites.size()))
    return "run-time check " + std::to_string(site) + " failed";
  return expand(sites[site].message, values);
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
/// compressed entries, and every entry "files" lists has passed its checksum.)
/// Returns an error message or "".
std::string locateWeights(Model::Impl &impl, const ZipIndex &zipEntries) {
  for (size_t i = 0; i < impl.weights.size(); ++i) {
    WeightInfo &weight = impl.weights[i];
    const std::string &file = impl.weightFiles[i];
    const ZipEntry *entry = zipEntries.find(file);
    assert(entry &&
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

  std::vector<ZipEntry> entries;
  if (!readZipDirectory(impl->archive.data, impl->archive.size, entries, error))
    return loadError(path, error);
  const ZipIndex zipEntries(entries);
  auto bytes = [&](const ZipEntry &entry) {
    return std::string(reinterpret_cast<const char *>(impl->archive.data) +
                           entry.offset,
                       entry.size);
  };

  const ZipEntry *manifestEntry = zipEntries.find("manifest.json");
  if (!manifestEntry)
    return loadError(path, "missing entry 'manifest.json'");
  if (crc32Of(impl->archive.data + manifestEntry->offset, manifestEntry->size) !=
      manifestEntry->crc32)
    return loadError(path, "checksum mismatch in entry 'manifest.json': the "
                           "archive is corrupt");
  std::vector<ListedFile> files;
  ErrorKind kind = ErrorKind::InvalidArchive;
  error = parseManifest(bytes(*manifestEntry), *impl, files, kind);
  if (!error.empty())
    return loadError(path, error, kind);

  // Every entry the manifest lists must be present and intact, whether or
  // not this runtime will read it.
  error = checkListedFiles(impl->archive.data, zipEntries, files,
                           impl->numThreads);
  if (!error.empty())
    return loadError(path, error);
  error = locateWeights(*impl, zipEntries);
  if (!error.empty())
    return loadError(path, error);
  if (const ZipEntry *source = zipEntries.find(impl->sourceEntry))
    impl->sourceText = bytes(*source);

  // Which code runs: the GPU's when the archive has it, unless asked.
  bool gpu = options.device ? *options.device == Device::CUDA
                            : impl->cudaTarget.has_value();
  if (gpu && !impl->cudaTarget)
    return loadError(path,
                     "the archive has no CUDA code (compile it with "
                     "--target=cuda or --target=cpu,cuda)",
                     ErrorKind::Unsupported);
  if (!gpu && impl->cpuVariants.empty())
    return loadError(path,
                     "the archive has no CPU code, only CUDA code (compile "
                     "it with --target=cpu,cuda to have both)",
                     ErrorKind::Unsupported);
  if (gpu) {
    // Every file of targets.cuda must be one the manifest checksums.
    auto listed = [&](const std::string &name) {
      return isListed(files, name);
    };
    bool complete = listed(impl->cudaTarget->ptxFile);
    for (const auto &cubin : impl->cudaTarget->cubins)
      complete = complete && listed(cubin.second);
    if (!complete)
      return loadError(path, "targets.cuda names an entry that \"files\" "
                             "does not list: the archive is corrupt");
    CudaPlugin *plugin = cudaPlugin(error);
    if (plugin)
      impl->cuda = plugin->load(
        *impl->cudaTarget,
        [&](const std::string &name) -> std::string_view {
          const ZipEntry *entry = zipEntries.find(name);
          return {reinterpret_cast<const char *>(impl->archive.data) +
                      entry->offset,
                  entry->size};
        },
        impl->weights, error);
    if (!impl->cuda) {
      // A CPU+CUDA archive can run its CPU code instead, when asked.
      if (!impl->cpuVariants.empty())
        error += "; the archive also has CPU code, which "
                 "LoadOptions::device = Device::CPU (kiln run --device cpu) "
                 "runs";
      return loadError(path, error, ErrorKind::Unsupported);
    }
  }

  if (gpu) {
    impl->strings = impl->cudaTarget->strings;
    impl->sites = impl->cudaTarget->sites;
  }
  impl->cpu = selectCpuVariant(gpu ? impl->cudaTarget->host : impl->cpuVariants,
                               error);
  if (!impl->cpu)
    return loadError(path, error, ErrorKind::Unsupported);

  const ZipEntry *object = zipEntries.find(impl->cpu->object);
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
  if (!abiSupported(module->abi_version) ||
      module->size < sizeof(kiln_module))
    return loadError(path,
                     "the code object uses ABI version " +
                         std::to_string(module->abi_version) + "; " +
                         abiVersionsText(),
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
  // A CUDA archive's code reads the weights' copies on the GPU.
  for (size_t i = 0; i < impl->weights.size(); ++i)
    module->weights[i] = impl->cuda ? impl->cuda->weights()[i]
                                    : impl->weights[i].data;
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
  if (!gpu && options.prepare) {
    stockBlocks(impl->cpu->blocks);
    error = prepareLibraryCalls(*impl);
    if (!error.empty())
      return loadError(path, error);
  }
  return impl;
}

} // namespace

/// The loaded model, warmed up when `options` asks (Warmup.cpp).
Result<Model> Model::ready(const std::string &name,
                           Result<std::shared_ptr<Impl>> impl,
                           const LoadOptions &options) {
  if (!impl)
    return impl.error();
  Model model(std::move(*impl));
  if (options.warmup)
    if (Result<void> warm = warmUp(model, options.warmupDims); !warm)
      return loadError(name, warm.error().message, warm.error().kind);
  return model;
}

Result<Model> Model::load(const std::string &path,
                          const LoadOptions &options) {
  return ready(path,
               catchAll<std::shared_ptr<Impl>>(
                   path + ": ", [&] { return loadArchive(path, options); }),
               options);
}

Result<Model> Model::loadFromMemory(const void *data, size_t size,
                                    const std::string &name,
                                    const LoadOptions &options) {
  std::string_view bytes(static_cast<const char *>(data), data ? size : 0);
  return ready(name,
               catchAll<std::shared_ptr<Impl>>(
                   name + ": ",
                   [&] { return loadArchive(name, options, &bytes); }),
               options);
}

const std::vector<EntryInfo> &Model::entries() const { return impl->entries; }

const std::vector<WeightInfo> &Model::weights() const { return impl->weights; }

const std::string &Model::cpuTarget() const { return impl->cpu->name; }

int Model::numThreads() const { return impl->numThreads; }

Device Model::device() const {
  return impl->cuda ? Device::CUDA : Device::CPU;
}

Result<Tensor> copyTo(const Tensor &tensor, Device device) {
  return catchAll<Tensor>("", [&]() -> Result<Tensor> {
    if (tensor.device() == device || tensor.isNone())
      return tensor;
    std::string error;
    CudaPlugin *plugin = cudaPlugin(error);
    Tensor copy;
    if (plugin)
      copy = plugin->copyAcrossDevices(tensor, device, error);
    if (!error.empty())
      return Error{error, ErrorKind::Unsupported};
    return copy;
  });
}

const EntryInfo *Model::entry(std::string_view name) const {
  for (const EntryInfo &entry : impl->entries)
    if (entry.name == name)
      return &entry;
  return nullptr;
}

/// The index of entry `name`, or the NotFound error that lists them.
static Result<size_t> findEntry(const Model::Impl &impl,
                                std::string_view name) {
  for (size_t i = 0; i < impl.entries.size(); ++i)
    if (impl.entries[i].name == name)
      return i;
  std::string names;
  for (const EntryInfo &entry : impl.entries)
    names += (names.empty() ? "" : ", ") + entry.name;
  return Error{"no entry point " + inQuotes(name) +
                   " in this archive (it has: " + names + ")",
               ErrorKind::NotFound};
}

Result<std::vector<Tensor>> Model::run(std::string_view name,
                                       const std::vector<Tensor> &inputs) const {
  return catchAll<std::vector<Tensor>>("", [&]() -> Result<std::vector<Tensor>> {
    Result<size_t> index = findEntry(*impl, name);
    if (!index)
      return index.error();
    return runEntry(*impl, *index, inputs);
  });
}

Result<Function> Model::function(std::string_view name) const {
  return catchAll<Function>("", [&]() -> Result<Function> {
    Result<size_t> index = findEntry(*impl, name);
    if (!index)
      return index.error();
    return Function(impl, *index);
  });
}

const EntryInfo &Function::info() const { return impl->entries[index]; }

Result<void> Function::run(const std::vector<Tensor> &inputs,
                           std::vector<Tensor> &outputs) const {
  return catchAll<void>("", [&] { return runEntryInto(*impl, index, inputs,
                                                      outputs); });
}

} // namespace kiln
