/* Host-target kernel for tasks/layernorm in the bundle ABI (docs/bundle.md):
 * y = (x - mean) / sqrt(var + 1e-5) * w + b per row, one row per block of an
 * M x 1 grid, two-pass mean and biased variance in fp32.
 * -DNO_EPS drops the epsilon (NaN on a constant row: the structural case). */
#include <math.h>
#include <stdint.h>

void layernorm(void **params, int64_t gx, int64_t gy, int64_t gz) {
  const float *x = *(float **)params[0];
  const float *w = *(float **)params[1];
  const float *b = *(float **)params[2];
  float *y = *(float **)params[3];
  int64_t N = *(int64_t *)params[5];
  (void)gy;
  (void)gz;
  for (int64_t i = 0; i < gx; ++i) {
    const float *row = x + i * N;
    float mean = 0.0f, var = 0.0f;
    for (int64_t j = 0; j < N; ++j)
      mean += row[j];
    mean /= (float)N;
    for (int64_t j = 0; j < N; ++j)
      var += (row[j] - mean) * (row[j] - mean);
    var /= (float)N;
#ifdef NO_EPS
    float rstd = 1.0f / sqrtf(var);
#else
    float rstd = 1.0f / sqrtf(var + 1e-5f);
#endif
    for (int64_t j = 0; j < N; ++j)
      y[i * N + j] = (row[j] - mean) * rstd * w[j] + b[j];
  }
}
