/*===- kiln/kiln.h - The C API of libkiln_runtime -------------------------===*
 *
 * Loads a .kiln archive and runs its entry points from C, or from any
 * language with a C FFI (Python's ctypes, Rust, Go, C#, Java). Plain C99;
 * no C++ type and no exception crosses it. docs/runtime.md has a complete
 * example (test/runtime-c/example.c).
 *
 *   kiln_model *model = NULL;
 *   kiln_status *status = kiln_model_load("myfun.kiln", &model);
 *   if (status) {
 *     fprintf(stderr, "%s\n", kiln_status_message(status));
 *     kiln_status_free(status);
 *   }
 *
 * Errors. Every fallible function returns a kiln_status*: NULL on success,
 * otherwise an object holding a kiln_status_code and a message, which the
 * caller owns and frees with kiln_status_free. This is the convention of
 * ONNX Runtime (OrtStatus*) and IREE (iree_status_t), so their users know
 * it, and unlike a thread-local "last error" it keeps no hidden state: an
 * error survives later calls, can be handed to another thread, and works
 * the same from languages whose calls may hop threads (Go, async Rust).
 *
 * Ownership. kiln_model and kiln_tensor handles are owned by the caller and
 * freed with kiln_model_free and kiln_tensor_free; kiln_entry_point and
 * kiln_value handles, and every string returned, belong to their model and
 * live as long as it does. Each *_free accepts NULL and does nothing;
 * freeing a handle twice is undefined, as with free().
 *
 * Threads. A kiln_model is immutable once loaded: any number of threads may
 * query it and call kiln_model_run on it at once. A kiln_tensor is like a
 * plain buffer: threads may read one at once (e.g. as an input of
 * concurrent runs), but one written (an output) must not be used by another
 * thread meanwhile.
 *
 * Versions. KILN_C_API_VERSION changes whenever a declaration here changes
 * meaning; functions are only ever added. kiln_c_api_version() says which
 * version the loaded library implements.
 *===----------------------------------------------------------------------===*/
#ifndef KILN_KILN_H
#define KILN_KILN_H

#include <stddef.h>
#include <stdint.h>

/* kiln_dtype: KILN_F32, KILN_F64, KILN_F16, KILN_BF16, KILN_I32, KILN_I64,
 * KILN_BOOL (one byte per element, 0 or 1). */
#include "kiln/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 2 added kiln_value_is_optional and NULL for an optional input; 3 added
 * kiln_value_default and NULL for an input with a default; 4 added
 * kiln_entry_find_input, kiln_entry_find_output, kiln_value_str_choice_count
 * and kiln_value_str_choice. */
#define KILN_C_API_VERSION 4

/* The library is built with hidden visibility; this exports the API. */
#if defined(__GNUC__)
#define KILN_API __attribute__((visibility("default")))
#else
#define KILN_API
#endif

/*===-- Versions and status -----------------------------------------------===*/

/* The library's version, e.g. "0.1.0" (the version of `kiln --version`). */
KILN_API const char *kiln_version(void);
/* The KILN_C_API_VERSION the library was built with; a program built
 * against a newer header may check it before calling newer functions. */
KILN_API int kiln_c_api_version(void);

/* What went wrong. The message says more, for a person. */
typedef enum kiln_status_code {
  KILN_STATUS_OK = 0,
  /* A null handle or pointer, an unknown dtype, a negative dim, or inputs
   * and outputs that do not fit the entry's signature (count, dtype, rank,
   * static dims, one size per dim symbol). */
  KILN_STATUS_INVALID_ARGUMENT = 1,
  /* No entry point of that name. */
  KILN_STATUS_NOT_FOUND = 2,
  /* The archive file cannot be opened or read (missing, not a regular
   * file, no permission). */
  KILN_STATUS_IO_ERROR = 3,
  /* The bytes are not a kiln archive, or a damaged one: not a zip, a bad
   * manifest, a checksum mismatch. */
  KILN_STATUS_INVALID_ARCHIVE = 4,
  /* The compiled code raised an error (a failed assert, an index out of
   * range, a broadcast of mismatched dynamic dims): the message names the
   * script's file, line and column. */
  KILN_STATUS_RUNTIME_ERROR = 5,
  /* A caller-provided output or wrapped buffer is too small; the message
   * gives the size needed. */
  KILN_STATUS_BUFFER_TOO_SMALL = 6,
  KILN_STATUS_OUT_OF_MEMORY = 7,
  /* An error the runtime did not expect: a bug, please report it. */
  KILN_STATUS_INTERNAL = 8,
  /* A sound archive this runtime or CPU cannot run: a newer format or ABI
   * version, or no code object for this CPU's features (the message names
   * what each lacks and the --target-cpu that fits). */
  KILN_STATUS_UNSUPPORTED = 9
} kiln_status_code;

typedef struct kiln_status kiln_status;

/* KILN_STATUS_OK for NULL. */
KILN_API kiln_status_code kiln_status_get_code(const kiln_status *status);
/* One or more lines, without a trailing newline and without a "kiln:
 * error:" prefix; "" for NULL. Valid until the status is freed. */
KILN_API const char *kiln_status_message(const kiln_status *status);
KILN_API void kiln_status_free(kiln_status *status);
/* "KILN_STATUS_NOT_FOUND" and so on; "KILN_STATUS_UNKNOWN" otherwise. */
KILN_API const char *kiln_status_code_name(kiln_status_code code);

/*===-- Element types -----------------------------------------------------===*/

/* Bytes per element; 0 for a value that is no kiln_dtype. */
KILN_API size_t kiln_dtype_size(kiln_dtype dtype);
/* "f32", "f64", "f16", "bf16", "i32", "i64", "bool"; NULL otherwise. */
KILN_API const char *kiln_dtype_name(kiln_dtype dtype);

/*===-- Tensors -----------------------------------------------------------===*
 * A dtype, a shape and dense row-major storage. A Python scalar argument
 * or result (int, float, bool) is a tensor of rank 0 with one element. */

typedef struct kiln_tensor kiln_tensor;

/* A zero-filled tensor that owns 64-byte aligned storage. */
KILN_API kiln_status *kiln_tensor_create(kiln_dtype dtype, const int64_t *shape,
                                         size_t rank, kiln_tensor **out);
/* A tensor over the caller's buffer of `size` bytes, which must hold the
 * shape (KILN_STATUS_BUFFER_TOO_SMALL otherwise) and outlive the tensor.
 * Nothing is copied: an input is read in place, and an output is written
 * there. `data` may be NULL only when the shape has no elements. */
KILN_API kiln_status *kiln_tensor_wrap(kiln_dtype dtype, const int64_t *shape,
                                       size_t rank, void *data, size_t size,
                                       kiln_tensor **out);
KILN_API void kiln_tensor_free(kiln_tensor *tensor);

/* For a NULL tensor: KILN_F32, rank 0, shape NULL, data NULL, sizes 0. */
KILN_API kiln_dtype kiln_tensor_dtype(const kiln_tensor *tensor);
KILN_API size_t kiln_tensor_rank(const kiln_tensor *tensor);
/* `rank` dims; valid until the tensor's shape changes (an output's does,
 * in kiln_model_run) or it is freed. */
KILN_API const int64_t *kiln_tensor_shape(const kiln_tensor *tensor);
KILN_API int64_t kiln_tensor_element_count(const kiln_tensor *tensor);
/* The bytes the shape spans (element count x dtype size). */
KILN_API size_t kiln_tensor_byte_size(const kiln_tensor *tensor);
/* The bytes the storage holds: at least kiln_tensor_byte_size, more when a
 * run gave an output a smaller shape than its buffer's. */
KILN_API size_t kiln_tensor_capacity(const kiln_tensor *tensor);
KILN_API void *kiln_tensor_data(kiln_tensor *tensor);
KILN_API const void *kiln_tensor_const_data(const kiln_tensor *tensor);

/*===-- Models ------------------------------------------------------------===*/

typedef struct kiln_model kiln_model;
/* An entry point, owned by its model; the kiln_entry_* functions read it.
 * (kiln/abi.h's kiln_entry is another thing: the code object's table.) */
typedef struct kiln_entry_point kiln_entry_point;
typedef struct kiln_value kiln_value; /* an input or output of an entry */

/* Maps the archive and checks it (zip structure, manifest, checksums, CPU
 * features) before loading its code; see Model::load in kiln/Model.h. */
KILN_API kiln_status *kiln_model_load(const char *path, kiln_model **out);
/* The same from `size` bytes in memory, which are copied: the buffer may be
 * freed once this returns. */
KILN_API kiln_status *kiln_model_load_from_memory(const void *data, size_t size,
                                                  kiln_model **out);
KILN_API void kiln_model_free(kiln_model *model);

/* Entry points, in the archive's order; NULL past the end. */
KILN_API size_t kiln_model_entry_count(const kiln_model *model);
KILN_API const kiln_entry_point *kiln_model_entry(const kiln_model *model,
                                                  size_t index);
/* KILN_STATUS_NOT_FOUND, naming the entries there are, when there is none
 * called `name`. */
KILN_API kiln_status *kiln_model_find_entry(const kiln_model *model,
                                            const char *name,
                                            const kiln_entry_point **out);

KILN_API const char *kiln_entry_name(const kiln_entry_point *entry);
KILN_API size_t kiln_entry_input_count(const kiln_entry_point *entry);
KILN_API size_t kiln_entry_output_count(const kiln_entry_point *entry);
/* NULL past the end. */
KILN_API const kiln_value *kiln_entry_input(const kiln_entry_point *entry,
                                            size_t index);
KILN_API const kiln_value *kiln_entry_output(const kiln_entry_point *entry,
                                             size_t index);

/* The index of the input called `name` ("x"; "xs.1" for an element of a
 * List or Tuple parameter), or of the output called `name` ("logits" of a
 * returned dict, "result0"), for kiln_model_run's arrays; -1 when there is
 * none, or for a NULL argument. */
KILN_API int64_t kiln_entry_find_input(const kiln_entry_point *entry,
                                       const char *name);
KILN_API int64_t kiln_entry_find_output(const kiln_entry_point *entry,
                                        const char *name);

/* The Python parameter name ("x"; "xs.0", "xs.1"... for the elements of a
 * List or Tuple parameter); "result0", "result1"... for outputs, or a
 * returned dict's keys. */
KILN_API const char *kiln_value_name(const kiln_value *value);
KILN_API kiln_dtype kiln_value_dtype(const kiln_value *value);
/* 1 for an Optional input (of a tensor or a scalar), which kiln_model_run
 * takes as NULL for None; 0 otherwise. */
KILN_API int kiln_value_is_optional(const kiln_value *value);
/* For a scalar input with a Python default (`k: int = 2`): its one
 * element, of kiln_value_dtype (int64_t, double, or a 0/1 byte for bool),
 * which kiln_model_run uses when the input is NULL or, trailing, left
 * out. NULL when the input has none. Valid as long as the model. */
KILN_API const void *kiln_value_default(const kiln_value *value);
/* For a str parameter chosen at run time (compiled with --arg
 * mode=str:relu|gelu): the number of values it may take, and value
 * `index` ("gelu"), NULL past the end. The input is then a KILN_I64
 * scalar, the index of its value; 0 values for any other input. */
KILN_API size_t kiln_value_str_choice_count(const kiln_value *value);
KILN_API const char *kiln_value_str_choice(const kiln_value *value,
                                           size_t index);
/* 0 for a Python scalar. */
KILN_API size_t kiln_value_rank(const kiln_value *value);
/* Dim `index`: its static size, or -1 when it is a symbol bound per call
 * (then kiln_value_dim_symbol names it, e.g. "N") or out of range. */
KILN_API int64_t kiln_value_dim(const kiln_value *value, size_t index);
/* The symbol of dim `index` ("N"), or NULL for a static dim. */
KILN_API const char *kiln_value_dim_symbol(const kiln_value *value,
                                           size_t index);

/* Runs entry point `entry` on `num_inputs` inputs, which are read in place
 * and checked against its signature before any code runs. An optional input
 * (kiln_value_is_optional) may be NULL, meaning None, and trailing optional
 * inputs may be left out of `num_inputs`; so may an input with a default
 * (kiln_value_default), which then takes it; NULL for a required input is
 * KILN_STATUS_INVALID_ARGUMENT, naming it. `num_outputs`
 * must be the entry's output count, and each outputs[i] chooses, as in
 * ONNX Runtime's OrtRun:
 *  - NULL: the runtime allocates the result and stores a new tensor there,
 *    which the caller frees with kiln_tensor_free;
 *  - a tensor (from kiln_tensor_create or kiln_tensor_wrap, e.g. reused from
 *    the previous call): the result is copied into its storage, which must
 *    have the result's dtype (KILN_STATUS_INVALID_ARGUMENT) and at least
 *    its byte size (KILN_STATUS_BUFFER_TOO_SMALL), and the tensor takes the
 *    result's shape. Dims bound per call are known only once the code has
 *    run, so these checks come after it; either every output is written or,
 *    on an error, none is.
 * On an error every outputs[i] is as it was. Any number of threads may run
 * one model at once. */
KILN_API kiln_status *kiln_model_run(const kiln_model *model, const char *entry,
                                     const kiln_tensor *const *inputs,
                                     size_t num_inputs, kiln_tensor **outputs,
                                     size_t num_outputs);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KILN_KILN_H */
