/*===- run_archive.c - The C API, exercised from C -----------------------===*
 *
 *   run_archive MYFUN.kiln CASE.txt
 *
 * Compiled as C99, not C++, so that kiln/kiln.h is proven to be C. The
 * archive is examples/seed/myfun.py (tanh(x * x), x: f32[N]); CASE.txt
 * holds N, the inputs and eager PyTorch's outputs (Inputs/myfun_case.py).
 * The program loads the archive from its path and from a buffer, reads the
 * entry's signature, runs it with runtime-allocated and caller-provided
 * outputs and checks every number within |got - want| <= 1e-6 + 1e-5 *
 * |want| (kiln's tanh and PyTorch's may differ in the last few bits), then
 * checks that each bad call gives its status code and a message. Each
 * error's code and message are printed for the lit test to check; it exits
 * 1 at the first failed check.
 *===----------------------------------------------------------------------===*/
#include <kiln/kiln.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_N 64

static int failures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

/* Succeeds or stops the program with the status's message. */
static void ok(kiln_status *status, const char *what) {
  if (!status)
    return;
  fprintf(stderr, "%s failed: %s: %s\n", what,
          kiln_status_code_name(kiln_status_get_code(status)),
          kiln_status_message(status));
  exit(1);
}

/* Checks that `status` failed with `code` and a message, and prints both. */
static void expect(kiln_status *status, kiln_status_code code,
                   const char *what) {
  CHECK(status != NULL);
  printf("%s: %s: %s\n", what,
         kiln_status_code_name(kiln_status_get_code(status)),
         kiln_status_message(status));
  CHECK(kiln_status_get_code(status) == code);
  CHECK(strlen(kiln_status_message(status)) > 0);
  kiln_status_free(status);
}

struct test_case {
  int64_t n;
  float x[MAX_N];
  float want[MAX_N];
};

static void read_case(const char *path, struct test_case *c) {
  FILE *in = fopen(path, "r");
  int64_t i;
  CHECK(in != NULL);
  CHECK(fscanf(in, "%ld", (long *)&c->n) == 1 && c->n > 0 && c->n <= MAX_N);
  for (i = 0; i < c->n; ++i)
    CHECK(fscanf(in, "%f", &c->x[i]) == 1);
  for (i = 0; i < c->n; ++i)
    CHECK(fscanf(in, "%f", &c->want[i]) == 1);
  fclose(in);
}

static void check_numbers(const kiln_tensor *y, const struct test_case *c,
                          const char *mode) {
  const float *got = (const float *)kiln_tensor_const_data(y);
  int64_t i;
  CHECK(kiln_tensor_dtype(y) == KILN_F32);
  CHECK(kiln_tensor_rank(y) == 1);
  CHECK(kiln_tensor_shape(y)[0] == c->n);
  for (i = 0; i < c->n; ++i) {
    double err = fabs((double)got[i] - (double)c->want[i]);
    if (err > 1e-6 + 1e-5 * fabs((double)c->want[i])) {
      fprintf(stderr, "%s: y[%ld] = %.9g, eager PyTorch gives %.9g\n", mode,
              (long)i, got[i], c->want[i]);
      ++failures;
    }
  }
  printf("%s: %ld values match eager PyTorch\n", mode, (long)c->n);
}

static void check_signature(const kiln_model *model) {
  const kiln_entry_point *entry = NULL;
  const kiln_value *x, *y;
  CHECK(kiln_model_entry_count(model) == 1);
  ok(kiln_model_find_entry(model, "myfun", &entry), "find_entry");
  CHECK(entry == kiln_model_entry(model, 0));
  CHECK(strcmp(kiln_entry_name(entry), "myfun") == 0);
  CHECK(kiln_entry_input_count(entry) == 1);
  CHECK(kiln_entry_output_count(entry) == 1);
  x = kiln_entry_input(entry, 0);
  y = kiln_entry_output(entry, 0);
  CHECK(kiln_entry_input(entry, 1) == NULL);
  CHECK(kiln_entry_find_input(entry, "x") == 0);
  CHECK(kiln_entry_find_output(entry, "result0") == 0);
  CHECK(kiln_entry_find_output(entry, "logits") == -1);
  CHECK(strcmp(kiln_value_name(x), "x") == 0);
  CHECK(kiln_value_dtype(x) == KILN_F32);
  CHECK(kiln_value_rank(x) == 1);
  CHECK(kiln_value_dim(x, 0) == -1);
  CHECK(strcmp(kiln_value_dim_symbol(x, 0), "N") == 0);
  CHECK(strcmp(kiln_value_name(y), "result0") == 0);
  CHECK(kiln_value_dtype(y) == KILN_F32 && kiln_value_rank(y) == 1);
  printf("signature: myfun(x: %s[%s]) -> %s\n",
         kiln_dtype_name(kiln_value_dtype(x)), kiln_value_dim_symbol(x, 0),
         kiln_dtype_name(kiln_value_dtype(y)));
}

/* Both output modes: NULL (the runtime allocates) and a caller's buffer. */
static void run_both_ways(const kiln_model *model, struct test_case *c,
                          const char *how) {
  kiln_tensor *x = NULL, *y = NULL, *mine = NULL;
  const kiln_tensor *inputs[1];
  float buffer[MAX_N];
  int64_t shape[1];
  char mode[64];
  shape[0] = c->n;
  ok(kiln_tensor_wrap(KILN_F32, shape, 1, c->x, sizeof c->x, &x), "wrap x");
  inputs[0] = x;

  ok(kiln_model_run(model, "myfun", inputs, 1, &y, 1), "run (allocated)");
  CHECK(y != NULL);
  sprintf(mode, "%s, runtime-allocated output", how);
  check_numbers(y, c, mode);

  /* A buffer larger than needed: the tensor takes the result's shape. */
  shape[0] = MAX_N;
  ok(kiln_tensor_wrap(KILN_F32, shape, 1, buffer, sizeof buffer, &mine),
     "wrap output");
  ok(kiln_model_run(model, "myfun", inputs, 1, &mine, 1), "run (provided)");
  CHECK(kiln_tensor_data(mine) == (void *)buffer);
  CHECK(kiln_tensor_capacity(mine) == sizeof buffer);
  sprintf(mode, "%s, caller-provided output", how);
  check_numbers(mine, c, mode);

  kiln_tensor_free(mine);
  kiln_tensor_free(y);
  kiln_tensor_free(x);
}

static void check_load_errors(const char *archive) {
  kiln_model *model = NULL;
  static const char garbage[] = "this is not a zip archive";
  char missing[4096];
  snprintf(missing, sizeof missing, "%s.missing", archive);
  expect(kiln_model_load(missing, &model), KILN_STATUS_IO_ERROR, "bad path");
  CHECK(model == NULL);
  expect(kiln_model_load_from_memory(garbage, sizeof garbage, &model),
         KILN_STATUS_INVALID_ARCHIVE, "bad bytes");
  expect(kiln_model_load(NULL, &model), KILN_STATUS_INVALID_ARGUMENT,
         "null path");
  CHECK(model == NULL);
}

static void check_run_errors(const kiln_model *model, struct test_case *c) {
  kiln_tensor *x = NULL, *ints = NULL, *matrix = NULL, *small = NULL, *y = NULL;
  const kiln_entry_point *entry = NULL;
  const kiln_tensor *inputs[2];
  int64_t shape[2];
  int64_t longs[MAX_N] = {0};
  float tiny[2];
  shape[0] = c->n;
  ok(kiln_tensor_wrap(KILN_F32, shape, 1, c->x, sizeof c->x, &x), "wrap x");
  ok(kiln_tensor_wrap(KILN_I64, shape, 1, longs, sizeof longs, &ints),
     "wrap ints");
  shape[0] = 1;
  shape[1] = c->n;
  ok(kiln_tensor_wrap(KILN_F32, shape, 2, c->x, sizeof c->x, &matrix),
     "wrap matrix");
  shape[0] = 2;
  ok(kiln_tensor_wrap(KILN_F32, shape, 1, tiny, sizeof tiny, &small),
     "wrap small");

  expect(kiln_model_find_entry(model, "forward", &entry), KILN_STATUS_NOT_FOUND,
         "bad entry name");
  CHECK(entry == NULL);
  inputs[0] = x;
  expect(kiln_model_run(model, "forward", inputs, 1, &y, 1),
         KILN_STATUS_NOT_FOUND, "run bad entry name");
  inputs[1] = x;
  expect(kiln_model_run(model, "myfun", inputs, 2, &y, 1),
         KILN_STATUS_INVALID_ARGUMENT, "input count");
  inputs[0] = ints;
  expect(kiln_model_run(model, "myfun", inputs, 1, &y, 1),
         KILN_STATUS_INVALID_ARGUMENT, "input dtype");
  inputs[0] = matrix;
  expect(kiln_model_run(model, "myfun", inputs, 1, &y, 1),
         KILN_STATUS_INVALID_ARGUMENT, "input shape");
  CHECK(y == NULL);
  inputs[0] = x;
  expect(kiln_model_run(model, "myfun", inputs, 1, &small, 1),
         KILN_STATUS_BUFFER_TOO_SMALL, "output too small");
  CHECK(kiln_tensor_shape(small)[0] == 2); /* untouched */

  kiln_tensor_free(small);
  kiln_tensor_free(matrix);
  kiln_tensor_free(ints);
  kiln_tensor_free(x);
}

/* The whole file in a malloc'd buffer, freed right after loading: the
 * model must not need it. */
static kiln_model *load_from_memory(const char *path) {
  kiln_model *model = NULL;
  FILE *in = fopen(path, "rb");
  long size;
  char *bytes;
  CHECK(in != NULL);
  CHECK(fseek(in, 0, SEEK_END) == 0 && (size = ftell(in)) > 0);
  rewind(in);
  bytes = (char *)malloc((size_t)size);
  CHECK(bytes != NULL && fread(bytes, 1, (size_t)size, in) == (size_t)size);
  fclose(in);
  ok(kiln_model_load_from_memory(bytes, (size_t)size, &model),
     "load from memory");
  memset(bytes, 0, (size_t)size);
  free(bytes);
  return model;
}

int main(int argc, char **argv) {
  struct test_case c;
  kiln_model *model = NULL;
  if (argc != 3) {
    fprintf(stderr, "usage: run_archive MYFUN.kiln CASE.txt\n");
    return 2;
  }
  read_case(argv[2], &c);
  CHECK(kiln_c_api_version() == KILN_C_API_VERSION);
  printf("kiln %s, C API version %d\n", kiln_version(), kiln_c_api_version());

  ok(kiln_model_load(argv[1], &model), "load");
  check_signature(model);
  run_both_ways(model, &c, "from a path");
  check_run_errors(model, &c);
  kiln_model_free(model);

  model = load_from_memory(argv[1]);
  run_both_ways(model, &c, "from memory");
  kiln_model_free(model);

  check_load_errors(argv[1]);
  if (failures) {
    fprintf(stderr, "%d values differ from eager PyTorch\n", failures);
    return 1;
  }
  printf("all checks passed\n");
  return 0;
}
