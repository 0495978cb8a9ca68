/*===- linear_bias_relu.c - tasks/linear_bias_relu on the host target ----===*
 *
 * Usage: linear_bias_relu KERNEL_SO M N K [EXTRA]. y = relu(x @ w^T + b),
 * fp32. EXTRA more blocks than needed along x and y must change nothing.
 * The error of each element is measured relative to sum_k |x w| + |b|, the
 * scale of an fp32 sum; the limit is the worst-case bound of recursive
 * summation, (K + 2) * 2^-24.
 *
 *===----------------------------------------------------------------------===*/

#include "harness.h"

enum { BM = 64, BN = 64 }; /* the task's params: grid = M/BM x N/BN */

int main(int argc, char **argv) {
  kernel_fn kernel = load_kernel(argv[1], "linear_bias_relu");
  int64_t M = arg_i64(argc, argv, 2), N = arg_i64(argc, argv, 3),
          K = arg_i64(argc, argv, 4);
  int64_t extra = argc > 5 ? arg_i64(argc, argv, 5) : 0;
  float *x = random_floats(M * K), *w = random_floats(N * K),
        *b = random_floats(N), *y = nan_floats(M * N);

  /* ABI order: X, W, b, Y, then the dims M, K, N in order of appearance. */
  void *params[] = {&x, &w, &b, &y, &M, &K, &N};
  kernel(params, ceil_div(M, BM) + extra, ceil_div(N, BN) + extra, 1);

  double limit = (K + 2) * ldexp(1.0, -24);
  check_t c = {0, 0};
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double sum = b[j], scale = fabs(b[j]);
      for (int64_t k = 0; k < K; ++k) {
        sum += (double)x[i * K + k] * w[j * K + k];
        scale += fabs((double)x[i * K + k] * w[j * K + k]);
      }
      check(&c, y[i * N + j], sum > 0 ? sum : 0, scale, limit);
    }
  char what[128];
  int n = snprintf(what, sizeof what, "linear_bias_relu M=%lld N=%lld K=%lld",
                   (long long)M, (long long)N, (long long)K);
  if (extra)
    snprintf(what + n, sizeof what - n, " extra=%lld", (long long)extra);
  return report(what, &c, limit, guards_intact(y, M * N * sizeof(float)));
}
