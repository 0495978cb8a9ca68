//===- Launcher.h - Load a bundle's kernels and run its launch sequence -*- C++ -*-===//
//
// The kernel ABI of docs/bundle.md, on both targets: `params[i]` points at the
// value of argument i (a 64-bit buffer address, an int64 dim, a scalar, or on
// sm_90a a 128-byte CUtensorMap the runner encodes over a buffer).
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

#include "kbench/Runner/CudaDriver.h"
#include "kbench/Runner/Manifest.h"

#include <memory>

namespace kbench::runner {

/// The launch sequence bound to concrete buffers; run() enqueues (GPU) or
/// executes (host) every launch in order. Parameter storage is owned here, so
/// it is move-only.
class LaunchSequence {
public:
  /// The value of one argument. Sized for the largest, a CUtensorMap, which
  /// the driver encodes only at a 64-byte-aligned address; a pointer, dim or
  /// scalar takes the first 8 bytes.
  struct alignas(64) ParamSlot {
    unsigned char bytes[128] = {};
  };
  struct Entry {
    std::string kernel;
    void *function = nullptr; ///< host: the C entry; GPU: the CUfunction
    std::array<int64_t, 3> grid = {1, 1, 1};
    std::array<int64_t, 3> block = {1, 1, 1};
    int64_t sharedMemory = 0;
    std::vector<ParamSlot> storage; ///< one slot per argument
    std::vector<void *> params;     ///< params[i] = storage[i].bytes
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
  /// rank-0 scalar values (`scalars`, raw bytes), and encodes the tensor
  /// map of every tma_descriptor argument over its buffer's view (128 zero
  /// bytes where the view has an extent <= 0 or tensorMapCanAddress says
  /// TMA cannot address it). Throws InputError naming the kernel, param and
  /// buffer when a view reaches outside its buffer or the driver refuses a
  /// tensor map.
  LaunchSequence bind(const std::vector<ResolvedLaunch> &launches,
                      const std::map<std::string, void *> &pointers,
                      const std::map<std::string, uint64_t> &scalars) const;

  /// Per kernel: registers, local memory, max threads (GPU only; else null).
  virtual nlohmann::json attributes() const { return nullptr; }

protected:
  virtual void *function(size_t kernel) const = 0;
  virtual bool onGpu() const = 0;
  /// Encodes the CUtensorMap of `map`, whose driver-order `geometry` bind()
  /// has computed and checked, over `address` into `map128` (128 bytes,
  /// 64-byte aligned); false with the driver's message in `error` when it
  /// refuses. Only GPU modules encode: the manifest check refuses tensor
  /// maps in host bundles, so the default is an internal error.
  virtual bool encodeTensorMap(const ResolvedLaunch::TensorMapSpec &map,
                               const TensorMapGeometry &geometry, void *address, void *map128,
                               std::string &error) const;
  const Manifest *manifest = nullptr;

private:
  /// The value of argument `index` of `kernel` in `slot`.
  void bindArg(const KernelSpec &kernel, size_t index, const ResolvedLaunch::Arg &arg,
               const std::map<std::string, void *> &pointers,
               const std::map<std::string, uint64_t> &scalars,
               LaunchSequence::ParamSlot &slot) const;
};

/// TMA's run-time rule (docs/bundle.md, "The kernel ABI"): a tensor map
/// needs a 16-byte-aligned global address and global byte strides that are
/// multiples of 16. A view that breaks it (a bf16 [M, 777] matrix) gets
/// 128 zero bytes instead of a tensor map; the kernel checks the same
/// condition and then copies without TMA.
bool tensorMapCanAddress(const void *address, const TensorMapGeometry &geometry);

} // namespace kbench::runner

#endif // KBENCH_RUNNER_LAUNCHER_H
