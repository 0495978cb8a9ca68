//===- CudaDriver.cpp - Load libcuda.so.1 and resolve the driver API ------===//
//
// dlopen + dlsym of the few driver entry points the runner uses. Each is looked
// up under the versioned name cuda.h maps it to (cuEventElapsedTime_v2) and,
// for drivers older than the header, under its plain name.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/CudaDriver.h"

#if KBENCH_HAVE_CUDA

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace kbench::runner {

#define KBENCH_STR2(x) #x
#define KBENCH_STR(x) KBENCH_STR2(x)

CudaDriver *CudaDriver::get(std::string &error) {
  static CudaDriver driver;
  static std::string loadError;
  static std::once_flag once;
  std::call_once(once, [] {
    // Lets CI pin the "no GPU" path on machines that have a driver.
    if (const char *off = std::getenv("KBENCH_RUN_NO_CUDA"); off && *off && *off != '0') {
      loadError = "no CUDA driver (KBENCH_RUN_NO_CUDA is set): sm_90a bundles need an NVIDIA "
                  "GPU; run host bundles with --target host, or evaluate on a GPU machine "
                  "(scripts/gpu-eval.sh)";
      return;
    }
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!lib) {
      const char *why = dlerror();
      loadError = std::string("no CUDA driver on this machine (") + (why ? why : "") +
                  "): sm_90a bundles need an NVIDIA GPU; run host bundles with "
                  "--target host, or evaluate on a GPU machine (scripts/gpu-eval.sh)";
      return;
    }
    bool ok = true;
#define KBENCH_LOAD(fn)                                                                    \
  if (ok) {                                                                                \
    void *p = dlsym(lib, KBENCH_STR(fn));                                                  \
    if (!p)                                                                                \
      p = dlsym(lib, #fn);                                                                 \
    if (!p) {                                                                              \
      loadError = std::string("libcuda.so.1 lacks ") + KBENCH_STR(fn) +                    \
                  "; the NVIDIA driver is too old for this runner";                        \
      ok = false;                                                                          \
    } else {                                                                               \
      driver.fn = reinterpret_cast<decltype(driver.fn)>(p);                                \
    }                                                                                      \
  }
    KBENCH_CUDA_FUNCTIONS(KBENCH_LOAD)
#undef KBENCH_LOAD
    if (!ok)
      return;
    CUresult r = driver.cuInit(0);
    if (r != CUDA_SUCCESS) {
      const char *name = nullptr;
      driver.cuGetErrorName(r, &name);
      loadError = std::string("cuInit failed: ") + (name ? name : "unknown error") +
                  " (no usable NVIDIA GPU: check nvidia-smi)";
      return;
    }
    int count = 0;
    if (driver.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0)
      loadError = "the CUDA driver reports no GPU";
  });
  if (!loadError.empty()) {
    error = loadError;
    return nullptr;
  }
  return &driver;
}

void CudaDriver::check(CUresult result, const std::string &what) const {
  if (result == CUDA_SUCCESS)
    return;
  const char *name = nullptr;
  const char *text = nullptr;
  if (cuGetErrorName)
    cuGetErrorName(result, &name);
  if (cuGetErrorString)
    cuGetErrorString(result, &text);
  // Errors after which the context cannot be used again.
  bool sticky = result == CUDA_ERROR_ILLEGAL_ADDRESS || result == CUDA_ERROR_LAUNCH_FAILED ||
                result == CUDA_ERROR_MISALIGNED_ADDRESS || result == CUDA_ERROR_ILLEGAL_INSTRUCTION ||
                result == CUDA_ERROR_HARDWARE_STACK_ERROR || result == CUDA_ERROR_INVALID_PC ||
                result == CUDA_ERROR_INVALID_ADDRESS_SPACE || result == CUDA_ERROR_ASSERT ||
                result == CUDA_ERROR_LAUNCH_TIMEOUT;
  throw CudaError(what + ": " + (name ? name : "CUDA error " + std::to_string(result)) + " (" +
                      (text ? text : "no description") + ")",
                  static_cast<int>(result), sticky);
}

} // namespace kbench::runner

#endif // KBENCH_HAVE_CUDA
