/* Host-target kernel for tasks/gelu_bias in the bundle ABI (docs/bundle.md):
 * y = gelu_tanh(x * s + b), one BM x BN tile per block of a
 * ceildiv(M, BM) x ceildiv(N, BN) grid. Each -D flag turns it into one of the
 * deliberately wrong kernels the runner must reject:
 *   ZEROS          writes 0 instead of the result
 *   SKIP_LAST_TILE never runs the last block of the grid
 *   WRITE_INPUT    also stores the result into the input x
 *   TUNE_ONLY      assumes N == 64 (the tune shape of Inputs/tasks/tune_only)
 *   LAST_COL       leaves the last column unwritten (a j < N - 1 bound)
 *   STATEFUL       right on the first call, zeros afterwards (caching)
 *   CACHED_OUTPUT  reads y[0] first and skips all its work when y[0]
 *                  already holds the answer (the cached-output cheat: under
 *                  repeated timing the output keeps the last run's result)
 *   HALF_PRECISION rounds x * s + b to 11 significant bits (f16's), which
 *                  stays within atol = rtol = 1e-3 but not the accuracy rule
 *   CRASH_AT_M     dereferences NULL when M == CRASH_AT_M
 *   HANG_AT_M      loops forever when M == HANG_AT_M */
#include <math.h>
#include <stdint.h>
#include <stddef.h>

#define BM 4
#define BN 32

#ifdef HALF_PRECISION
/* Rounds to nearest with f16's 11-bit significand (f16's range is ignored). */
static float round_to_half_precision(float v) {
  int e;
  float m = frexpf(v, &e);
  return ldexpf(rintf(ldexpf(m, 11)), e - 11);
}
#endif

static float gelu_tanh(float v) {
  return 0.5f * v * (1.0f + tanhf(0.7978845608028654f * (v + 0.044715f * v * v * v)));
}

void gelu_bias(void **params, int64_t gx, int64_t gy, int64_t gz) {
  float *x = *(float **)params[0];
  const float *s = *(float **)params[1];
  const float *b = *(float **)params[2];
  float *y = *(float **)params[3];
  int64_t M = *(int64_t *)params[4];
  int64_t N = *(int64_t *)params[5];
  (void)gz;
#ifdef CRASH_AT_M
  if (M == CRASH_AT_M)
    *(volatile int *)NULL = 1;
#endif
#ifdef HANG_AT_M
  if (M == HANG_AT_M)
    for (;;)
      __asm__ volatile("");
#endif
#ifdef CACHED_OUTPUT
  if (M > 0 && N > 0 && y[0] == gelu_tanh(x[0] * s[0] + b[0]))
    return;
#endif
#ifdef STATEFUL
  static int calls = 0;
  int stale = calls++ > 0;
#endif
  for (int64_t bx = 0; bx < gx; ++bx)
    for (int64_t by = 0; by < gy; ++by) {
#ifdef SKIP_LAST_TILE
      if (bx == gx - 1 && by == gy - 1)
        continue;
#endif
      for (int64_t i = bx * BM; i < bx * BM + BM && i < M; ++i)
        for (int64_t j = by * BN; j < by * BN + BN && j < N; ++j) {
#ifdef LAST_COL
          if (j == N - 1)
            continue;
#endif
#ifdef TUNE_ONLY
          int64_t idx = i * 64 + j; /* the row stride of the tune shape */
          if (idx >= M * N)
            continue;
#else
          int64_t idx = i * N + j;
#endif
#ifdef HALF_PRECISION
          float v = gelu_tanh(round_to_half_precision(x[idx] * s[j] + b[j]));
#else
          float v = gelu_tanh(x[idx] * s[j] + b[j]);
#endif
#ifdef ZEROS
          v = 0.0f;
#endif
#ifdef STATEFUL
          if (stale)
            v = 0.0f;
#endif
          y[idx] = v;
#ifdef WRITE_INPUT
          x[idx] = v;
#endif
        }
    }
}
