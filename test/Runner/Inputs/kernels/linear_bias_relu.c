/* Host-target kernel for tasks/linear_bias_relu in the bundle ABI
 * (docs/bundle.md): y = relu(x @ w^T + b), one 16 x 16 tile of y per block of
 * a ceildiv(M, 16) x ceildiv(N, 16) grid, fp32 accumulation. */
#include <stdint.h>

#define BM 16
#define BN 16

void linear_bias_relu(void **params, int64_t gx, int64_t gy, int64_t gz) {
  const float *x = *(float **)params[0];
  const float *w = *(float **)params[1];
  const float *b = *(float **)params[2];
  float *y = *(float **)params[3];
  int64_t M = *(int64_t *)params[4];
  int64_t K = *(int64_t *)params[5];
  int64_t N = *(int64_t *)params[6];
  (void)gz;
  for (int64_t bx = 0; bx < gx; ++bx)
    for (int64_t by = 0; by < gy; ++by)
      for (int64_t i = bx * BM; i < bx * BM + BM && i < M; ++i)
        for (int64_t j = by * BN; j < by * BN + BN && j < N; ++j) {
          float acc = 0.0f;
          for (int64_t k = 0; k < K; ++k)
            acc += x[i * K + k] * w[j * K + k];
          acc += b[j];
          y[i * N + j] = acc > 0.0f ? acc : 0.0f;
        }
}
