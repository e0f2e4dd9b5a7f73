//===- CApi.cpp - The C API (kiln/kiln.h) over kiln::Model ----------------===//
//
// Every function here is a thin wrapper over the C++ API that turns its
// Results into kiln_status objects. Each body runs inside `guarded`, so that
// no exception, from the standard library or from a bug, crosses into C:
// they become KILN_STATUS_OUT_OF_MEMORY or KILN_STATUS_INTERNAL.
//
// Handles: a kiln_model owns a kiln::Model (whose copies share the loaded
// archive); kiln_entry_point and kiln_value are the model's own EntryInfo and
// ValueInfo, reinterpreted, so looking them up allocates nothing.
//
//===----------------------------------------------------------------------===//

#include "kiln/kiln.h"

#include "kiln/Model.h"

#include "ModelImpl.h"
#include "Untrusted.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

struct kiln_status {
  kiln_status_code code;
  std::string message;
};

struct kiln_model {
  kiln::Model model;
};

/// Storage (owned or the caller's) and the shape it holds now, which a run
/// may change for an output; `capacity` is what the storage can hold.
struct kiln_tensor {
  kiln::Tensor storage;
  kiln_dtype dtype;
  std::vector<int64_t> shape;
  size_t capacity;
};

namespace {

using kiln::DType;
using kiln::EntryInfo;
using kiln::Tensor;
using kiln::ValueInfo;

/// Handed out when there is no memory for a status of its own; freeing it
/// does nothing.
kiln_status outOfMemory{KILN_STATUS_OUT_OF_MEMORY, "out of memory"};

kiln_status *fail(kiln_status_code code, const std::string &message) noexcept {
  try {
    return new kiln_status{code, message};
  } catch (...) {
    return &outOfMemory;
  }
}

/// Runs `body`, which returns a kiln_status*, and turns any exception into
/// a status: nothing C cannot handle leaves the library.
template <typename F> kiln_status *guarded(F &&body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return &outOfMemory;
  } catch (const std::exception &e) {
    return fail(KILN_STATUS_INTERNAL,
                std::string("internal error: ") + e.what());
  } catch (...) {
    return fail(KILN_STATUS_INTERNAL, "internal error: an unknown exception");
  }
}

/// The status code of each kind of kiln::Error.
kiln_status_code codeOf(kiln::ErrorKind kind) {
  switch (kind) {
  case kiln::ErrorKind::InvalidArgument:
    return KILN_STATUS_INVALID_ARGUMENT;
  case kiln::ErrorKind::NotFound:
    return KILN_STATUS_NOT_FOUND;
  case kiln::ErrorKind::Io:
    return KILN_STATUS_IO_ERROR;
  case kiln::ErrorKind::InvalidArchive:
    return KILN_STATUS_INVALID_ARCHIVE;
  case kiln::ErrorKind::Unsupported:
    return KILN_STATUS_UNSUPPORTED;
  case kiln::ErrorKind::Runtime:
    return KILN_STATUS_RUNTIME_ERROR;
  case kiln::ErrorKind::OutOfMemory:
    return KILN_STATUS_OUT_OF_MEMORY;
  case kiln::ErrorKind::Internal:
    return KILN_STATUS_INTERNAL;
  }
  return KILN_STATUS_INTERNAL;
}

kiln_status *fail(const kiln::Error &error) {
  return fail(codeOf(error.kind), error.message);
}

/// An enum's value as C passed it: any int, which C++ may not load as the
/// enum type (UBSan's -fsanitize=enum says so), so it is read as bytes.
template <typename E> int asInt(const E &value) {
  std::underlying_type_t<E> raw;
  std::memcpy(&raw, &value, sizeof raw);
  return static_cast<int>(raw);
}

bool validDType(int dtype) { return dtype >= KILN_F32 && dtype <= KILN_BOOL; }

const EntryInfo *asEntry(const kiln_entry_point *entry) {
  return reinterpret_cast<const EntryInfo *>(entry);
}
const ValueInfo *asValue(const kiln_value *value) {
  return reinterpret_cast<const ValueInfo *>(value);
}

/// Checks a shape from C: a known dtype, a shape pointer when the rank
/// needs one, no negative dim, and a size kiln can allocate. Sets `bytes`.
/// Returns NULL or the status to report.
kiln_status *checkShape(int dtype, const int64_t *shape, size_t rank,
                        uint64_t &bytes) {
  if (!validDType(dtype))
    return fail(KILN_STATUS_INVALID_ARGUMENT,
                "unknown dtype " + std::to_string(dtype));
  if (rank > 0 && !shape)
    return fail(KILN_STATUS_INVALID_ARGUMENT,
                "shape is NULL, rank is " + std::to_string(rank));
  if (rank > KILN_MAX_RANK)
    return fail(KILN_STATUS_INVALID_ARGUMENT,
                "rank " + std::to_string(rank) + " exceeds the limit of " +
                    std::to_string(KILN_MAX_RANK));
  std::vector<int64_t> dims(shape, shape + rank);
  for (int64_t dim : dims)
    if (dim < 0)
      return fail(KILN_STATUS_INVALID_ARGUMENT,
                  "shape " + kiln::shapeText(dims) + " has a negative dim");
  if (!kiln::checkedByteSize(dims, kiln::dtypeSize(static_cast<DType>(dtype)),
                             bytes))
    return fail(KILN_STATUS_INVALID_ARGUMENT,
                "shape " + kiln::shapeText(dims) +
                    " spans more than 2^47 bytes, kiln's limit");
  return nullptr;
}

/// A borrowed view of `tensor` with its current shape, for Model::run.
Tensor view(const kiln_tensor &tensor) {
  return Tensor::borrow(static_cast<DType>(tensor.dtype), tensor.shape,
                        const_cast<void *>(tensor.storage.data()));
}

kiln_status *finishLoad(kiln::Result<kiln::Model> loaded, kiln_model **out) {
  if (!loaded)
    return fail(loaded.error());
  *out = new kiln_model{std::move(loaded).value()};
  return nullptr;
}

std::string entryNames(const kiln::Model &model) {
  std::string names;
  for (const EntryInfo &entry : model.entries())
    names += (names.empty() ? "" : ", ") + entry.name;
  return names;
}

/// Checks the caller's outputs against `results` before any is written:
/// the dtype, and enough capacity. Returns NULL or the status to report.
kiln_status *checkOutputs(const EntryInfo &entry,
                          const std::vector<Tensor> &results,
                          kiln_tensor *const *outputs) {
  for (size_t i = 0; i < results.size(); ++i) {
    const kiln_tensor *out = outputs[i];
    if (!out)
      continue;
    std::string what = "output " + std::to_string(i) + " ('" +
                       entry.results[i].name + "') of '" + entry.name + "'";
    DType dtype = results[i].dtype();
    if (static_cast<DType>(out->dtype) != dtype)
      return fail(KILN_STATUS_INVALID_ARGUMENT,
                  what + " is " + std::string(kiln::dtypeName(dtype)) +
                      ", but the tensor given for it is " +
                      kiln_dtype_name(out->dtype));
    if (out->capacity < results[i].nbytes())
      return fail(KILN_STATUS_BUFFER_TOO_SMALL,
                  what + " has shape " + kiln::shapeText(results[i].shape()) +
                      " (" + std::to_string(results[i].nbytes()) +
                      " bytes), but the tensor given for it holds " +
                      std::to_string(out->capacity) + " bytes");
  }
  return nullptr;
}

/// Hands the results to the caller: new tensors where outputs[i] is NULL,
/// copies into the caller's tensors elsewhere. Every allocation comes
/// first, so that a failure leaves every output as it was.
void deliverOutputs(std::vector<Tensor> &results, kiln_tensor **outputs) {
  std::vector<std::unique_ptr<kiln_tensor>> fresh(results.size());
  std::vector<std::vector<int64_t>> shapes(results.size());
  for (size_t i = 0; i < results.size(); ++i) {
    shapes[i] = results[i].shape();
    if (!outputs[i])
      fresh[i].reset(new kiln_tensor{
          results[i], static_cast<kiln_dtype>(results[i].dtype()),
          results[i].shape(), results[i].nbytes()});
  }
  for (size_t i = 0; i < results.size(); ++i) {
    if (fresh[i]) {
      outputs[i] = fresh[i].release();
      continue;
    }
    if (results[i].nbytes())
      std::memcpy(outputs[i]->storage.data(), results[i].data(),
                  results[i].nbytes());
    outputs[i]->shape.swap(shapes[i]);
  }
}

kiln_status *runModel(const kiln_model *model, const char *name,
                      const kiln_tensor *const *inputs, size_t numInputs,
                      kiln_tensor **outputs, size_t numOutputs) {
  if (!model || !name)
    return fail(KILN_STATUS_INVALID_ARGUMENT,
                std::string(model ? "entry name" : "model") + " is NULL");
  if ((numInputs && !inputs) || (numOutputs && !outputs))
    return fail(KILN_STATUS_INVALID_ARGUMENT,
                std::string(numInputs && !inputs ? "inputs" : "outputs") +
                    " is NULL");
  const EntryInfo *entry = model->model.entry(name);
  if (!entry)
    return fail(KILN_STATUS_NOT_FOUND,
                "no entry point " + kiln::inQuotes(name) +
                    " in this archive (it has: " + entryNames(model->model) +
                    ")");
  if (numOutputs != entry->results.size())
    return fail(KILN_STATUS_INVALID_ARGUMENT,
                "'" + entry->name + "' has " +
                    std::to_string(entry->results.size()) + " output" +
                    (entry->results.size() == 1 ? "" : "s") + ", got " +
                    std::to_string(numOutputs));
  std::vector<Tensor> views;
  for (size_t i = 0; i < numInputs; ++i) {
    // NULL is None: Model::run accepts it for an optional input, uses the
    // default of an input with one, and names a required one.
    if (!inputs[i] && i < entry->args.size()) {
      views.push_back(Tensor::none());
      continue;
    }
    if (!inputs[i])
      return fail(KILN_STATUS_INVALID_ARGUMENT,
                  "input " + std::to_string(i) + " is NULL");
    views.push_back(view(*inputs[i]));
  }
  kiln::Result<std::vector<Tensor>> results = model->model.run(name, views);
  if (!results)
    return fail(results.error());
  // The C API's tensors are host memory: a CUDA archive's results come
  // back from the GPU.
  for (Tensor &result : *results)
    if (result.device() != kiln::Device::CPU) {
      kiln::Result<Tensor> host = kiln::copyTo(result, kiln::Device::CPU);
      if (!host)
        return fail(host.error());
      result = *host;
    }
  if (kiln_status *status = checkOutputs(*entry, *results, outputs))
    return status;
  deliverOutputs(*results, outputs);
  return nullptr;
}

} // namespace

extern "C" {

//===----------------------------------------------------------------------===//
// Versions and status
//===----------------------------------------------------------------------===//

const char *kiln_version(void) { return KILN_VERSION_STRING; }

int kiln_c_api_version(void) { return KILN_C_API_VERSION; }

kiln_status_code kiln_status_get_code(const kiln_status *status) {
  return status ? status->code : KILN_STATUS_OK;
}

const char *kiln_status_message(const kiln_status *status) {
  return status ? status->message.c_str() : "";
}

void kiln_status_free(kiln_status *status) {
  if (status != &outOfMemory)
    delete status;
}

const char *kiln_status_code_name(kiln_status_code code) {
  switch (asInt(code)) {
  case KILN_STATUS_OK:
    return "KILN_STATUS_OK";
  case KILN_STATUS_INVALID_ARGUMENT:
    return "KILN_STATUS_INVALID_ARGUMENT";
  case KILN_STATUS_NOT_FOUND:
    return "KILN_STATUS_NOT_FOUND";
  case KILN_STATUS_IO_ERROR:
    return "KILN_STATUS_IO_ERROR";
  case KILN_STATUS_INVALID_ARCHIVE:
    return "KILN_STATUS_INVALID_ARCHIVE";
  case KILN_STATUS_RUNTIME_ERROR:
    return "KILN_STATUS_RUNTIME_ERROR";
  case KILN_STATUS_BUFFER_TOO_SMALL:
    return "KILN_STATUS_BUFFER_TOO_SMALL";
  case KILN_STATUS_OUT_OF_MEMORY:
    return "KILN_STATUS_OUT_OF_MEMORY";
  case KILN_STATUS_INTERNAL:
    return "KILN_STATUS_INTERNAL";
  case KILN_STATUS_UNSUPPORTED:
    return "KILN_STATUS_UNSUPPORTED";
  }
  return "KILN_STATUS_UNKNOWN";
}

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

size_t kiln_dtype_size(kiln_dtype dtype) {
  int value = asInt(dtype);
  return validDType(value) ? kiln::dtypeSize(static_cast<DType>(value)) : 0;
}

const char *kiln_dtype_name(kiln_dtype dtype) {
  // dtypeName's views are of string literals, so NUL-terminated.
  int value = asInt(dtype);
  return validDType(value) ? kiln::dtypeName(static_cast<DType>(value)).data()
                           : nullptr;
}

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

kiln_status *kiln_tensor_create(kiln_dtype dtype, const int64_t *shape,
                                size_t rank, kiln_tensor **out) {
  return guarded([&]() -> kiln_status * {
    if (!out)
      return fail(KILN_STATUS_INVALID_ARGUMENT, "out is NULL");
    uint64_t bytes;
    if (kiln_status *status = checkShape(asInt(dtype), shape, rank, bytes))
      return status;
    std::vector<int64_t> dims(shape, shape + rank);
    Tensor storage = Tensor::zeros(static_cast<DType>(dtype), dims);
    *out = new kiln_tensor{storage, dtype, dims, size_t(bytes)};
    return nullptr;
  });
}

kiln_status *kiln_tensor_wrap(kiln_dtype dtype, const int64_t *shape,
                              size_t rank, void *data, size_t size,
                              kiln_tensor **out) {
  return guarded([&]() -> kiln_status * {
    if (!out)
      return fail(KILN_STATUS_INVALID_ARGUMENT, "out is NULL");
    uint64_t bytes;
    if (kiln_status *status = checkShape(asInt(dtype), shape, rank, bytes))
      return status;
    std::vector<int64_t> dims(shape, shape + rank);
    if (bytes > size)
      return fail(KILN_STATUS_BUFFER_TOO_SMALL,
                  "a " + std::string(kiln_dtype_name(dtype)) +
                      kiln::shapeText(dims) + " tensor needs " +
                      std::to_string(bytes) + " bytes, but the buffer holds " +
                      std::to_string(size));
    if (bytes && !data)
      return fail(KILN_STATUS_INVALID_ARGUMENT, "data is NULL");
    Tensor storage = Tensor::borrow(static_cast<DType>(dtype), dims, data);
    *out = new kiln_tensor{storage, dtype, dims, size};
    return nullptr;
  });
}

void kiln_tensor_free(kiln_tensor *tensor) { delete tensor; }

kiln_dtype kiln_tensor_dtype(const kiln_tensor *tensor) {
  return tensor ? tensor->dtype : KILN_F32;
}

size_t kiln_tensor_rank(const kiln_tensor *tensor) {
  return tensor ? tensor->shape.size() : 0;
}

const int64_t *kiln_tensor_shape(const kiln_tensor *tensor) {
  return tensor ? tensor->shape.data() : nullptr;
}

int64_t kiln_tensor_element_count(const kiln_tensor *tensor) {
  if (!tensor)
    return 0;
  int64_t count = 1;
  for (int64_t dim : tensor->shape)
    count *= dim; // checkShape or the run bounded the product
  return count;
}

size_t kiln_tensor_byte_size(const kiln_tensor *tensor) {
  return tensor ? size_t(kiln_tensor_element_count(tensor)) *
                      kiln_dtype_size(tensor->dtype)
                : 0;
}

size_t kiln_tensor_capacity(const kiln_tensor *tensor) {
  return tensor ? tensor->capacity : 0;
}

void *kiln_tensor_data(kiln_tensor *tensor) {
  return tensor ? tensor->storage.data() : nullptr;
}

const void *kiln_tensor_const_data(const kiln_tensor *tensor) {
  return tensor ? tensor->storage.data() : nullptr;
}

//===----------------------------------------------------------------------===//
// Models
//===----------------------------------------------------------------------===//

kiln_status *kiln_model_load(const char *path, kiln_model **out) {
  return guarded([&]() -> kiln_status * {
    if (!path || !out)
      return fail(KILN_STATUS_INVALID_ARGUMENT,
                  std::string(path ? "out" : "path") + " is NULL");
    return finishLoad(kiln::Model::load(path), out);
  });
}

kiln_status *kiln_model_load_from_memory(const void *data, size_t size,
                                         kiln_model **out) {
  return guarded([&]() -> kiln_status * {
    if ((!data && size) || !out)
      return fail(KILN_STATUS_INVALID_ARGUMENT,
                  std::string(out ? "data" : "out") + " is NULL");
    return finishLoad(kiln::Model::loadFromMemory(data, size), out);
  });
}

void kiln_model_free(kiln_model *model) { delete model; }

size_t kiln_model_entry_count(const kiln_model *model) {
  return model ? model->model.entries().size() : 0;
}

const kiln_entry_point *kiln_model_entry(const kiln_model *model,
                                         size_t index) {
  if (!model || index >= model->model.entries().size())
    return nullptr;
  return reinterpret_cast<const kiln_entry_point *>(
      &model->model.entries()[index]);
}

kiln_status *kiln_model_find_entry(const kiln_model *model, const char *name,
                                   const kiln_entry_point **out) {
  return guarded([&]() -> kiln_status * {
    if (!model || !name || !out)
      return fail(KILN_STATUS_INVALID_ARGUMENT, std::string(!model  ? "model"
                                                            : !name ? "name"
                                                                    : "out") +
                                                    " is NULL");
    const EntryInfo *entry = model->model.entry(name);
    if (!entry)
      return fail(KILN_STATUS_NOT_FOUND,
                  "no entry point " + kiln::inQuotes(name) +
                      " in this archive (it has: " + entryNames(model->model) +
                      ")");
    *out = reinterpret_cast<const kiln_entry_point *>(entry);
    return nullptr;
  });
}

const char *kiln_entry_name(const kiln_entry_point *entry) {
  return entry ? asEntry(entry)->name.c_str() : nullptr;
}

size_t kiln_entry_input_count(const kiln_entry_point *entry) {
  return entry ? asEntry(entry)->args.size() : 0;
}

size_t kiln_entry_output_count(const kiln_entry_point *entry) {
  return entry ? asEntry(entry)->results.size() : 0;
}

const kiln_value *kiln_entry_input(const kiln_entry_point *entry,
                                   size_t index) {
  if (!entry || index >= asEntry(entry)->args.size())
    return nullptr;
  return reinterpret_cast<const kiln_value *>(&asEntry(entry)->args[index]);
}

const kiln_value *kiln_entry_output(const kiln_entry_point *entry,
                                    size_t index) {
  if (!entry || index >= asEntry(entry)->results.size())
    return nullptr;
  return reinterpret_cast<const kiln_value *>(&asEntry(entry)->results[index]);
}

int64_t kiln_entry_find_input(const kiln_entry_point *entry,
                              const char *name) {
  return entry && name ? asEntry(entry)->argIndex(name) : -1;
}

int64_t kiln_entry_find_output(const kiln_entry_point *entry,
                               const char *name) {
  return entry && name ? asEntry(entry)->resultIndex(name) : -1;
}

size_t kiln_value_str_choice_count(const kiln_value *value) {
  return value ? asValue(value)->strChoices.size() : 0;
}

const char *kiln_value_str_choice(const kiln_value *value, size_t index) {
  if (!value || index >= asValue(value)->strChoices.size())
    return nullptr;
  return asValue(value)->strChoices[index].c_str();
}

const char *kiln_value_name(const kiln_value *value) {
  return value ? asValue(value)->name.c_str() : nullptr;
}

kiln_dtype kiln_value_dtype(const kiln_value *value) {
  return value ? static_cast<kiln_dtype>(asValue(value)->dtype) : KILN_F32;
}

int kiln_value_is_optional(const kiln_value *value) {
  return value && asValue(value)->optional;
}

const void *kiln_value_default(const kiln_value *value) {
  if (!value || !asValue(value)->hasDefault())
    return nullptr;
  return asValue(value)->defaultValue.data();
}

size_t kiln_value_rank(const kiln_value *value) {
  return value ? asValue(value)->dims.size() : 0;
}

int64_t kiln_value_dim(const kiln_value *value, size_t index) {
  if (!value || index >= asValue(value)->dims.size())
    return -1;
  const kiln::DimInfo &dim = asValue(value)->dims[index];
  return dim.symbol.empty() ? dim.size : -1;
}

const char *kiln_value_dim_symbol(const kiln_value *value, size_t index) {
  if (!value || index >= asValue(value)->dims.size())
    return nullptr;
  const kiln::DimInfo &dim = asValue(value)->dims[index];
  return dim.symbol.empty() ? nullptr : dim.symbol.c_str();
}

kiln_status *kiln_model_run(const kiln_model *model, const char *entry,
                            const kiln_tensor *const *inputs, size_t num_inputs,
                            kiln_tensor **outputs, size_t num_outputs) {
  return guarded([&] {
    return runModel(model, entry, inputs, num_inputs, outputs, num_outputs);
  });
}

} // extern "C"
