/* Host-target kernels for the one-op test tasks, one block each:
 *   tiny_scale     y = x * 1e-5       (Inputs/tasks/tiny_scale: unrefereeable)
 *   offset_cancel  y = (x + 1e5) - 1e5 in fp32 (Inputs/tasks/offset_cancel:
 *                  the fp32 reference leaves the fp64 one for large inputs) */
#include <stdint.h>

void tiny_scale(void **params, int64_t gx, int64_t gy, int64_t gz) {
  const float *x = *(float **)params[0];
  float *y = *(float **)params[1];
  int64_t n = *(int64_t *)params[2] * *(int64_t *)params[3];
  (void)gx, (void)gy, (void)gz;
  for (int64_t i = 0; i < n; ++i)
    y[i] = x[i] * 1e-5f;
}

void offset_cancel(void **params, int64_t gx, int64_t gy, int64_t gz) {
  const float *x = *(float **)params[0];
  float *y = *(float **)params[1];
  int64_t n = *(int64_t *)params[2] * *(int64_t *)params[3];
  (void)gx, (void)gy, (void)gz;
  for (int64_t i = 0; i < n; ++i) {
    volatile float t = x[i] + 100000.0f;
    y[i] = t - 100000.0f;
  }
}
