//===- EntryCall.cpp - One call of an entry point -------------------------===//
//
// The path from run()'s tensors to the compiled entry function and back:
// the inputs checked against the signature, memref descriptors for them,
// the call (invokeEntry, HostApi.cpp), and the results as tensors, either
// new ones (Model::run) or copied into the caller's (Function::run). The
// descriptors and the call's bookkeeping live in per-thread buffers that
// keep their capacity, so a warm Function::run allocates nothing.
//
//===----------------------------------------------------------------------===//
#include "EntryCall.h"

#include "ModelImpl.h"
#include "Untrusted.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace kiln {

namespace {

std::string describeDims(const std::vector<DimInfo> &dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    out += (i ? ", " : "") +
           (dims[i].symbol.empty() ? std::to_string(dims[i].size)
                                   : dims[i].symbol);
  return out + "]";
}


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

} // namespace

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
  struct Binding {
    const std::string *symbol;
    int64_t size;
    const std::string *input;
  };
  thread_local std::vector<Binding> bound;
  bound.clear();
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ValueInfo &arg = entry.args[i];
    const Tensor &input = inputs[i];
    // Built only for a message: a call whose inputs are right allocates
    // nothing here.
    auto what = [&] {
      return "input '" + arg.name + "' of '" + entry.name + "'";
    };
    if (input.isNone()) {
      // None binds no dim symbol: the code never reads an absent input.
      if (!arg.optional && !arg.hasDefault())
        return what() + " is required, but got None (only an Optional "
                      "input may be None)";
      continue;
    }
    if (input.dtype() != arg.dtype)
      return what() + " must be " + std::string(dtypeName(arg.dtype)) +
             ", got " + std::string(dtypeName(input.dtype()));
    if (input.rank() != static_cast<int64_t>(arg.dims.size()))
      return what() + " must have rank " + std::to_string(arg.dims.size()) +
             " (shape " + describeDims(arg.dims) + "), got rank " +
             std::to_string(input.rank()) + " (shape " +
             shapeText(input.shape()) + ")";
    std::string problem = checkInputSize(input);
    if (!problem.empty())
      return what() + " has shape " + shapeText(input.shape()) + ": " + problem;
    for (size_t d = 0; d < arg.dims.size(); ++d) {
      int64_t size = input.shape()[d];
      const DimInfo &dim = arg.dims[d];
      if (dim.symbol.empty()) {
        if (size != dim.size)
          return what() + " must have shape " + describeDims(arg.dims) +
                 ", got " + shapeText(input.shape()) + " (dim " +
                 std::to_string(d) + " must be " + std::to_string(dim.size) +
                 ")";
        continue;
      }
      if (dim.symbol == "?")
        continue;
      auto it = std::find_if(bound.begin(), bound.end(), [&](const auto &b) {
        return *b.symbol == dim.symbol;
      });
      if (it == bound.end()) {
        bound.push_back({&dim.symbol, size, &arg.name});
      } else if (it->size != size) {
        return what() + " has " + dim.symbol + " = " + std::to_string(size) +
               " in dim " + std::to_string(d) + ", but input '" +
               *it->input + "' has " + dim.symbol + " = " +
               std::to_string(it->size);
      }
    }
  }
  return "";
}

namespace {

/// One result as the entry's descriptor words give it.
struct ResultView {
  void *allocated;
  uint8_t *data; // its first element: aligned + offset
  std::vector<int64_t> shape;
  uint64_t bytes;
};

/// Reads the result `info` at `word` (advanced past it). Throws
/// std::length_error for a shape no tensor can have.
ResultView readResult(const EntryInfo &entry, const ValueInfo &info,
                      const std::vector<int64_t> &results, size_t &word) {
  size_t rank = info.dims.size();
  ResultView view;
  view.allocated = reinterpret_cast<void *>(results[word]);
  view.data = reinterpret_cast<uint8_t *>(results[word + 1]) +
              results[word + 2] * static_cast<int64_t>(dtypeSize(info.dtype));
  view.shape.assign(results.begin() + word + 3,
                    results.begin() + word + 3 + rank);
  word += 3 + 2 * rank;
  if (!checkedByteSize(view.shape, dtypeSize(info.dtype), view.bytes))
    throw std::length_error("result " + inQuotes(info.name) + " of " +
                            inQuotes(entry.name) + " has shape " +
                            shapeText(view.shape) +
                            ", which no tensor can have");
  return view;
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
      ResultView r = readResult(entry, info, results, word);
      bool taken =
          std::find(owned.begin(), owned.end(), r.allocated) != owned.end();
      if (r.data == r.allocated && !taken) {
        // Owned before adopt: if adopt throws, it has already freed it.
        owned.push_back(r.allocated);
        outputs.push_back(
            Tensor::adopt(info.dtype, r.shape, r.allocated, hostFree));
        continue;
      }
      Tensor copy = Tensor::zeros(info.dtype, r.shape);
      std::memcpy(copy.data(), r.data, copy.nbytes());
      outputs.push_back(copy);
    }
  } catch (...) {
    freeUnowned();
    throw;
  }
  freeUnowned();
  return outputs;
}

/// Appends the descriptor of a dense row-major tensor at `data`:
/// allocated, aligned, offset, sizes, strides.
void appendDescriptor(std::vector<int64_t> &words, const void *data,
                      const std::vector<int64_t> &shape) {
  auto pointer = reinterpret_cast<int64_t>(data);
  words.push_back(pointer);
  words.push_back(pointer);
  words.push_back(0);
  words.insert(words.end(), shape.begin(), shape.end());
  size_t first = words.size();
  words.resize(first + shape.size());
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    words[first + i] = stride;
    stride *= shape[i];
  }
}

/// The words of one call, per thread, kept between calls.
struct CallBuffers {
  std::vector<int64_t> words;
  std::vector<size_t> starts;
  std::vector<void *> args;
  std::vector<int64_t> results;
  std::vector<void *> live;
  std::vector<LentOutput> lent;
};

/// Checks the inputs, fills `buffers` with their descriptors and room for
/// the results, and calls the entry. Returns the error, or an empty Error
/// with `buffers.results` and `buffers.live` filled.
Result<void> call(const Model::Impl &impl, size_t index,
                  const std::vector<Tensor> &inputs, CallBuffers &buffers,
                  CudaCall *device = nullptr,
                  std::vector<LentOutput> *lent = nullptr) {
  const EntryInfo &entry = impl.entries[index];
  std::string error = checkInputs(entry, inputs);
  if (!error.empty())
    return Error{error};

  // An optional input passes its tensor, then a rank-0 bool that says
  // whether it is there (docs/archive.md). An absent one passes no data
  // (a scalar, a zero) and its declared rank, static sizes kept and
  // symbols 0.
  static const uint8_t kPresent = 1, kAbsent = 0;
  static const int64_t kZero = 0;
  static const std::vector<int64_t> kScalar;
  thread_local std::vector<int64_t> absentShape;
  buffers.words.clear();
  buffers.starts.clear();
  for (size_t i = 0; i < entry.args.size(); ++i) {
    const ValueInfo &arg = entry.args[i];
    bool omitted = i >= inputs.size();
    bool absent = omitted || inputs[i].isNone();
    buffers.starts.push_back(buffers.words.size());
    // A default stands for an input left out, and for None unless None
    // is a value the input can take.
    const Tensor *given = nullptr;
    if (absent && arg.hasDefault() && (omitted || !arg.optional))
      given = &arg.defaultValue;
    else if (!absent)
      given = &inputs[i];
    if (given) {
      absent = false;
      const void *data = given->data();
      // For a GPU, a CPU tensor is copied to the device; a rank-0 input (a
      // Python scalar) stays on the CPU, where the host code reads it.
      bool onGpu = given->device() == Device::CUDA;
      if (onGpu && (!device || given->rank() == 0))
        return Error{"input '" + arg.name + "' of '" + entry.name +
                     "' is a CUDA tensor, but " +
                     (device ? "a rank-0 input (a Python number) must be on "
                               "the CPU"
                             : "this archive runs on the CPU (compile it "
                               "with --target=cuda, or copy the input with "
                               "kiln::copyTo)"),
                     ErrorKind::InvalidArgument};
      if (device && !onGpu && given->rank() > 0) {
        data = device->upload(data, given->nbytes(), error);
        if (!error.empty())
          return Error{error};
      }
      appendDescriptor(buffers.words, data, given->shape());
    } else {
      absentShape.clear();
      for (const DimInfo &dim : arg.dims)
        absentShape.push_back(dim.symbol.empty() ? dim.size : 0);
      // The code reads a scalar argument where it starts, before any test
      // of its flag, so an absent one points at a zero.
      appendDescriptor(buffers.words, arg.scalar ? &kZero : nullptr,
                       absentShape);
    }
    if (arg.optional) {
      buffers.starts.push_back(buffers.words.size());
      appendDescriptor(buffers.words, absent ? &kAbsent : &kPresent, kScalar);
    }
  }
  buffers.args.clear();
  for (size_t start : buffers.starts)
    buffers.args.push_back(buffers.words.data() + start);
  size_t resultWords = 0;
  for (const ValueInfo &result : entry.results)
    resultWords += 3 + 2 * result.dims.size();
  buffers.results.assign(resultWords + 1, 0);

  Error failure;
  if (!invokeEntry(impl, impl.entryFunctions[index], buffers.args.data(),
                   buffers.results.data(), buffers.live, failure, lent))
    return failure;
  return {};
}

/// A call of `impl`'s CUDA code (impl.cuda is loaded, so the plugin is).
std::unique_ptr<CudaCall> beginCudaCall(const Model::Impl &impl) {
  std::string unused;
  return cudaPlugin(unused)->beginCall(*impl.cuda, impl.numThreads);
}

/// Waits for `device`'s work: a kernel's failure, or a run-time check that
/// failed in a kernel, reported at its site as the CPU reports it.
bool finishCudaCall(const Model::Impl &impl, CudaCall &device,
                    Error &failure) {
  int64_t check[5] = {};
  std::string error;
  if (!device.finish(check, error)) {
    failure = Error{error, ErrorKind::Runtime};
    return false;
  }
  if (check[0] == 0)
    return true;
  // A site the archive lacks is rendered as such: the record is the
  // kernel's, and a corrupt archive may have written anything.
  int64_t site = check[0] - 1;
  failure = Error{impl.renderSiteError(site, impl.siteMessage(site, check + 1)),
                  ErrorKind::Runtime};
  return false;
}

CallBuffers &threadBuffers() {
  thread_local CallBuffers buffers;
  return buffers;
}

/// The results of a call on the GPU as CUDA tensors, each owning its
/// buffer; once the call's work is done.
Result<std::vector<Tensor>> deviceOutputs(const Model::Impl &impl,
                                          const EntryInfo &entry,
                                          const std::vector<int64_t> &results,
                                          CudaCall &device) {
  std::vector<Tensor> outputs;
  size_t word = 0;
  std::string error;
  for (const ValueInfo &info : entry.results) {
    ResultView r = readResult(entry, info, results, word);
    Tensor output;
    if (!device.takeResult(info.dtype, std::move(r.shape), r.allocated,
                           r.data, r.bytes, output, error))
      return Error{error};
    outputs.push_back(std::move(output));
  }
  Error failure;
  if (!finishCudaCall(impl, device, failure))
    return failure;
  return outputs;
}

} // namespace

Result<std::vector<Tensor>> runEntry(const Model::Impl &impl, size_t index,
                                     const std::vector<Tensor> &inputs) {
  CallBuffers &buffers = threadBuffers();
  if (impl.cuda) {
    std::unique_ptr<CudaCall> device = beginCudaCall(impl);
    RunningCudaCall running(*device);
    Result<void> called = call(impl, index, inputs, buffers, device.get());
    if (!called)
      return called.error();
    return deviceOutputs(impl, impl.entries[index], buffers.results, *device);
  }
  Result<void> called = call(impl, index, inputs, buffers);
  if (!called)
    return called.error();
  return collectOutputs(impl.entries[index], buffers.results, buffers.live);
}

namespace {

/// Whether `a`'s bytes and [data, data + bytes) share any byte.
bool overlaps(const Tensor &a, const void *data, uint64_t bytes) {
  auto begin = reinterpret_cast<uintptr_t>(a.data());
  auto other = reinterpret_cast<uintptr_t>(data);
  return a.device() == Device::CPU && a.nbytes() > 0 && bytes > 0 &&
         begin < other + bytes && other < begin + a.nbytes();
}

/// Whether an output of `shape` whose bytes are what the code asks for is
/// sure to have the shape of a result declared `dims`: its rank and static
/// sizes are the result's, and at most one size is not known before the
/// call (a symbol or "?"), which the byte count then fixes.
bool fitsBeforeTheCall(const std::vector<DimInfo> &dims,
                       const std::vector<int64_t> &shape) {
  if (dims.size() != shape.size())
    return false;
  int unknown = 0;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (!dims[d].symbol.empty())
      ++unknown;
    else if (dims[d].size != shape[d])
      return false;
  }
  return unknown <= 1;
}

/// Which of `outputs` compiled code may write its results into in place
/// (kiln_host_api.alloc_result, which also checks the byte count): an
/// output that fits its result before the call, not empty, 64-byte aligned
/// as the code's own buffers are, and sharing no byte with an input or
/// another output, which the code may still read or write while it writes
/// this one. The others get the result copied in after the call, as
/// before.
void lendOutputs(const EntryInfo &entry, const std::vector<Tensor> &inputs,
                 std::vector<Tensor> &outputs, std::vector<LentOutput> &lent) {
  lent.assign(outputs.size(), LentOutput{});
  for (size_t i = 0; i < outputs.size(); ++i) {
    Tensor &output = outputs[i];
    void *data = output.data();
    uint64_t bytes = output.nbytes();
    if (!fitsBeforeTheCall(entry.results[i].dims, output.shape()) ||
        bytes == 0 ||
        reinterpret_cast<uintptr_t>(data) % 64 != 0)
      continue;
    bool shared = std::any_of(inputs.begin(), inputs.end(),
                              [&](const Tensor &input) {
                                return overlaps(input, data, bytes);
                              });
    for (size_t j = 0; j < outputs.size() && !shared; ++j)
      shared = j != i && overlaps(outputs[j], data, bytes);
    if (!shared)
      lent[i] = {data, bytes, false};
  }
}

/// The message when an output's shape is not its result's, or "" when all
/// fit; it allocates only to build the message.
std::string shapeMismatch(const EntryInfo &entry,
                          const std::vector<int64_t> &results,
                          const std::vector<Tensor> &outputs) {
  size_t word = 0;
  for (size_t i = 0; i < outputs.size(); ++i) {
    size_t rank = entry.results[i].dims.size();
    const int64_t *sizes = &results[word + 3];
    const std::vector<int64_t> &shape = outputs[i].shape();
    if (shape.size() != rank || !std::equal(shape.begin(), shape.end(), sizes))
      return "output " + std::to_string(i) + " of '" + entry.name +
             "' has shape " + shapeText(shape) + ", but result '" +
             entry.results[i].name + "' has shape " +
             shapeText(std::vector<int64_t>(sizes, sizes + rank));
    word += 3 + 2 * rank;
  }
  return "";
}

/// Calls body(i, data) with where result i's elements start, in order;
/// results are dense row-major (EntryBoundary.cpp), at their offset.
template <typename Body>
void forEachResult(const EntryInfo &entry, const std::vector<int64_t> &results,
                   Body body) {
  size_t word = 0;
  for (size_t i = 0; i < entry.results.size(); ++i) {
    auto *aligned = reinterpret_cast<const uint8_t *>(results[word + 1]);
    body(i, aligned + results[word + 2] *
                          static_cast<int64_t>(dtypeSize(entry.results[i].dtype)));
    word += 3 + 2 * entry.results[i].dims.size();
  }
}

/// Function::run of a CUDA archive: the results, still on the GPU, are
/// copied into the caller's outputs on either device.
Result<void> runCudaEntryInto(const Model::Impl &impl, size_t index,
                                     const std::vector<Tensor> &inputs,
                                     std::vector<Tensor> &outputs) {
  const EntryInfo &entry = impl.entries[index];
  CallBuffers &buffers = threadBuffers();
  std::unique_ptr<CudaCall> device = beginCudaCall(impl);
  RunningCudaCall running(*device);
  Result<void> called = call(impl, index, inputs, buffers, device.get());
  if (!called)
    return called;
  std::string error = shapeMismatch(entry, buffers.results, outputs);
  if (!error.empty())
    return Error{error};
  forEachResult(entry, buffers.results, [&](size_t i, const uint8_t *data) {
    if (error.empty())
      device->copyOut(outputs[i].data(), outputs[i].device(), data,
                      outputs[i].nbytes(), error);
  });
  if (!error.empty())
    return Error{error};
  Error failure;
  if (!finishCudaCall(impl, *device, failure))
    return failure;
  return {};
}

} // namespace

Result<void> runEntryInto(const Model::Impl &impl, size_t index,
                          const std::vector<Tensor> &inputs,
                          std::vector<Tensor> &outputs) {
  const EntryInfo &entry = impl.entries[index];
  if (outputs.size() != entry.results.size())
    return Error{"'" + entry.name + "' has " +
                 std::to_string(entry.results.size()) + " result" +
                 (entry.results.size() == 1 ? "" : "s") + ", got " +
                 std::to_string(outputs.size()) + " output tensors"};
  for (size_t i = 0; i < outputs.size(); ++i)
    if (outputs[i].dtype() != entry.results[i].dtype || outputs[i].isNone())
      return Error{"output " + std::to_string(i) + " of '" + entry.name +
                   "' must be a " + std::string(dtypeName(entry.results[i].dtype)) +
                   " tensor for result '" + entry.results[i].name + "'"};
  if (impl.cuda)
    return runCudaEntryInto(impl, index, inputs, outputs);
  for (size_t i = 0; i < outputs.size(); ++i)
    if (outputs[i].device() != Device::CPU)
      return Error{"output " + std::to_string(i) + " of '" + entry.name +
                   "' is a CUDA tensor, but this archive runs on the CPU",
                   ErrorKind::InvalidArgument};
  CallBuffers &buffers = threadBuffers();
  lendOutputs(entry, inputs, outputs, buffers.lent);
  Result<void> called =
      call(impl, index, inputs, buffers, nullptr, &buffers.lent);
  if (!called)
    return called;
  // Every result's shape must be its output's before any is written, so
  // that a mismatch leaves the outputs as they were (a lent output that the
  // code took has its result's shape, so it never mismatches). A result
  // the code wrote in place needs no copy.
  std::string mismatch = shapeMismatch(entry, buffers.results, outputs);
  if (mismatch.empty())
    forEachResult(entry, buffers.results, [&](size_t i, const uint8_t *data) {
      if (data != outputs[i].data())
        std::memcpy(outputs[i].data(), data, outputs[i].nbytes());
    });
  for (void *ptr : buffers.live)
    hostFree(ptr);
  if (!mismatch.empty())
    return Error{mismatch};
  return {};
}

} // namespace kiln
