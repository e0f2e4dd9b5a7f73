//===- kiln/Model.h - Load a .kiln archive and run its entry points ------===//
//
//   auto model = kiln::Model::load("myfun.kiln");
//   if (!model) { std::cerr << model.error().message << "\n"; return 1; }
//   auto outputs = model->run("myfun", {kiln::Tensor::borrow(...)});
//
// A Model is immutable once loaded, so any number of threads may call run()
// on it at once. Copies of a Model share the loaded archive.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_MODEL_H
#define KILN_MODEL_H

#include "kiln/Result.h"
#include "kiln/Tensor.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The runtime is built with hidden visibility; its API is what this exports.
#pragma GCC visibility push(default)

namespace kiln {

/// One dim of a signature: a static size, or a symbol such as "N" that is
/// bound per call (size is then -1).
struct DimInfo {
  int64_t size = -1;
  std::string symbol;
};

/// One argument or result of an entry point.
struct ValueInfo {
  std::string name; // the Python parameter name; "result0"… for results
  DType dtype = DType::F32;
  /// True for a Python int/float/bool, passed as a rank-0 tensor.
  bool scalar = false;
  /// True for an Optional input (Optional[Tensor], Optional[int], ...):
  /// the caller may pass Tensor::none() (or, when every input after it is
  /// optional too, leave it out).
  bool optional = false;
  std::vector<DimInfo> dims;
  /// For a scalar input with a Python default (`k: int = 2`): the value, a
  /// rank-0 tensor of `dtype`, that run() passes when the input is left
  /// out or given as Tensor::none(). Tensor::none() when there is none.
  Tensor defaultValue = Tensor::none();
  bool hasDefault() const { return !defaultValue.isNone(); }
  /// For a `str` parameter chosen at run time (`--arg mode=str:relu|gelu`):
  /// the values it may take. The input is then an i64 scalar, the index
  /// of the value in this list (choiceIndex), and its default an index too.
  std::vector<std::string> strChoices;
  /// The index of `value` in strChoices, or -1.
  int64_t choiceIndex(std::string_view value) const {
    for (size_t i = 0; i < strChoices.size(); ++i)
      if (strChoices[i] == value)
        return static_cast<int64_t>(i);
    return -1;
  }
};

struct EntryInfo {
  std::string name;
  std::vector<ValueInfo> args;
  /// Named result0, result1, ..., or by key for an entry that returns a
  /// dict (`{"logits": ..., "hidden": ...}`).
  std::vector<ValueInfo> results;
  /// The index in run()'s outputs of the result called `name`, or -1.
  int64_t resultIndex(std::string_view name) const {
    return indexOf(results, name);
  }
  /// The index in run()'s inputs of the input called `name` ("x", or
  /// "xs.1" for an element of a List or Tuple parameter), or -1.
  int64_t argIndex(std::string_view name) const { return indexOf(args, name); }

private:
  static int64_t indexOf(const std::vector<ValueInfo> &values,
                         std::string_view name) {
    for (size_t i = 0; i < values.size(); ++i)
      if (values[i].name == name)
        return static_cast<int64_t>(i);
    return -1;
  }
};

/// A parameter or buffer of the compiled nn.Module, baked into the archive.
struct WeightInfo {
  std::string name; // as in state_dict(): "conv1.weight"
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  /// The elements, dense row-major, 64-byte aligned, inside the archive's
  /// read-only mapping: valid while any copy of the Model lives, and never
  /// to be written.
  const void *data = nullptr;
};

/// How a loaded model runs.
struct LoadOptions {
  /// The threads one call's parallel loops may use, the calling thread
  /// included: 0 for the default (KILN_NUM_THREADS if set, else the cores
  /// this process may run on), 1 to stay on the calling thread. All models
  /// share one pool of threads (docs/runtime.md, Threads).
  int numThreads = 0;
  /// Which of the archive's code runs: unset for its GPU code when it has
  /// any (--target=cuda), else its CPU code; Device::CPU for the CPU code
  /// of a --target=cpu,cuda archive, on a machine without a GPU say.
  std::optional<Device> device;
  /// Calls every entry point once before load returns, on inputs of zeros
  /// (a Python number: its default, else 0; an optional input: None), so
  /// that the first call an app makes finds ready what a call touches for
  /// the first time: the GPU's memory pool grown to a call's needs, the
  /// cuBLAS and cuDNN kernels of its shapes loaded, oneDNN's primitives
  /// built, the code's pages mapped (docs/runtime.md, Warm-up). A symbolic
  /// dim takes its size from `warmupDims` ({"B", 32}); an entry point
  /// with a symbol it lacks, or whose call on zeros fails, fails the load.
  bool warmup = false;
  std::map<std::string, int64_t> warmupDims;
  /// Gets ready at load what a first call of the CPU code would otherwise
  /// do for the first time, where the shapes are static: builds oneDNN's
  /// primitives for its kernel library calls, packs the weights they read
  /// (and runs the small ones once on zeros), and faults in the memory
  /// blocks one call allocates, without running any of the model's code
  /// (docs/runtime.md, Prepared at load). Off, the first call does it.
  bool prepare = true;
};

class Function;

class Model {
public:
  /// Maps the archive, checks its manifest, checksums and target CPU, and
  /// loads its code. Nothing is written to disk.
  static Result<Model> load(const std::string &path,
                            const LoadOptions &options = {});
  /// Loads an archive held in memory (`size` bytes at `data`), with the
  /// same checks. The bytes are copied, so the buffer may be freed once
  /// this returns. Messages name the archive `name`.
  static Result<Model> loadFromMemory(const void *data, size_t size,
                                      const std::string &name = "<memory>",
                                      const LoadOptions &options = {});

  const std::vector<EntryInfo> &entries() const;
  /// The entry called `name`, or nullptr.
  const EntryInfo *entry(std::string_view name) const;
  /// The weights the compiled code reads, in the manifest's order; empty
  /// for an archive compiled from functions rather than an nn.Module.
  const std::vector<WeightInfo> &weights() const;
  /// The `--target-cpu` name of the code object that was loaded: the first
  /// of the archive's (best first) that this CPU runs, e.g. "x86-64-v3".
  const std::string &cpuTarget() const;
  /// The threads one call may use (LoadOptions::numThreads, resolved).
  int numThreads() const;
  /// Where the entry points run: Device::CUDA for a --target=cuda archive,
  /// whose run() takes inputs on either device (a CPU tensor of rank 1 or
  /// more is copied to the GPU for the call; a CUDA one is used in place;
  /// a rank-0 input must be on the CPU) and returns CUDA tensors.
  Device device() const;

  /// Runs entry point `name`. Inputs are checked against its signature
  /// (count, dtype, rank, static dims, and one size per dim symbol) before
  /// any code runs. An optional input takes Tensor::none() for None, and
  /// trailing optional inputs may be left out (None, as a Python default).
  /// An input with a default (ValueInfo::defaultValue) takes it when given
  /// as Tensor::none() or, trailing, left out. Errors raised by the
  /// compiled code come back as an Error whose message points at the script's source line. The Error's
  /// kind tells a bad call (InvalidArgument, NotFound) from a failure
  /// inside the compiled code (Runtime, OutOfMemory).
  Result<std::vector<Tensor>> run(std::string_view name,
                                  const std::vector<Tensor> &inputs) const;

  /// Entry point `name`, looked up once, for calls that allocate nothing
  /// (Function::run). NotFound when there is none.
  Result<Function> function(std::string_view name) const;

  struct Impl;

private:
  explicit Model(std::shared_ptr<const Impl> impl) : impl(std::move(impl)) {}
  static Result<Model> ready(const std::string &name,
                             Result<std::shared_ptr<Impl>> impl,
                             const LoadOptions &options);
  std::shared_ptr<const Impl> impl;
};

/// A copy of `tensor` on `device`, or `tensor` itself when it is there
/// already. Copies to and from the GPU go through the CUDA driver, which
/// is loaded on first use; without one this fails ("no CUDA device: ...").
Result<Tensor> copyTo(const Tensor &tensor, Device device);

/// An entry point of a loaded Model, for calls on a hot path: run() checks
/// the inputs exactly as Model::run does, then writes each result into a
/// tensor the caller made, so a warm call allocates nothing at all. It
/// holds the Model's archive, and like the Model it may be used by any
/// number of threads at once.
///
///   auto forward = model->function("forward");
///   std::vector<kiln::Tensor> out = {kiln::Tensor::zeros(kiln::DType::F32, {1, 10})};
///   for (...) forward->run({x}, out);
class Function {
public:
  const EntryInfo &info() const;
  /// Runs the entry on `inputs` (as Model::run takes them) and copies
  /// result i into outputs[i] (on either device, for a CUDA archive),
  /// which must have the result's dtype and,
  /// once the call has run, its shape (a result with a dim symbol has the
  /// size the inputs gave it). On any error no output is written.
  Result<void> run(const std::vector<Tensor> &inputs,
                   std::vector<Tensor> &outputs) const;

private:
  friend class Model;
  Function(std::shared_ptr<const Model::Impl> impl, size_t index)
      : impl(std::move(impl)), index(index) {}
  std::shared_ptr<const Model::Impl> impl;
  size_t index;
};

} // namespace kiln

#pragma GCC visibility pop

#endif // KILN_MODEL_H
