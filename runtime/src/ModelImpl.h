//===- ModelImpl.h - What a loaded archive holds (private) ----------------===//
#ifndef KILN_RUNTIME_MODELIMPL_H
#define KILN_RUNTIME_MODELIMPL_H

#include "kiln/Model.h"
#include "kiln/abi.h"

#include "CpuFeatures.h"
#include "CudaPlugin.h"
#include "KernelLibrary.h"
#include "ListedFiles.h"
#include "Site.h"
#include "Untrusted.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kiln {


/// A kernel library call of static shapes that the CPU code makes (the
/// manifest's "library_calls", codegen/cpu/LibraryCallRecords.cpp), got
/// ready at load (PreparedCalls.cpp).
struct LibraryCall {
  struct Operand {
    std::vector<int64_t> sizes, strides; // in elements
    int64_t weight = -1; // its row of "weights", or -1 for no weight
    int64_t offset = 0;  // a weight's first element, from its start
  };
  enum class Op { Matmul, Conv2d } op = Op::Matmul;
  /// matmul: a, b, out, or a, b, bias, out; conv2d: input, weight, out.
  std::vector<Operand> operands;
  /// matmul with a bias: the activation; conv2d: strides, pads,
  /// dilations (H then W each) and groups.
  std::vector<int64_t> params;
};

struct Model::Impl {
  /// The archive, mapped: weights are used where they lie.
  MappedFile archive;

  std::vector<EntryInfo> entries;
  std::vector<kiln_entry_fn> entryFunctions; // parallel to entries
  std::vector<std::string> strings;
  std::vector<Site> sites;
  std::string sourcePath;  // as given to kiln compile
  std::string sourceEntry; // the archive entry holding its text
  std::string sourceText;
  /// The archive's code objects, best first, and the one loaded.
  std::vector<CpuVariant> cpuVariants;
  /// The code object loaded: into cpuVariants, or the CUDA host code
  /// (cudaTarget->host).
  const CpuVariant *cpu = nullptr;
  /// The manifest's "weights" table; `data` is set once the entries are
  /// found in the mapping. weightFiles is parallel: the entry of each.
  std::vector<WeightInfo> weights;
  std::vector<std::string> weightFiles;

  /// A CUDA archive's kernels (manifest targets.cuda), and once loaded,
  /// the GPU's copy of them and of the weights; the code object is then
  /// host code and every tensor of a call lives on the GPU.
  std::optional<CudaTarget> cudaTarget;
  std::unique_ptr<CudaModel> cuda;

  /// The threads one call's parallel loops may use (LoadOptions).
  int numThreads = 1;

  /// The CPU code's kernel library calls to get ready at load.
  std::vector<LibraryCall> libraryCalls;

  /// Its GEMM weights as oneDNN's kernels read them, packed at first use.
  mutable PackedWeights packedWeights;

  void *library = nullptr; // dlopen handle of the code object
  /// The memfd the code object was loaded from. It stays open as long as
  /// the library is loaded: the loader knows the library by the name
  /// "/proc/self/fd/N", and would hand a later load that reused N this
  /// library instead of loading the new one.
  int codeFd = -1;

  Impl() = default;
  Impl(const Impl &) = delete;
  Impl &operator=(const Impl &) = delete;
  ~Impl();

  /// "file:line:col: error: message", then the source line and a caret, as
  /// compile errors print.
  std::string renderSiteError(int64_t site, const std::string &message) const;
  /// The message of check `site` with its {0} to {3} filled from
  /// `values`; "run-time check N failed" for a site the table lacks.
  std::string siteMessage(int64_t site, const int64_t values[4]) const;
};

/// Whether this runtime runs code of ABI version `version`
/// (KILN_ABI_MIN_VERSION to KILN_ABI_VERSION, kiln/abi.h).
inline bool abiSupported(int64_t version) {
  return version >= KILN_ABI_MIN_VERSION && version <= KILN_ABI_VERSION;
}

/// "this runtime runs ABI versions 7 to 9", for the refusals.
inline std::string abiVersionsText() {
  return "this runtime runs ABI versions " +
         std::to_string(KILN_ABI_MIN_VERSION) + " to " +
         std::to_string(KILN_ABI_VERSION);
}

/// Fills `impl` from manifest.json. Returns an error message or "", and
/// sets `kind` to Unsupported when the archive is sound but newer than this
/// runtime (format or ABI version).
std::string parseManifest(const std::string &text, Model::Impl &impl,
                          std::vector<ListedFile> &files, ErrorKind &kind);

/// A caller's output that compiled code may write result `i` into
/// (kiln_host_api.alloc_result): `data` is null where none is lent.
struct LentOutput {
  void *data = nullptr;
  uint64_t bytes = 0;
  bool taken = false;
};

/// Runs an entry function with the host API bound to a fresh call state.
/// On success `live` holds the allocations still alive (the results); on a
/// raise every allocation is freed and `error` holds the rendered message.
/// `lent`, one per result or empty, is what alloc_result may hand out.
bool invokeEntry(const Model::Impl &model, kiln_entry_fn fn, void **args,
                 void *results, std::vector<void *> &live, Error &error,
                 std::vector<LentOutput> *lent = nullptr);

/// "[2, 3]", as PyTorch's messages print a shape.
std::string shapeText(const std::vector<int64_t> &shape);

/// The host API table installed in every code object.
const kiln_host_api *hostApi();
/// Releases memory obtained from hostApi()->alloc.
void hostFree(void *ptr);

} // namespace kiln

#endif // KILN_RUNTIME_MODELIMPL_H
