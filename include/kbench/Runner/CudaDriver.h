//===- CudaDriver.h - The CUDA driver API, loaded at run time ----*- C++ -*-===//
//
// kbench-run launches kernels through the driver API (cuModuleLoadData,
// cuLaunchKernel) and times them with driver events. It loads libcuda.so.1 with
// dlopen instead of linking it: the toolkit's link stub carries the soname
// libcuda.so.1, which does not exist on a machine without an NVIDIA driver, so a
// linked binary would not even start there, and the runner must start there to
// run host bundles and to say clearly why GPU bundles cannot run.
//
// This header does not include cuda.h: cuda.h defines CUDA_VERSION, which
// changes what LibTorch's headers include, so only CudaDriver.cpp (no LibTorch)
// sees it. Handles are opaque pointers; every call runs on the legacy default
// stream (stream 0), the stream LibTorch's eager ops use, and throws
// CudaError on failure. KBENCH_HAVE_CUDA is 0 when cuda.h was absent at
// configure time: then get() always fails (host-only runner).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_CUDADRIVER_H
#define KBENCH_RUNNER_CUDADRIVER_H

#include "kbench/Support/DType.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

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

/// What cuTensorMapEncodeTiled is told about the global tensor and the box,
/// in the driver's order: innermost axis first.
struct TensorMapGeometry {
  std::vector<uint64_t> globalDim;     ///< the view's extents
  std::vector<uint64_t> globalStrides; ///< bytes, every axis but the innermost
  std::vector<uint32_t> boxDim;        ///< the box
};

class CudaDriver {
public:
  using Module = void *;   ///< CUmodule
  using Function = void *; ///< CUfunction
  using Event = void *;    ///< CUevent

  /// The process-wide driver: loads libcuda.so.1 and calls cuInit on first
  /// use. Returns nullptr and sets `error` (why, and what to do instead) when
  /// the runner has no CUDA support, the library or a symbol is missing, or
  /// cuInit fails. Call it only in the worker process, never before a fork.
  static CudaDriver *get(std::string &error);

  int deviceCount();
  /// Retains `device`'s primary context (the one the CUDA runtime, and so
  /// LibTorch, uses) and makes it current on this thread.
  void usePrimaryContext(int device);
  /// Sets the persisting-L2 limit to 0 and resets persisting lines, so no
  /// access-policy window survives an L2 flush. False when unsupported.
  bool disablePersistingL2();
  void synchronize(const std::string &what);

  /// Loads a cubin or a NUL-terminated PTX image; nullptr on failure with
  /// `error` set to the error name and the JIT log.
  Module loadModule(const std::string &image, std::string &error);
  void unloadModule(Module module);
  /// nullptr (and `error`) when the module has no such entry.
  Function getFunction(Module module, const std::string &symbol, std::string &error);
  void setMaxDynamicSharedMemory(Function function, int bytes, const std::string &kernel);
  /// Registers, local bytes, static shared bytes, max threads per block.
  nlohmann::json functionAttributes(Function function);
  int maxThreadsPerBlock(Function function);
  void launch(Function function, const std::array<int64_t, 3> &grid,
              const std::array<int64_t, 3> &block, int64_t sharedMemory, void **params,
              const std::string &kernel);

  Event createEvent();
  void destroyEvent(Event event);
  void record(Event event);
  /// Milliseconds between two completed events.
  float elapsedMs(Event start, Event end);

  /// Encodes into `map128` (128 bytes, 64-byte aligned) the CUtensorMap of
  /// `geometry` at `address`, with no interleave, element strides of 1,
  /// 256-byte L2 promotion, zeros for out-of-bounds elements and the given
  /// swizzle span (0, 32, 64 or 128 bytes). False (and the driver's error in
  /// `error`) when the driver refuses.
  bool encodeTiledTensorMap(void *map128, DType dtype, void *address,
                            const TensorMapGeometry &geometry, int swizzleBytes,
                            std::string &error);

  void memsetD32(void *pointer, unsigned value, size_t words);
  void copyDeviceToDevice(void *dst, const void *src, size_t bytes);

  int64_t l2Bytes(int device);
  /// GPU name, compute capability, SMs, L2, clocks, memory, driver version,
  /// PCI bus id; NVML temperature, clocks and power when libnvidia-ml exists.
  nlohmann::json describe(int device);

private:
  CudaDriver() = default;
  struct Api;
  Api *api = nullptr;
};

/// True when this runner was built with the driver API header.
bool haveCudaSupport();

/// The geometry of a strided view given outermost axis first, the
/// manifest's order (docs/bundle.md, "The kernel ABI"): globalDim is `shape`
/// reversed, globalStrides the element `strides` of every axis but the
/// innermost, reversed, times the element size, boxDim `box` reversed. A
/// dense row-major buffer is the view with its extents and row-major
/// strides: bf16 [4, 64, 128], strides [8192, 128, 1] -> globalStrides
/// {256, 16384}.
TensorMapGeometry tensorMapGeometry(DType dtype, const std::vector<int64_t> &shapeOuterFirst,
                                    const std::vector<int64_t> &stridesOuterFirst,
                                    const std::vector<int64_t> &boxOuterFirst);

} // namespace kbench::runner

#endif // KBENCH_RUNNER_CUDADRIVER_H
