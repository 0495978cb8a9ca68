/*===- harness.h - Run a host kernel.so against a C reference ------------===*
 *
 * Shared by the end-to-end tests of the host target: each test builds a
 * kernel.so, compiles a small C program that includes this header and runs
 * it on ragged shapes. The program loads the kernel the way the runner does
 * (dlopen + dlsym by symbol, arguments as a void* array, docs/bundle.md),
 * computes a straightforward reference in double precision, and prints one
 * line "<what>: max error E (limit L) PASS|FAIL". Output buffers are filled
 * with NaN and surrounded by guard zones, so an element the kernel fails to
 * write, or one it writes outside the tensor, is an error too.
 *
 *===----------------------------------------------------------------------===*/

#ifndef KBENCH_TEST_TARGET_HOST_HARNESS_H
#define KBENCH_TEST_TARGET_HOST_HARNESS_H

#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*kernel_fn)(void **params, int64_t grid_x, int64_t grid_y,
                          int64_t grid_z);

/* The entry point `symbol` of the kernel.so at `path`. */
static kernel_fn load_kernel(const char *path, const char *symbol) {
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
    exit(2);
  }
  kernel_fn fn = (kernel_fn)dlsym(handle, symbol);
  if (!fn) {
    fprintf(stderr, "dlsym %s: %s\n", symbol, dlerror());
    exit(2);
  }
  return fn;
}

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

static int64_t arg_i64(int argc, char **argv, int index) {
  if (index >= argc) {
    fprintf(stderr, "missing argument %d\n", index);
    exit(2);
  }
  return atoll(argv[index]);
}

/* Deterministic uniform numbers in [-1, 1). */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static float uniform(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (float)((rng_state >> 40) * (2.0 / 16777216.0) - 1.0);
}

/* Guard zones around every buffer: GUARD bytes before and after. */
enum { GUARD = 4096 };
static const unsigned char GUARD_BYTE = 0xA5;

/* A buffer of `bytes` bytes between two guard zones, filled with `fill`
   (element size `elem`); returns the start of the payload. */
static void *guarded_alloc(size_t bytes, const void *fill, size_t elem) {
  unsigned char *base = (unsigned char *)malloc(bytes + 2 * GUARD);
  memset(base, GUARD_BYTE, GUARD);
  memset(base + GUARD + bytes, GUARD_BYTE, GUARD);
  for (size_t i = 0; i + elem <= bytes; i += elem)
    memcpy(base + GUARD + i, fill, elem);
  return base + GUARD;
}

/* Whether the guards of a buffer from guarded_alloc are intact. */
static int guards_intact(const void *payload, size_t bytes) {
  const unsigned char *base = (const unsigned char *)payload - GUARD;
  for (size_t i = 0; i < GUARD; ++i)
    if (base[i] != GUARD_BYTE || base[GUARD + bytes + i] != GUARD_BYTE)
      return 0;
  return 1;
}

static float *random_floats(int64_t count) {
  float zero = 0.0f;
  float *data = (float *)guarded_alloc((size_t)count * sizeof(float), &zero,
                                       sizeof(float));
  for (int64_t i = 0; i < count; ++i)
    data[i] = uniform();
  return data;
}

static float *nan_floats(int64_t count) {
  float nan = NAN;
  return (float *)guarded_alloc((size_t)count * sizeof(float), &nan,
                                sizeof(float));
}

/* Tracks the worst error of a comparison. */
typedef struct {
  double max_error; /* largest |got - want| / scale */
  int64_t bad;      /* elements over the limit, NaN where a number is due */
} check_t;

/* Compares one element: |got - want| <= limit * scale, where `scale` is the
   magnitude the reference was accumulated from (1 for exact results). */
static void check(check_t *c, double got, double want, double scale,
                  double limit) {
  double error = fabs(got - want) / (scale > 0 ? scale : 1);
  if (isnan(want) ? !isnan(got) : !(error <= limit))
    ++c->bad;
  if (!isnan(error) && error > c->max_error)
    c->max_error = error;
  if (isnan(error) && !isnan(want))
    c->max_error = INFINITY;
}

/* Prints the verdict line and returns the exit status. */
static int report(const char *what, const check_t *c, double limit,
                  int guards_ok) {
  int pass = c->bad == 0 && guards_ok;
  printf("%s: max error %.3g (limit %.3g)%s %s\n", what, c->max_error, limit,
         guards_ok ? "" : ", guard zone overwritten", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}

#endif /* KBENCH_TEST_TARGET_HOST_HARNESS_H */
