/*===- ops.c - The kernels of ops.mlir against C references --------------===*
 *
 * Usage: ops KERNEL_SO KERNEL DIMS...
 *   pad_counts M N          scale_transpose M N ALPHA NEGATE
 *   row_stats M N           int_row_stats M N (N % 8 == 0)
 *   causal_mma_f16 M N K    splitk_atomic M N K S
 *   online_softmax M N      last_tile_max M N
 *   bf16_mma M N K          int_cube M N (N % 8 == 0)
 * Grids follow the tile sizes in ops.mlir.
 *
 *===----------------------------------------------------------------------===*/

#include "harness.h"

static const double EPS = 1.0 / 16777216; /* 2^-24 */

/* "<kernel> A=a B=b ...": the verdict line's subject. */
static char label[160];
static void set_label(int argc, char **argv) {
  int n = snprintf(label, sizeof label, "%s", argv[2]);
  for (int i = 3; i < argc && n < (int)sizeof label; ++i)
    n += snprintf(label + n, sizeof label - n, " %s", argv[i]);
}

static float *floats_in(int64_t count, float lo, float hi) {
  float *data = random_floats(count);
  for (int64_t i = 0; i < count; ++i)
    data[i] = lo + (data[i] + 1) * 0.5f * (hi - lo);
  return data;
}

static int pad_counts(kernel_fn kernel, int64_t M, int64_t N) {
  int64_t P = 4;
  float *x = floats_in(M * N, 1, 2);
  int32_t sentinel = -1;
  int32_t *c = guarded_alloc(M * P * sizeof(int32_t), &sentinel, 4);
  void *params[] = {&x, &c, &M, &N, &P};
  kernel(params, ceil_div(M, 4), 1, 1);
  int64_t padded = ceil_div(N, 8) * 8 - N;
  check_t k = {0, 0};
  for (int64_t i = 0; i < M * P; ++i)
    check(&k, c[i], padded, 1, 0);
  return report(label, &k, 0, guards_intact(c, M * P * 4));
}

static int scale_transpose(kernel_fn kernel, int64_t M, int64_t N,
                           float alpha, int64_t negate) {
  float *x = random_floats(M * N), *y = nan_floats(N * M);
  unsigned char flag = (unsigned char)negate;
  void *params[] = {&x, &alpha, &flag, &y, &M, &N};
  kernel(params, ceil_div(N, 16), ceil_div(M, 8), 1);
  check_t k = {0, 0};
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float want = x[i * N + j] * alpha;
      check(&k, y[j * M + i], negate ? -want : want, 1, 0);
    }
  return report(label, &k, 0, guards_intact(y, M * N * 4));
}

static int row_stats(kernel_fn kernel, int64_t M, int64_t N) {
  int64_t Q = 4;
  float *x = floats_in(M * N, 0.9f, 1.1f), *s = nan_floats(M * Q);
  void *params[] = {&x, &s, &M, &N, &Q};
  kernel(params, ceil_div(M, 4), 1, 1);
  double limit = (N + 2) * EPS;
  check_t k = {0, 0};
  for (int64_t i = 0; i < M; ++i) {
    double sum = 0, max = -INFINITY, min = INFINITY, prod = 1;
    for (int64_t j = 0; j < N; ++j) {
      double v = x[i * N + j];
      sum += v;
      max = fmax(max, v);
      min = fmin(min, v);
      prod *= v;
    }
    check(&k, s[i * Q + 0], sum, sum, limit);
    check(&k, s[i * Q + 1], max, 1, 0);
    check(&k, s[i * Q + 2], min, 1, 0);
    check(&k, s[i * Q + 3], prod, prod, limit);
  }
  return report(label, &k, limit, guards_intact(s, M * Q * 4));
}

static int int_row_stats(kernel_fn kernel, int64_t M, int64_t N) {
  int64_t Q = 4;
  int32_t zero = 0, sentinel = 0x7eadbeef;
  int32_t *x = guarded_alloc(M * N * 4, &zero, 4);
  int32_t *s = guarded_alloc(M * Q * 4, &sentinel, 4);
  for (int64_t i = 0; i < M * N; ++i)
    x[i] = (int32_t)(uniform() * 1000);
  void *params[] = {&x, &s, &M, &N, &Q};
  kernel(params, ceil_div(M, 4), 1, 1);
  check_t k = {0, 0};
  for (int64_t i = 0; i < M; ++i) {
    uint32_t sum = 0, prod = 1;
    int32_t max = INT32_MIN, min = INT32_MAX;
    for (int64_t j = 0; j < N; ++j) {
      int32_t v = x[i * N + j];
      sum += (uint32_t)v;
      prod *= (uint32_t)v;
      max = v > max ? v : max;
      min = v < min ? v : min;
    }
    check(&k, s[i * Q + 0], (int32_t)sum, 1, 0);
    check(&k, s[i * Q + 1], max, 1, 0);
    check(&k, s[i * Q + 2], min, 1, 0);
    check(&k, s[i * Q + 3], (int32_t)prod, 1, 0);
  }
  return report(label, &k, 0, guards_intact(s, M * Q * 4));
}

static int int_cube(kernel_fn kernel, int64_t M, int64_t N) {
  int32_t zero = 0, sentinel = 0x7eadbeef;
  int32_t *x = guarded_alloc(M * N * 4, &zero, 4);
  int32_t *y = guarded_alloc(M * N * 4, &sentinel, 4);
  for (int64_t i = 0; i < M * N; ++i)
    x[i] = (int32_t)(uniform() * 1000);
  void *params[] = {&x, &y, &M, &N};
  kernel(params, ceil_div(M, 4), ceil_div(N, 8), 1);
  check_t k = {0, 0};
  for (int64_t i = 0; i < M * N; ++i)
    check(&k, y[i], x[i] * x[i] * x[i], 1, 0);
  return report(label, &k, 0, guards_intact(y, M * N * 4));
}

static _Float16 *random_halves(int64_t count) {
  _Float16 zero = 0;
  _Float16 *data = guarded_alloc(count * sizeof(_Float16), &zero, 2);
  for (int64_t i = 0; i < count; ++i)
    data[i] = (_Float16)uniform();
  return data;
}

static int causal_mma_f16(kernel_fn kernel, int64_t M, int64_t N, int64_t K) {
  _Float16 *a = random_halves(M * K), *b = random_halves(N * K);
  float *c = nan_floats(M * N);
  void *params[] = {&a, &b, &c, &M, &K, &N};
  kernel(params, ceil_div(M, 16), ceil_div(N, 16), 1);
  double limit = (K + 2) * EPS;
  check_t k = {0, 0};
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double sum = 0, scale = 0;
      for (int64_t l = 0; l < K; ++l) {
        double p = (double)a[i * K + l] * (double)b[j * K + l];
        sum += p;
        scale += fabs(p);
      }
      check(&k, c[i * N + j], j <= i ? sum : 0, scale, limit);
    }
  return report(label, &k, limit, guards_intact(c, M * N * 4));
}

static int splitk_atomic(kernel_fn kernel, int64_t M, int64_t N, int64_t K,
                         int64_t S) {
  float *a = random_floats(K * M), *b = random_floats(K * N);
  float *c = random_floats(M * N), *w = random_floats(1);
  float *c0 = malloc(M * N * sizeof(float));
  memcpy(c0, c, M * N * sizeof(float));
  void *params[] = {&a, &b, &c, &w, &K, &M, &N, &S};
  kernel(params, ceil_div(M, 16), ceil_div(N, 16), S);
  /* Each slice sums its K tiles in fp32 and one more add lands in C. */
  double limit = (K + S + 2) * EPS;
  check_t k = {0, 0};
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double sum = c0[i * N + j], scale = fabs(sum);
      for (int64_t l = 0; l < K; ++l) {
        double p = (double)a[l * M + i] * b[l * N + j];
        sum += p;
        scale += fabs(p);
      }
      check(&k, c[i * N + j], sum, scale, limit);
    }
  return report(label, &k, limit, guards_intact(c, M * N * 4));
}

static int online_softmax(kernel_fn kernel, int64_t M, int64_t N) {
  float *x = random_floats(M * N), *y = nan_floats(M * N);
  for (int64_t i = 0; i < M * N; ++i)
    x[i] *= 8;
  void *params[] = {&x, &y, &M, &N};
  kernel(params, ceil_div(M, 4), 1, 1);
  double limit = 1e-6;
  check_t k = {0, 0};
  for (int64_t i = 0; i < M; ++i) {
    double max = -INFINITY, sum = 0;
    for (int64_t j = 0; j < N; ++j)
      max = fmax(max, x[i * N + j]);
    for (int64_t j = 0; j < N; ++j)
      sum += exp(x[i * N + j] - max);
    for (int64_t j = 0; j < N; ++j)
      check(&k, y[i * N + j], exp(x[i * N + j] - max) / sum, 1, limit);
  }
  return report(label, &k, limit, guards_intact(y, M * N * 4));
}

static int last_tile_max(kernel_fn kernel, int64_t M, int64_t N) {
  int64_t P = 8;
  float *x = random_floats(M * N), *y = nan_floats(M * P);
  void *params[] = {&x, &y, &M, &N, &P};
  kernel(params, ceil_div(M, 4), 1, 1);
  int64_t first = (ceil_div(N, 8) - 1) * 8; /* the last tile's first column */
  check_t k = {0, 0};
  for (int64_t i = 0; i < M; ++i) {
    double max = -INFINITY;
    for (int64_t j = first; j < N; ++j)
      max = fmax(max, x[i * N + j]);
    for (int64_t j = 0; j < P; ++j)
      check(&k, y[i * P + j], max, 1, 0);
  }
  return report(label, &k, 0, guards_intact(y, M * P * 4));
}

/* bf16 as its bit pattern: the upper half of an fp32. */
static float from_bf16(uint16_t h) {
  uint32_t bits = (uint32_t)h << 16;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

/* fp32 to bf16, rounding to nearest even (finite inputs). */
static uint16_t to_bf16(float f) {
  uint32_t bits;
  memcpy(&bits, &f, 4);
  return (uint16_t)((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
}

static int bf16_mma(kernel_fn kernel, int64_t M, int64_t N, int64_t K) {
  uint16_t zero = 0;
  uint16_t *a = guarded_alloc(M * K * 2, &zero, 2);
  uint16_t *b = guarded_alloc(N * K * 2, &zero, 2);
  uint16_t *d = guarded_alloc(M * N * 2, &zero, 2);
  for (int64_t i = 0; i < M * K; ++i)
    a[i] = to_bf16(uniform());
  for (int64_t i = 0; i < N * K; ++i)
    b[i] = to_bf16(uniform());
  float *c = nan_floats(M * N);
  uint16_t s = to_bf16(1.5f + uniform() / 4);
  void *params[] = {&a, &b, &s, &c, &d, &M, &K, &N};
  kernel(params, ceil_div(M, 8), ceil_div(N, 8), 1);
  double limit = (K + 2) * EPS;
  check_t k = {0, 0};
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double sum = 0, scale = 0;
      for (int64_t l = 0; l < K; ++l) {
        double p = (double)from_bf16(a[i * K + l]) * from_bf16(b[j * K + l]);
        sum += p;
        scale += fabs(p);
      }
      check(&k, c[i * N + j], sum, scale, limit);
      /* D from the kernel's own C: two bf16 roundings, compared exactly. */
      float h = from_bf16(to_bf16(c[i * N + j]));
      check(&k, from_bf16(d[i * N + j]), from_bf16(to_bf16(h * from_bf16(s))),
            1, 0);
    }
  return report(label, &k, limit,
                guards_intact(c, M * N * 4) && guards_intact(d, M * N * 2));
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: ops KERNEL_SO KERNEL DIMS...\n");
    return 2;
  }
  const char *name = argv[2];
  kernel_fn kernel = load_kernel(argv[1], name);
  set_label(argc, argv);
#define DIM(i) arg_i64(argc, argv, 3 + (i))
  if (!strcmp(name, "pad_counts"))
    return pad_counts(kernel, DIM(0), DIM(1));
  if (!strcmp(name, "scale_transpose"))
    return scale_transpose(kernel, DIM(0), DIM(1), (float)atof(argv[5]),
                           DIM(3));
  if (!strcmp(name, "row_stats"))
    return row_stats(kernel, DIM(0), DIM(1));
  if (!strcmp(name, "int_row_stats"))
    return int_row_stats(kernel, DIM(0), DIM(1));
  if (!strcmp(name, "int_cube"))
    return int_cube(kernel, DIM(0), DIM(1));
  if (!strcmp(name, "causal_mma_f16"))
    return causal_mma_f16(kernel, DIM(0), DIM(1), DIM(2));
  if (!strcmp(name, "splitk_atomic"))
    return splitk_atomic(kernel, DIM(0), DIM(1), DIM(2), DIM(3));
  if (!strcmp(name, "online_softmax"))
    return online_softmax(kernel, DIM(0), DIM(1));
  if (!strcmp(name, "last_tile_max"))
    return last_tile_max(kernel, DIM(0), DIM(1));
  if (!strcmp(name, "bf16_mma"))
    return bf16_mma(kernel, DIM(0), DIM(1), DIM(2));
  fprintf(stderr, "unknown kernel %s\n", name);
  return 2;
}
