/* Host-target kernel for tasks/row_softmax in the bundle ABI (docs/bundle.md):
 * y = softmax(x, dim=1), BR rows per block of a ceildiv(M, BR) grid.
 * -DNO_MAX_SUBTRACT drops the max-subtraction: exp overflows on large rows,
 * which only the structural distribution's outlier row reaches. */
#include <math.h>
#include <stdint.h>

#define BR 4

void row_softmax(void **params, int64_t gx, int64_t gy, int64_t gz) {
  const float *x = *(float **)params[0];
  float *y = *(float **)params[1];
  int64_t M = *(int64_t *)params[2];
  int64_t N = *(int64_t *)params[3];
  (void)gy;
  (void)gz;
  for (int64_t bx = 0; bx < gx; ++bx)
    for (int64_t i = bx * BR; i < bx * BR + BR && i < M; ++i) {
      const float *row = x + i * N;
      float mx = -INFINITY;
#ifndef NO_MAX_SUBTRACT
      for (int64_t j = 0; j < N; ++j)
        mx = row[j] > mx ? row[j] : mx;
#else
      mx = 0.0f;
#endif
      float sum = 0.0f;
      for (int64_t j = 0; j < N; ++j)
        sum += expf(row[j] - mx);
      for (int64_t j = 0; j < N; ++j)
        y[i * N + j] = expf(row[j] - mx) / sum;
    }
}
