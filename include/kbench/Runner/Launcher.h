//===- Launcher.h - Load a bundle's kernels and run its launch sequence -*- C++ -*-===//
//
// The kernel ABI of docs/bundle.md, on both targets: `params[i]` points at the
// value of argument i (a 64-bit buffer address, an int64 dim, or a scalar).
//  - host:   dlopen(kernel.so), call `void sym(void **params, int64_t gx,
//            int64_t gy, int64_t gz)`;
//  - sm_90a: cuModuleLoadData(kernel.cubin, falling back to kernel.ptx),
//            cuLaunchKernel on the legacy default stream (stream 0), the stream
//            LibTorch's eager ops use, so one pair of events brackets either.
// No LibTorch here: the worker passes raw addresses.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_LAUNCHER_H
#define KBENCH_RUNNER_LAUNCHER_H

#include "kbench/Runner/Manifest.h"

#include <memory>

namespace kbench::runner {

/// The launch sequence bound to concrete buffers; run() enqueues (GPU) or
/// executes (host) every launch in order. Parameter storage is owned here, so
/// it is move-only.
class LaunchSequence {
public:
  struct Entry {
    std::string kernel;
    void *function = nullptr; ///< host: the C entry; GPU: the CUfunction
    std::array<int64_t, 3> grid = {1, 1, 1};
    std::array<int64_t, 3> block = {1, 1, 1};
    int64_t sharedMemory = 0;
    std::vector<uint64_t> storage; ///< one 8-byte slot per argument
    std::vector<void *> params;    ///< params[i] = &storage[i]
  };

  LaunchSequence() = default;
  LaunchSequence(LaunchSequence &&) = default;
  LaunchSequence &operator=(LaunchSequence &&) = default;
  LaunchSequence(const LaunchSequence &) = delete;
  LaunchSequence &operator=(const LaunchSequence &) = delete;

  /// Host: runs the kernels. GPU: enqueues them on stream 0 (no sync);
  /// throws CudaError when a launch is refused.
  void run() const;

  bool onGpu = false;
  std::vector<Entry> entries;
};

/// A loaded bundle binary.
class KernelModule {
public:
  virtual ~KernelModule() = default;

  /// Loads kernel.so (host) or kernel.cubin / kernel.ptx (sm_90a; needs a
  /// current CUDA context). Throws InputError (missing symbol, bad file) or
  /// CudaError.
  static std::unique_ptr<KernelModule> load(const Manifest &manifest);

  /// "kernel.so", "kernel.cubin" or "kernel.ptx (cubin refused: ...)".
  virtual std::string loadedFrom() const = 0;

  /// Binds `launches` to buffer addresses (`pointers`, by buffer name) and
  /// rank-0 scalar values (`scalars`, raw bytes).
  LaunchSequence bind(const std::vector<ResolvedLaunch> &launches,
                      const std::map<std::string, void *> &pointers,
                      const std::map<std::string, uint64_t> &scalars) const;

  /// Per kernel: registers, local memory, max threads (GPU only; else null).
  virtual nlohmann::json attributes() const { return nullptr; }

protected:
  virtual void *function(size_t kernel) const = 0;
  virtual bool onGpu() const = 0;
  const Manifest *manifest = nullptr;
};

} // namespace kbench::runner

#endif // KBENCH_RUNNER_LAUNCHER_H
