/* Host-target kernel for tasks/row_sum in the bundle ABI (docs/bundle.md):
 * y[i] = sum_j x[i, j], BR rows per block of a ceildiv(M, BR) grid. */
#include <stdint.h>

#define BR 8

void row_sum(void **params, int64_t gx, int64_t gy, int64_t gz) {
  const float *x = *(float **)params[0];
  float *y = *(float **)params[1];
  int64_t M = *(int64_t *)params[2];
  int64_t N = *(int64_t *)params[3];
  (void)gy;
  (void)gz;
  for (int64_t bx = 0; bx < gx; ++bx)
    for (int64_t i = bx * BR; i < bx * BR + BR && i < M; ++i) {
      float acc = 0.0f;
      for (int64_t j = 0; j < N; ++j)
        acc += x[i * N + j];
      y[i] = acc;
    }
}
