/* Host-target kernel for Inputs/tasks/scale_backward: the gradients of
 * y = x * s (s broadcast over rows) for the seeded grad_out dy:
 * dx = dy * s and ds = sum over rows of dy * x. One block.
 * -DWRONG_DS forgets the x factor of ds. */
#include <stdint.h>

void scale_backward(void **params, int64_t gx, int64_t gy, int64_t gz) {
  const float *x = *(float **)params[0];
  const float *s = *(float **)params[1];
  const float *dy = *(float **)params[2];
  float *dx = *(float **)params[3];
  float *ds = *(float **)params[4];
  int64_t M = *(int64_t *)params[5];
  int64_t N = *(int64_t *)params[6];
  (void)gx;
  (void)gy;
  (void)gz;
  for (int64_t j = 0; j < N; ++j) {
    float acc = 0.0f;
    for (int64_t i = 0; i < M; ++i) {
      dx[i * N + j] = dy[i * N + j] * s[j];
#ifdef WRONG_DS
      acc += dy[i * N + j];
#else
      acc += dy[i * N + j] * x[i * N + j];
#endif
    }
    ds[j] = acc;
  }
}
