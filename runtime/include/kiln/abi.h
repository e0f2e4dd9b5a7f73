/*===- kiln/abi.h - The boundary between compiled code and the runtime ----===*
 *
 * This header is the only thing a kiln code object and libkiln_runtime share.
 * Codegen emits code against it (codegen/AbiGlue.cpp) and the runtime
 * implements it (runtime/src/HostApi.cpp). It is plain C so that it can never
 * drag C++ ABI details (name mangling, exceptions, std types) across.
 *
 * Versioning: KILN_ABI_VERSION changes whenever a field is added, changes
 * meaning or moves. Fields are only ever appended to kiln_host_api and
 * kiln_module, and both carry their own size, so a newer runtime can load
 * an older code object: those of KILN_ABI_MIN_VERSION and later, the
 * versions since the last change of meaning.
 *===----------------------------------------------------------------------===*/
#ifndef KILN_ABI_H
#define KILN_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_ABI_VERSION 9
/* The oldest version whose code objects this runtime still runs: from it
 * on, versions only appended slots to kiln_host_api (8) and activation
 * codes (9), which older code never calls or passes, so the runtime loads
 * code of versions KILN_ABI_MIN_VERSION to KILN_ABI_VERSION. */
#define KILN_ABI_MIN_VERSION 7

/* The largest tensor, in bytes, that compiled code or the runtime will
 * create: 2^47, the user address space of x86-64 with 4-level paging.
 * Every size derived from a shape is checked against it before use, so no
 * byte count can wrap. An input whose dims, with each zero counted as one,
 * would exceed it is refused at the boundary: compiled code may derive a
 * non-empty shape from such an input (x.sum(0) of a [0, M, N] tensor). */
#define KILN_MAX_TENSOR_BYTES ((uint64_t)1 << 47)

/* The largest rank of a tensor that crosses this boundary, or that the
 * compiler creates: numpy 2's NPY_MAXDIMS, so that every kiln tensor can be
 * read from and written to .npy. PyTorch's own kernels assume at most 25
 * dims in places; real models use at most 6. Compile time grows with rank
 * (a rank-1000 signature took 92 s), so the bound is also a defence. */
#define KILN_MAX_RANK 64

/* The symbol every CPU code object exports; its value is a kiln_module. */
#define KILN_MODULE_SYMBOL "kiln_module_v1"

/* Element types, numbered as in manifest.json ("dtype" strings map 1:1). */
typedef enum kiln_dtype {
  KILN_F32 = 0,
  KILN_F64 = 1,
  KILN_F16 = 2,
  KILN_BF16 = 3,
  KILN_I32 = 4,
  KILN_I64 = 5,
  KILN_BOOL = 6 /* one byte per element, 0 or 1 */
} kiln_dtype;

/* The activation a library call applies to its result (matmul_epilogue),
 * numbered as in the IR's `activation` attribute. */
typedef enum kiln_activation {
  KILN_ACTIVATION_NONE = 0,
  KILN_ACTIVATION_RELU = 1,    /* max(x, 0), NaN kept */
  KILN_ACTIVATION_TANH = 2,
  KILN_ACTIVATION_SIGMOID = 3,
  KILN_ACTIVATION_SILU = 4 /* x * sigmoid(x); since ABI version 9 */
} kiln_activation;

/* A ranked tensor descriptor, laid out exactly as MLIR's memref descriptor:
 *   void *allocated; void *aligned; int64_t offset;
 *   int64_t sizes[rank]; int64_t strides[rank];
 * `dims` holds sizes then strides; the rank is known from the signature.
 * Strides and offset count elements, not bytes. */
typedef struct kiln_memref {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t dims[];
} kiln_memref;

/* How compiled code passes a tensor of any rank to the runtime. */
typedef struct kiln_unranked_memref {
  int64_t rank;
  kiln_memref *desc;
} kiln_unranked_memref;

/* The services the runtime provides to compiled code. Functions that take a
 * tensor of any dtype take the kiln_dtype as their last argument. The runtime owns the
 * table; a code object reads it through kiln_module.host. Every call happens
 * on the thread that called the entry point. */
typedef struct kiln_host_api {
  uint32_t abi_version; /* KILN_ABI_VERSION of the runtime */
  uint32_t size;        /* sizeof(kiln_host_api) of the runtime */

  /* Memory for every buffer compiled code allocates. Buffers returned from
   * an entry point become the caller's; the runtime frees the rest if the
   * call fails part way. */
  void *(*alloc)(uint64_t bytes);
  void (*free)(void *ptr);

  /* Reports a failed run-time check and never returns. `site` indexes the
   * manifest's "sites" table, which holds the source location and a message
   * template; a, b, c and d fill its {0} to {3}. (Four, since version 3:
   * PyTorch's matmul message names four sizes, "(MxK and KxN)".) */
  void (*raise)(int64_t site, int64_t a, int64_t b, int64_t c, int64_t d);
  /* In format strings and site messages "{{" and "}}" stand for literal
   * braces. */

  /* print(): begin a line with the manifest string `format`, whose "{}"
   * placeholders are filled by the following print_* calls in order. */
  void (*print_begin)(int64_t format);
  void (*print_i64)(int64_t value);
  void (*print_f64)(double value);
  void (*print_bool)(int32_t value);
  void (*print_tensor)(const kiln_unranked_memref *tensor, int32_t dtype);
  void (*print_end)(void);

  /* Python lists whose length is only known at run time. A list lives until
   * the entry point returns. Elements are copied in; scalars are stored as
   * rank-0 tensors. */
  void *(*list_new)(void);
  void *(*list_clone)(void *list);
  void (*list_append)(void *list, const kiln_unranked_memref *element,
                      int32_t dtype);
  int64_t (*list_len)(void *list);
  /* Size `dim` of the tensor that list_get (op 0), stack (op 1) or cat (op 2)
   * would produce; `axis` is the element index for op 0 and the stack/cat
   * dim otherwise. Raises `site` on an index out of range or on elements
   * whose shapes do not fit together. With op 0 and dim -1 it only checks
   * the index and returns 0 (for rank-0 elements). A negative element index
   * counts from the end, as in Python. */
  int64_t (*list_result_dim)(void *list, int32_t op, int64_t axis, int64_t dim,
                             int64_t site);
  /* Writes that result into `out`, a buffer of the size list_result_dim
   * reported. */
  void (*list_materialize)(void *list, int32_t op, int64_t axis,
                           const kiln_unranked_memref *out, int64_t site,
                           int32_t dtype);

  /* Seed for the counter-based generator behind torch.rand/randn; each call
   * returns a fresh stream id. */
  uint64_t (*random_stream)(void);

  /* The kernel library: GEMM and convolution through oneDNN on the CPU.
   * Tensors have any strides and the element type `dtype` (f32 or bf16).
   * A failure inside the library raises `site`.
   *
   * matmul: out[..., m, n] = sum_k a[..., m, k] * b[..., k, n]. a, b and out
   * have one rank (at least 2); each batch dim of a and b is 1 or out's
   * size, and a size-1 dim broadcasts. */
  void (*matmul)(const kiln_unranked_memref *a, const kiln_unranked_memref *b,
                 const kiln_unranked_memref *out, int64_t site, int32_t dtype);
  /* conv2d without bias: input N x C x H x W, weight O x C/groups x KH x KW,
   * out N x O x OH x OW as torch.nn.functional.conv2d computes it. */
  void (*conv2d)(const kiln_unranked_memref *input,
                 const kiln_unranked_memref *weight,
                 const kiln_unranked_memref *out, int64_t stride_h,
                 int64_t stride_w, int64_t pad_h, int64_t pad_w,
                 int64_t dilation_h, int64_t dilation_w, int64_t groups,
                 int64_t site, int32_t dtype);

  /* Since version 5 (reserved before): launches GPU kernel `kernel` of the
   * archive's CUDA kernels on the running call's stream, with a grid of
   * grid_x*grid_y*grid_z blocks of block_x*block_y*block_z threads;
   * `params` holds num_params pointers to the kernel's parameters, as
   * cuLaunchKernel takes them. A grid with no block launches nothing. NULL
   * for a model without CUDA kernels. */
  void (*launch_kernel)(const char *kernel, int64_t grid_x, int64_t grid_y,
                        int64_t grid_z, int64_t block_x, int64_t block_y,
                        int64_t block_z, void **params, int64_t num_params);

  /* Since version 4. Runs body(context, begin, end) over the tiles
   * [0, n), split into chunks that the runtime's threads and the calling
   * thread share; returns when every tile has run. `points` is the work
   * of one tile (iteration points), by which the runtime keeps small loops
   * on the calling thread. The body runs on other threads, so it calls
   * nothing in this table: codegen passes only tile loops that neither
   * allocate nor raise nor call the runtime (codegen/cpu/ParallelTiles.cpp). */
  void (*parallel_for)(void (*body)(void *context, int64_t begin, int64_t end),
                       void *context, int64_t n, int64_t points);

  /* Since version 5. Memory on the model's GPU for the code of a CUDA
   * archive, in place of alloc and free: every buffer it allocates is a
   * device buffer, ordered on the running call's stream. */
  void *(*device_alloc)(uint64_t bytes);
  void (*device_free)(void *ptr);

  /* Since version 6. The device address of the running CUDA call's check
   * record: five int64_t words, zero when the call starts. A kernel whose
   * run-time check fails swaps site + 1 into word 0 if it is still zero,
   * and if it did, stores the check's a, b, c and d in words 1 to 4. When
   * the call's work is done the runtime raises that site as raise() would.
   * A CUDA archive's host code asks for it before it launches a kernel
   * that checks. */
  void *(*kernel_check_record)(void);

  /* Since version 6. A CUDA archive's host code reading or writing one
   * element of a device tensor (a Python number taken from a tensor, or
   * stored into one). device_read waits for the call's work so far and
   * returns the `bytes` (1, 2, 4 or 8) at device address `address`,
   * zero-extended; device_write stores the low `bytes` of `bits` there, in
   * the order of the call's work. */
  int64_t (*device_read)(const void *address, int64_t bytes);
  void (*device_write)(void *address, int64_t bits, int64_t bytes);

  /* Since version 7. matmul with an epilogue, as nn.Linear and an
   * activation compute it: out = activation(a @ b + bias), with a, b and out
   * as matmul takes them and `bias` a vector of out's last dim, added to
   * every row. `activation` is a kiln_activation that the library of the
   * call's device runs exactly as PyTorch does (NaN kept); compiled code
   * asks only for those (docs/codegen.md, Library epilogues), and the
   * runtime raises `site` for any other. */
  void (*matmul_epilogue)(const kiln_unranked_memref *a,
                          const kiln_unranked_memref *b,
                          const kiln_unranked_memref *bias,
                          const kiln_unranked_memref *out, int32_t activation,
                          int64_t site, int32_t dtype);

  /* Since version 8. The buffer of result `result` (its index in the entry
   * point's results), `bytes` long, in place of alloc: the caller's output
   * for that result where Function::run lent it (exactly `bytes` long,
   * 64-byte aligned, overlapping no input nor other output), else memory
   * as alloc gives it. Compiled code asks for a buffer this way only when
   * it returns that buffer whole as that result, and asks once per call;
   * it never frees it. */
  void *(*alloc_result)(int64_t result, uint64_t bytes);
} kiln_host_api;

/* One entry point. `args[i]` points to the descriptor of argument i (a
 * Python scalar is a rank-0 tensor). An optional input (manifest format 3,
 * "optional": true) is two arguments: its tensor's descriptor (for None:
 * null pointers, its declared rank, static sizes as declared and 0 for
 * symbols), then a rank-0 bool descriptor, 1 when the tensor is present;
 * num_args counts both. `results` points to the descriptors of all results,
 * one after another. Results never alias arguments, and their `allocated`
 * pointers come from kiln_host_api.alloc. */
typedef void (*kiln_entry_fn)(void **args, void *results);

typedef struct kiln_entry {
  const char *name;
  kiln_entry_fn fn;
  int32_t num_args;
  int32_t num_results;
} kiln_entry;

typedef struct kiln_module {
  uint32_t abi_version; /* KILN_ABI_VERSION the code was built against */
  uint32_t size;        /* sizeof(kiln_module) */
  uint32_t num_entries;
  uint32_t num_weights;
  const kiln_entry *entries;
  /* The runtime stores its kiln_host_api here before the first call. */
  const kiln_host_api **host;
  /* An array of num_weights slots: before the first call the runtime stores
   * in slot i the address of weight i (the manifest's "weights" table), in
   * the archive's mapping, 64-byte aligned. Entry points read their
   * weights from here; NULL when num_weights is 0. */
  const void **weights;
} kiln_module;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KILN_ABI_H */
