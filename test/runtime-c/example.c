/* Runs the entry point "myfun" of an archive compiled from
 * examples/seed/myfun.py (tanh(x * x)) on five numbers, from C.
 *   cc example.c $(pkg-config --cflags --libs kiln_runtime) -o example
 *   ./example myfun.kiln */
#include <kiln/kiln.h>

#include <stdio.h>

int main(int argc, char **argv) {
  kiln_model *model = NULL;
  kiln_tensor *x = NULL, *y = NULL;
  float data[] = {-2.0f, -1.0f, 0.0f, 0.5f, 1.0f};
  int64_t shape[] = {5};
  const kiln_tensor *inputs[1];
  const float *result;
  int64_t i;
  int failed = 1;

  kiln_status *status =
      kiln_model_load(argc > 1 ? argv[1] : "myfun.kiln", &model);
  if (status)
    goto done;
  /* The input borrows `data`; nothing is copied. */
  status = kiln_tensor_wrap(KILN_F32, shape, 1, data, sizeof data, &x);
  if (status)
    goto done;
  /* y is NULL, so the runtime allocates the output. */
  inputs[0] = x;
  status = kiln_model_run(model, "myfun", inputs, 1, &y, 1);
  if (status)
    goto done;
  result = (const float *)kiln_tensor_const_data(y);
  for (i = 0; i < kiln_tensor_element_count(y); ++i)
    printf("%.4f\n", result[i]);
  failed = 0;

done:
  if (status)
    fprintf(stderr, "error (%s): %s\n",
            kiln_status_code_name(kiln_status_get_code(status)),
            kiln_status_message(status));
  kiln_status_free(status);
  kiln_tensor_free(y);
  kiln_tensor_free(x);
  kiln_model_free(model);
  return failed;
}
