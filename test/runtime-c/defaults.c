/* Defaults of scalar inputs through the C API: kiln_value_default reads
 * them, and NULL or leaving a trailing input out of n_in takes them; for
 * an Optional scalar NULL is None. test/runtime-c/defaults.test runs it on
 * the archive of Inputs/defaults.py (affine(x, k=2, shift=0.5,
 * negate=False) = +-(k x + shift); shift_scale(x, shift: Optional[float] =
 * None, scale: Optional[float] = 1.5) = (x + shift) * scale, skipping
 * each that is None). */
#include "print_run.h"

#include <kiln/kiln.h>

#include <stdio.h>

static kiln_model *model;

static void run(const char *label, const kiln_tensor *const *inputs,
                size_t n_in) {
  print_run(model, "affine", label, inputs, n_in);
}

int main(int argc, char **argv) {
  float xs[] = {1.0f, 2.0f, 3.0f};
  int64_t shape[] = {3}, k3 = 3;
  double quarter = 0.25;
  unsigned char yes = 1;
  kiln_tensor *x = NULL, *k = NULL, *negate = NULL, *shift = NULL;
  const kiln_entry_point *entry = NULL;
  const kiln_tensor *inputs[4];
  kiln_status *status;

  if (argc < 2)
    return 2;
  status = kiln_model_load(argv[1], &model);
  if (!status)
    status = kiln_tensor_wrap(KILN_F32, shape, 1, xs, sizeof xs, &x);
  if (!status)
    status = kiln_tensor_wrap(KILN_I64, NULL, 0, &k3, sizeof k3, &k);
  if (!status)
    status = kiln_tensor_wrap(KILN_BOOL, NULL, 0, &yes, sizeof yes, &negate);
  if (!status)
    status = kiln_tensor_wrap(KILN_F64, NULL, 0, &quarter, sizeof quarter,
                              &shift);
  if (!status)
    status = kiln_model_find_entry(model, "affine", &entry);
  if (status) {
    fprintf(stderr, "setup: %s\n", kiln_status_message(status));
    return 1;
  }
  printf("x default: %s, k default: %lld, shift default: %g, negate "
         "default: %d, NULL value: %s\n",
         kiln_value_default(kiln_entry_input(entry, 0)) ? "yes" : "none",
         (long long)*(const int64_t *)kiln_value_default(
             kiln_entry_input(entry, 1)),
         *(const double *)kiln_value_default(kiln_entry_input(entry, 2)),
         *(const unsigned char *)kiln_value_default(kiln_entry_input(entry, 3)),
         kiln_value_default(NULL) ? "yes" : "none");

  inputs[0] = x;
  run("all left out", inputs, 1);
  inputs[1] = k;
  run("k given", inputs, 2);
  inputs[1] = NULL;
  inputs[2] = NULL;
  inputs[3] = negate;
  run("k, shift NULL", inputs, 4);
  inputs[0] = NULL;
  run("x NULL", inputs, 4);
  run("none", inputs, 0);

  if ((status = kiln_model_find_entry(model, "shift_scale", &entry))) {
    fprintf(stderr, "setup: %s\n", kiln_status_message(status));
    return 1;
  }
  printf("shift optional: %d, default: %s; scale optional: %d, default: "
         "%g\n",
         kiln_value_is_optional(kiln_entry_input(entry, 1)),
         kiln_value_default(kiln_entry_input(entry, 1)) ? "yes" : "none",
         kiln_value_is_optional(kiln_entry_input(entry, 2)),
         *(const double *)kiln_value_default(kiln_entry_input(entry, 2)));
  inputs[0] = x;
  print_run(model, "shift_scale", "both left out", inputs, 1);
  inputs[1] = shift;
  print_run(model, "shift_scale", "shift given", inputs, 2);
  inputs[2] = NULL;
  print_run(model, "shift_scale", "scale NULL", inputs, 3);
  inputs[1] = NULL;
  print_run(model, "shift_scale", "both NULL", inputs, 3);

  kiln_tensor_free(shift);
  kiln_tensor_free(negate);
  kiln_tensor_free(k);
  kiln_tensor_free(x);
  kiln_model_free(model);
  return 0;
}
