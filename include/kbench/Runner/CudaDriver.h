//===- CudaDriver.h - The CUDA driver API, loaded at run time ----*- C++ -*-===//
//
// kbench-run launches kernels through the driver API (cuModuleLoadData,
// cuLaunchKernel) and times them with driver events. It loads libcuda.so.1 with
// dlopen instead of linking it: the toolkit's link stub carries the soname
// libcuda.so.1, which does not exist on a machine without an NVIDIA driver, so a
// linked binary would not even start there, and the runner must start there to
// run host bundles and to say clearly why GPU bundles cannot run.
//
// cuda.h supplies the types and prototypes; KBENCH_HAVE_CUDA is 0 when the
// toolkit header was absent at configure time (host-only runner).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_CUDADRIVER_H
#define KBENCH_RUNNER_CUDADRIVER_H

#include <stdexcept>
#include <string>

#if KBENCH_HAVE_CUDA
#include <cuda.h>
#endif

namespace kbench::runner {

/// A failed driver call: the message names the call, the error name and text.
class CudaError : public std::runtime_error {
public:
  CudaError(const std::string &message, int code, bool sticky)
      : std::runtime_error(message), code(code), sticky(sticky) {}
  /// The CUresult.
  int code;
  /// The context is unusable afterwards (illegal address, launch failure...).
  bool sticky;
};

#if KBENCH_HAVE_CUDA

/// Function pointers into libcuda.so.1. Member names are the cuda.h names,
/// so the _v2 macros of cuda.h apply to them as they do to calls.
struct CudaDriver {
#define KBENCH_CUDA_FUNCTIONS(X)                                                           \
  X(cuInit) X(cuDriverGetVersion) X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetName)     \
  X(cuDeviceGetPCIBusId)                                                                   \
  X(cuDeviceGetAttribute) X(cuDeviceTotalMem) X(cuDevicePrimaryCtxRetain)                  \
  X(cuCtxSetCurrent) X(cuCtxSynchronize) X(cuCtxSetLimit) X(cuCtxResetPersistingL2Cache)   \
  X(cuModuleLoadDataEx) X(cuModuleGetFunction) X(cuModuleUnload) X(cuFuncSetAttribute)     \
  X(cuFuncGetAttribute) X(cuLaunchKernel) X(cuEventCreate) X(cuEventRecord)                \
  X(cuEventSynchronize) X(cuEventElapsedTime) X(cuEventDestroy) X(cuMemsetD32Async)        \
  X(cuMemcpyDtoDAsync) X(cuGetErrorName) X(cuGetErrorString)
#define KBENCH_DECLARE(fn) decltype(&::fn) fn = nullptr;
  KBENCH_CUDA_FUNCTIONS(KBENCH_DECLARE)
#undef KBENCH_DECLARE

  /// The process-wide driver, loaded on first use. Returns nullptr and sets
  /// `error` (why, and what to do) when libcuda.so.1 is missing, a symbol is
  /// missing, or cuInit fails (no device, driver/kernel-module mismatch).
  static CudaDriver *get(std::string &error);

  /// Throws CudaError "<what>: CUDA_ERROR_X (text)" unless `result` is success.
  void check(CUresult result, const std::string &what) const;
};

#endif // KBENCH_HAVE_CUDA

/// True when this runner was built with the driver API header.
constexpr bool haveCudaSupport() { return KBENCH_HAVE_CUDA != 0; }

} // namespace kbench::runner

#endif // KBENCH_RUNNER_CUDADRIVER_H
