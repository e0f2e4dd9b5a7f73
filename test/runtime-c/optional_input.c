/* Optional[Tensor] inputs through the C API: NULL is None.
 * test/runtime-c/optional-input.test runs it on the archive of
 * Inputs/optional.py (add_bias(x, b=None) = 2x, plus b when given) and
 * checks what it prints. */
#include "print_run.h"

#include <kiln/kiln.h>

#include <stdio.h>

static kiln_model *model;

/* Runs add_bias on `n_in` inputs and prints the result or the status. */
static void run(const char *label, const kiln_tensor *const *inputs,
                size_t n_in) {
  print_run(model, "add_bias", label, inputs, n_in);
}

int main(int argc, char **argv) {
  float xs[] = {1.0f, 2.0f, 3.0f}, bs[] = {0.5f, 0.25f, 0.125f};
  int64_t shape[] = {3};
  kiln_tensor *x = NULL, *b = NULL;
  const kiln_entry_point *entry = NULL;
  const kiln_tensor *inputs[2];
  kiln_status *status;

  if (argc < 2)
    return 2;
  status = kiln_model_load(argv[1], &model);
  if (!status)
    status = kiln_tensor_wrap(KILN_F32, shape, 1, xs, sizeof xs, &x);
  if (!status)
    status = kiln_tensor_wrap(KILN_F32, shape, 1, bs, sizeof bs, &b);
  if (!status)
    status = kiln_model_find_entry(model, "add_bias", &entry);
  if (status) {
    fprintf(stderr, "setup: %s\n", kiln_status_message(status));
    return 1;
  }
  printf("x optional: %d, b optional: %d, NULL value: %d\n",
         kiln_value_is_optional(kiln_entry_input(entry, 0)),
         kiln_value_is_optional(kiln_entry_input(entry, 1)),
         kiln_value_is_optional(NULL));

  inputs[0] = x;
  inputs[1] = b;
  run("with b", inputs, 2);
  inputs[1] = NULL;
  run("b NULL", inputs, 2);
  run("b left out", inputs, 1);
  inputs[0] = NULL;
  inputs[1] = b;
  run("x NULL", inputs, 2);

  kiln_tensor_free(b);
  kiln_tensor_free(x);
  kiln_model_free(model);
  return 0;
}
