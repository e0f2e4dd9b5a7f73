/* Shared by the C API test programs (defaults.c, optional_input.c): runs
 * entry `name` of `model` on `n_in` inputs and prints, after `label`, its
 * f32 result or the status's code and message. */
#ifndef KILN_TEST_PRINT_RUN_H
#define KILN_TEST_PRINT_RUN_H

#include <kiln/kiln.h>

#include <stdio.h>

static void print_run(kiln_model *model, const char *name, const char *label,
                      const kiln_tensor *const *inputs, size_t n_in) {
  kiln_tensor *y = NULL;
  kiln_status *status = kiln_model_run(model, name, inputs, n_in, &y, 1);
  if (status) {
    printf("%s: %s: %s\n", label,
           kiln_status_code_name(kiln_status_get_code(status)),
           kiln_status_message(status));
  } else {
    const float *v = (const float *)kiln_tensor_const_data(y);
    int64_t i;
    printf("%s:", label);
    for (i = 0; i < kiln_tensor_element_count(y); ++i)
      printf(" %g", v[i]);
    printf("\n");
  }
  kiln_status_free(status);
  kiln_tensor_free(y);
}

#endif
