/*===- row_softmax.c - tasks/row_softmax on the host target --------------===*
 *
 * Usage: row_softmax KERNEL_SO M N. y[i, :] = softmax(x[i, :]), fp32; the
 * error is absolute (outputs lie in [0, 1]), limit 1e-6.
 *
 *===----------------------------------------------------------------------===*/

#include "harness.h"

enum { BR = 4, BN = 1024 }; /* the task's params: grid = M/BR x N/BN */

int main(int argc, char **argv) {
  kernel_fn kernel = load_kernel(argv[1], "row_softmax");
  int64_t M = arg_i64(argc, argv, 2), N = arg_i64(argc, argv, 3);
  float *x = random_floats(M * N), *y = nan_floats(M * N);
  for (int64_t i = 0; i < M * N; ++i)
    x[i] *= 8; /* exponents of both signs */

  void *params[] = {&x, &y, &M, &N};
  kernel(params, ceil_div(M, BR), ceil_div(N, BN), 1);

  double limit = 1e-6;
  check_t c = {0, 0};
  for (int64_t i = 0; i < M; ++i) {
    double max = -INFINITY, sum = 0;
    for (int64_t j = 0; j < N; ++j)
      max = fmax(max, x[i * N + j]);
    for (int64_t j = 0; j < N; ++j)
      sum += exp(x[i * N + j] - max);
    for (int64_t j = 0; j < N; ++j)
      check(&c, y[i * N + j], exp(x[i * N + j] - max) / sum, 1, limit);
  }
  char what[128];
  snprintf(what, sizeof what, "row_softmax M=%lld N=%lld", (long long)M,
           (long long)N);
  return report(what, &c, limit, guards_intact(y, M * N * sizeof(float)));
}
