//===- HostApi.cpp - The services compiled code calls (kiln/abi.h) --------===//
//
// Every call of an entry point gets a CallState, reachable from the host
// functions through a thread-local pointer, so any number of threads can
// run one Model at once. The state tracks every buffer the compiled code
// allocates and every list it creates. A failed run-time check longjmps
// back to invokeEntry, which then frees all of them: compiled code has no
// destructors to skip, and the runtime's own frames between setjmp and
// longjmp hold no objects that need destroying at that point.
//
//===----------------------------------------------------------------------===//

#include "BlockCache.h"
#include "HostCall.h"
#include "KernelLibrary.h"
#include "CudaPlugin.h"
#include "MemrefView.h"
#include "ModelImpl.h"
#include "ThreadPool.h"

#include "kiln/Format.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <iterator>
#include <mutex>
#include <vector>

namespace kiln {
namespace {

/// A Python list that lives until the entry point returns.
struct List {
  std::vector<Tensor> items;
};

struct CallState {
  const Model::Impl *model = nullptr;
  std::jmp_buf jump;
  /// Live allocations, most recent last (a call frees its temporaries
  /// in about the order it made them). Its capacity is the thread's
  /// between calls (spareAllocations), so a warm call allocates nothing.
  std::vector<void *> allocations;
  /// Function::run's outputs, by result index (alloc_result); none for
  /// Model::run.
  std::vector<LentOutput> *lent = nullptr;
  std::vector<std::unique_ptr<List>> lists;
  int64_t errorSite = -1;
  std::string errorMessage;
  ErrorKind errorKind = ErrorKind::Runtime;
  // print(): the line being built and how much of the format is consumed.
  std::string line;
  std::string format;
  size_t formatPos = 0;
};

thread_local CallState *current = nullptr;
thread_local std::vector<void *> spareAllocations;

[[noreturn]] void fail(int64_t site, std::string message) {
  current->errorSite = site;
  current->errorMessage = std::move(message);
  std::longjmp(current->jump, 1);
}

/// Runs the body of a host function. An exception (std::bad_alloc, most
/// likely) must not unwind into compiled code, which has no handlers and
/// may have no unwind tables; it becomes a raise at `site` instead, made
/// once the exception object is gone. The caller's frame, which the raise
/// skips, must hold no object with a destructor.
template <typename F> auto guarded(int64_t site, F &&body) {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    current->errorMessage.assign("out of memory");
    current->errorKind = ErrorKind::OutOfMemory;
  } catch (const DeviceError &e) {
    current->errorMessage.assign(e.what());
    current->errorKind = ErrorKind::Runtime;
  } catch (const std::exception &e) {
    current->errorMessage.assign("internal error: ");
    current->errorMessage.append(e.what());
    current->errorKind = ErrorKind::Internal;
  }
  current->errorSite = site;
  std::longjmp(current->jump, 1);
}

//===--------------------------------------------------------------------===//
// Memory
//===--------------------------------------------------------------------===//

/// Ends the call with "out of memory allocating N bytes"; the message is
/// built straight into the call state, so the raise skips no string.
[[noreturn]] void failAllocation(uint64_t bytes, const char *why,
                                 ErrorKind kind = ErrorKind::OutOfMemory) {
  current->errorKind = kind;
  current->errorMessage.assign(why);
  current->errorMessage.append(std::to_string(bytes));
  current->errorMessage.append(" bytes");
  current->errorSite = -1;
  std::longjmp(current->jump, 1);
}

void *hostAlloc(uint64_t bytes) {
  // The last line of defence against a size that wrapped in compiled code
  // (kiln/abi.h): no tensor is larger (MLIR asks for up to 64 bytes more,
  // to align the buffer itself), and the rounding below cannot wrap.
  if (bytes > KILN_MAX_TENSOR_BYTES + 64)
    failAllocation(bytes,
                   "cannot allocate more than 2^47 bytes for one tensor: "
                   "asked for ",
                   ErrorKind::Runtime);
  // 64-byte aligned, so MLIR's own alignment step is a no-op and a
  // result's data starts at its allocation.
  size_t size = (std::max<uint64_t>(bytes, 1) + 63) / 64 * 64;
  void *ptr = acquireBlock(size);
  if (!ptr)
    failAllocation(bytes, "out of memory allocating ");
  bool tracked = false;
  try {
    current->allocations.push_back(ptr);
    tracked = true;
  } catch (const std::bad_alloc &) {
  }
  if (!tracked) {
    releaseBlock(ptr);
    failAllocation(bytes, "out of memory allocating ");
  }
  return ptr;
}

/// A lent output is the caller's, so it is neither tracked nor ever freed:
/// a failed call leaves it as far as the call wrote it.
void *hostAllocResult(int64_t result, uint64_t bytes) {
  std::vector<LentOutput> *lent = current->lent;
  if (lent && result >= 0 && uint64_t(result) < lent->size()) {
    LentOutput &output = (*lent)[size_t(result)];
    if (output.data && !output.taken && output.bytes == bytes) {
      output.taken = true;
      return output.data;
    }
  }
  return hostAlloc(bytes);
}

void hostRelease(void *ptr) {
  if (!ptr)
    return;
  std::vector<void *> &live = current->allocations;
  auto it = std::find(live.rbegin(), live.rend(), ptr);
  if (it != live.rend())
    live.erase(std::next(it).base());
  releaseBlock(ptr);
}

//===--------------------------------------------------------------------===//
// Tensors described by memref descriptors
//===--------------------------------------------------------------------===//

/// A contiguous copy of a (possibly strided) tensor.
Tensor copyIn(const kiln_unranked_memref *memref, int32_t dtype) {
  auto type = static_cast<DType>(dtype);
  const kiln_memref *desc = memref->desc;
  int64_t rank = memref->rank;
  std::vector<int64_t> shape(desc->dims, desc->dims + rank);
  const int64_t *strides = desc->dims + rank;
  Tensor out = Tensor::zeros(type, shape);
  size_t element = dtypeSize(type);
  auto *src = static_cast<const uint8_t *>(desc->aligned) +
              desc->offset * static_cast<int64_t>(element);
  // In a CUDA call the elements are on the GPU: the bytes they span come
  // to the host first (strides are never negative).
  std::vector<uint8_t> staged;
  if (inCudaCall() && out.numel() > 0) {
    int64_t last = 0;
    for (int64_t d = 0; d < rank; ++d)
      last += (shape[d] - 1) * strides[d];
    staged.resize((static_cast<size_t>(last) + 1) * element);
    readFromDevice(staged.data(), src, staged.size());
    src = staged.data();
  }
  auto *dst = static_cast<uint8_t *>(out.data());
  int64_t count = out.numel();
  // A dense row-major tensor (the common case: a list of a loop's results)
  // is one copy; the loop below costs a few nanoseconds per element.
  if (isDenseRowMajor(shape.data(), strides, rank)) {
    if (count > 0)
      std::memcpy(dst, src, static_cast<size_t>(count) * element);
    return out;
  }
  std::vector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d)
      offset += index[d] * strides[d];
    std::memcpy(dst + n * element, src + offset * element, element);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return out;
}

/// The start of a dense, row-major output buffer.
uint8_t *outputData(const kiln_unranked_memref *memref, size_t element) {
  const kiln_memref *desc = memref->desc;
  return static_cast<uint8_t *>(desc->aligned) +
         desc->offset * static_cast<int64_t>(element);
}

//===--------------------------------------------------------------------===//
// Errors and print
//===--------------------------------------------------------------------===//

void hostRaise(int64_t site, int64_t a, int64_t b, int64_t c, int64_t d) {
  const int64_t values[4] = {a, b, c, d};
  fail(site, current->model->siteMessage(site, values));
}

/// Appends format text up to the next "{}" (or the end), undoubling braces.
void advanceFormat(CallState &state) {
  const std::string &f = state.format;
  while (state.formatPos < f.size()) {
    char c = f[state.formatPos];
    if (c == '{' && state.formatPos + 1 < f.size() &&
        f[state.formatPos + 1] == '}') {
      state.formatPos += 2;
      return;
    }
    if ((c == '{' || c == '}') && state.formatPos + 1 < f.size() &&
        f[state.formatPos + 1] == c)
      ++state.formatPos;
    state.line += c;
    ++state.formatPos;
  }
}

void printBegin(int64_t format) {
  guarded(-1, [&] {
    const auto &strings = current->model->strings;
    current->format =
        format >= 0 && format < static_cast<int64_t>(strings.size())
            ? strings[format]
            : std::string();
    current->formatPos = 0;
    current->line.clear();
    advanceFormat(*current);
  });
}

void printValue(const std::string &text) {
  current->line += text;
  advanceFormat(*current);
}

void printI64(int64_t value) {
  guarded(-1, [&] { printValue(formatInt(value)); });
}
void printF64(double value) {
  guarded(-1, [&] { printValue(formatFloat(value)); });
}
void printBool(int32_t value) {
  guarded(-1, [&] { printValue(formatBool(value != 0)); });
}
void printTensor(const kiln_unranked_memref *tensor, int32_t dtype) {
  guarded(-1, [&] {
    printValue(formatTensor(copyIn(tensor, dtype),
                            inCudaCall() ? Device::CUDA : Device::CPU));
  });
}

void printEnd() {
  guarded(-1, [&] {
    advanceFormat(*current);
    current->line += '\n';
  });
  // One write per line, so lines from concurrent runs never interleave.
  static std::mutex stdoutMutex;
  std::lock_guard<std::mutex> lock(stdoutMutex);
  std::fwrite(current->line.data(), 1, current->line.size(), stdout);
  std::fflush(stdout);
}

//===--------------------------------------------------------------------===//
// Lists
//===--------------------------------------------------------------------===//

enum ListOp : int32_t { GetElement = 0, Stack = 1, Cat = 2 };

void *listNew() {
  return guarded(-1, [&] {
    current->lists.push_back(std::make_unique<List>());
    return static_cast<void *>(current->lists.back().get());
  });
}

void *listClone(void *list) {
  return guarded(-1, [&] {
    current->lists.push_back(
        std::make_unique<List>(*static_cast<List *>(list)));
    return static_cast<void *>(current->lists.back().get());
  });
}

void listAppend(void *list, const kiln_unranked_memref *element,
                int32_t dtype) {
  guarded(-1, [&] {
    static_cast<List *>(list)->items.push_back(copyIn(element, dtype));
  });
}

int64_t listLen(void *list) {
  return static_cast<int64_t>(static_cast<List *>(list)->items.size());
}

/// Sets `shape` to the shape of what `op` produces from `list`, or returns
/// false with PyTorch's message in `error` when the elements do not fit
/// together.
bool resultShape(const List &list, int32_t op, int64_t axis,
                 std::vector<int64_t> &shape, std::string &error) {
  const auto &items = list.items;
  int64_t count = static_cast<int64_t>(items.size());
  if (op == GetElement) {
    int64_t index = axis < 0 ? axis + count : axis;
    if (index < 0 || index >= count) {
      error = "IndexError: list index out of range (index " +
              std::to_string(axis) + ", length " + std::to_string(count) + ")";
      return false;
    }
    shape = items[index].shape();
    return true;
  }
  if (items.empty()) {
    error = op == Stack ? "stack expects a non-empty TensorList"
                        : "torch.cat(): expected a non-empty list of Tensors";
    return false;
  }
  const std::vector<int64_t> &first = items[0].shape();
  int64_t rank = static_cast<int64_t>(first.size());
  if (axis < 0 || axis > rank || (op == Cat && axis == rank)) {
    error = "Dimension out of range (got " + std::to_string(axis) +
            " for a list of tensors of rank " + std::to_string(rank) + ")";
    return false;
  }
  shape = first;
  for (int64_t i = 1; i < count; ++i) {
    const std::vector<int64_t> &other = items[i].shape();
    if (op == Stack) {
      if (other != first) {
        error = "stack expects each tensor to be equal size, but got " +
                shapeText(first) + " at entry 0 and " + shapeText(other) +
                " at entry " + std::to_string(i);
        return false;
      }
      continue;
    }
    if (other.size() != first.size()) {
      error = "Tensors must have same number of dimensions: got " +
              std::to_string(first.size()) + " and " +
              std::to_string(other.size());
      return false;
    }
    for (size_t d = 0; d < first.size(); ++d) {
      if (static_cast<int64_t>(d) == axis)
        continue;
      if (other[d] != first[d]) {
        error = "Sizes of tensors must match except in dimension " +
                std::to_string(axis) + ". Expected size " +
                std::to_string(first[d]) + " but got size " +
                std::to_string(other[d]) + " for tensor number " +
                std::to_string(i) + " in the list.";
        return false;
      }
    }
    // Each size is at most 2^47 bytes' worth, but the elements of a
    // tensor with a zero dim may have huge other dims.
    if (__builtin_add_overflow(shape[axis], other[axis], &shape[axis])) {
      error = "torch.cat(): the result is too large";
      return false;
    }
  }
  if (op == Stack)
    shape.insert(shape.begin() + axis, count);
  return true;
}

/// Size `dim` of what `op` produces from `list` (0 for a dim out of
/// range); raises `site` when the elements do not fit together. The raise
/// longjmps, which would skip destructors, so it happens only once this
/// frame holds nothing that owns memory: the message is built straight
/// into the call state.
int64_t checkedResultDim(const List &list, int32_t op, int64_t axis,
                         int64_t dim, int64_t site) {
  int64_t size = 0;
  bool fits;
  {
    std::vector<int64_t> shape;
    fits = resultShape(list, op, axis, shape, current->errorMessage);
    if (fits && dim >= 0 && dim < static_cast<int64_t>(shape.size()))
      size = shape[dim];
  }
  if (!fits) {
    current->errorSite = site;
    std::longjmp(current->jump, 1);
  }
  return size;
}

int64_t listResultDim(void *list, int32_t op, int64_t axis, int64_t dim,
                      int64_t site) {
  return guarded(site, [&] {
    return checkedResultDim(*static_cast<List *>(list), op, axis, dim, site);
  });
}

/// The product of shape[from, to), which the caller knows to be in range.
size_t product(const std::vector<int64_t> &shape, size_t from, size_t to) {
  uint64_t n = 1;
  to = std::min(to, shape.size());
  [[maybe_unused]] bool fits =
      from >= to || checkedByteSize(shape.data() + from, to - from, 1, n);
  assert(fits && "a block of a non-empty, allocated result");
  return n;
}

/// Writes what `op` makes of `l` (already checked) to `dst`.
void assemble(const List &l, int32_t op, int64_t axis, size_t element,
              uint8_t *dst) {
  if (op == GetElement) {
    int64_t count = static_cast<int64_t>(l.items.size());
    const Tensor &item = l.items[axis < 0 ? axis + count : axis];
    std::memcpy(dst, item.data(), item.nbytes());
    return;
  }
  // Stack and cat both interleave blocks: for each of the `outer` leading
  // positions, each item contributes one contiguous block in turn.
  const std::vector<int64_t> &first = l.items[0].shape();
  size_t outer = static_cast<size_t>(product(first, 0, axis));
  size_t offset = 0;
  for (size_t o = 0; o < outer; ++o) {
    for (const Tensor &item : l.items) {
      size_t block = static_cast<size_t>(
                         product(item.shape(), axis, item.shape().size())) *
                     element;
      std::memcpy(dst + offset,
                  static_cast<const uint8_t *>(item.data()) + o * block,
                  block);
      offset += block;
    }
  }
}

void listMaterialize(void *list, int32_t op, int64_t axis,
                     const kiln_unranked_memref *out, int64_t site,
                     int32_t dtype) {
  const List &l = *static_cast<List *>(list);
  checkedResultDim(l, op, axis, -1, site); // validates, as listResultDim did
  size_t element = dtypeSize(static_cast<DType>(dtype));
  uint8_t *dst = outputData(out, element);
  // An empty result needs no bytes; a non-empty one was allocated, so each
  // block and count below is a sub-product of its dims, within the limit.
  uint64_t bytes;
  if (!checkedByteSize(out->desc->dims, static_cast<size_t>(out->rank),
                       element, bytes) ||
      bytes == 0)
    return;
  if (!inCudaCall()) {
    assemble(l, op, axis, element, dst);
    return;
  }
  // A list's items are kept on the host (listAppend); the result is
  // assembled there and goes to the GPU in one copy.
  guarded(site, [&] {
    std::vector<uint8_t> host(bytes);
    assemble(l, op, axis, element, host.data());
    writeToDevice(dst, host.data(), bytes);
  });
}

int64_t deviceRead(const void *address, int64_t bytes) {
  return guarded(-1, [&] {
    int64_t bits = 0;
    readFromDevice(&bits, address, static_cast<size_t>(bytes));
    return bits;
  });
}

void deviceWrite(void *address, int64_t bits, int64_t bytes) {
  guarded(-1, [&] {
    writeToDevice(address, &bits, static_cast<size_t>(bytes));
  });
}

/// Loops with fewer points than this stay on the calling thread: starting
/// the team costs a few microseconds, the time of some 30K elementwise
/// points.
constexpr int64_t kMinParallelPoints = 32768;

void hostParallelFor(void (*body)(void *, int64_t, int64_t), void *context,
                     int64_t n, int64_t points) {
  int threads = current->model->numThreads;
  if (points <= 0 || n < (kMinParallelPoints + points - 1) / points)
    threads = 1;
  // The body is compiled code, which throws nothing.
  parallelFor(body, context, n, threads);
}

uint64_t randomStream() {
  static std::atomic<uint64_t> next{0x9e3779b97f4a7c15ull};
  return next.fetch_add(0x9e3779b97f4a7c15ull);
}

const kiln_host_api table = {
    KILN_ABI_VERSION, sizeof(kiln_host_api),
    hostAlloc,        hostRelease,
    hostRaise,        printBegin,
    printI64,         printF64,
    printBool,        printTensor,
    printEnd,         listNew,
    listClone,        listAppend,
    listLen,          listResultDim,
    listMaterialize,  randomStream,
    kernelMatmul,     kernelConv2d,
    cudaLaunchKernel, hostParallelFor,
    cudaDeviceAlloc,  cudaDeviceFree,
    cudaKernelCheckRecord, deviceRead,
    deviceWrite,      kernelMatmulEpilogue,
    hostAllocResult};

} // namespace

const kiln_host_api *hostApi() { return &table; }

void setCallError(std::string message) {
  current->errorMessage = std::move(message);
}

int callThreads() { return current->model->numThreads; }

const Model::Impl &callModel() { return *current->model; }

void raiseCallError(int64_t site) {
  current->errorSite = site;
  std::longjmp(current->jump, 1);
}

void hostFree(void *ptr) { releaseBlock(ptr); }

bool invokeEntry(const Model::Impl &model, kiln_entry_fn fn, void **args,
                 void *results, std::vector<void *> &live, Error &error,
                 std::vector<LentOutput> *lent) {
  CallState state;
  state.model = &model;
  state.lent = lent;
  state.allocations.swap(spareAllocations);
  state.allocations.clear();
  CallState *outer = current;
  current = &state;
  if (setjmp(state.jump) != 0) {
    current = outer;
    for (void *ptr : state.allocations)
      releaseBlock(ptr);
    error = Error{model.renderSiteError(state.errorSite, state.errorMessage),
                  state.errorKind};
    return false;
  }
  fn(args, results);
  current = outer;
  live.assign(state.allocations.begin(), state.allocations.end());
  spareAllocations.swap(state.allocations);
  return true;
}

Result<void>
callWithHostApi(const std::vector<Site> &sites,
                void (*body)(const kiln_host_api *host, void *context),
                void *context) {
  Model::Impl model;
  model.sites = sites;
  struct Call {
    void (*body)(const kiln_host_api *, void *);
    void *context;
  } call = {body, context};
  void *args[] = {&call};
  kiln_entry_fn entry = [](void **args, void *) {
    auto *call = static_cast<Call *>(args[0]);
    call->body(&table, call->context);
  };
  std::vector<void *> live;
  Error error;
  if (!invokeEntry(model, entry, args, nullptr, live, error))
    return error;
  for (void *ptr : live)
    releaseBlock(ptr);
  return {};
}

} // namespace kiln
