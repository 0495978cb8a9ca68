//===- GPUBackend.h - Tile kernels to PTX and cubin ---------------*- C++ -*-===//
//
// The sm_90a side of `kbench compile`: a scheduled tile module in, PTX of
// every kernel out (tile-to-gpu plus the device-only NVVM pipeline), then
// ptxas for the cubin and the per-kernel resources that go into the bundle
// manifest (docs/bundle.md).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_TARGET_GPU_GPUBACKEND_H
#define KBENCH_TARGET_GPU_GPUBACKEND_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LLVM.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace kbench {

/// Knobs of the device-only NVVM pipeline.
struct GpuCompileOptions {
  std::string chip = "sm_90a";
  std::string features = "+ptx80";
  unsigned optLevel = 3;
  /// 32-bit pointers for shared, local and const memory (`--nvptx-short-ptr`):
  /// shared-memory addressing then needs half the registers.
  bool shortPointers = true;
  /// CUDA toolkit root whose nvvm/libdevice is linked for math functions
  /// (`__nv_expf`, ...). Empty: findCudaToolkit().
  std::string cudaPath;
};

/// The CUDA toolkit root: $CUDA_HOME, $CUDA_PATH, then /usr/local/cuda, if
/// it holds nvvm/libdevice/libdevice.10.bc.
std::optional<std::string> findCudaToolkit();

/// A trailing tensor-map param of a kernel with TMA K loops: a CUtensorMap
/// over the buffer passed for memref param `memrefParam` (or a view of it),
/// with box `box` (outermost axis first) and a swizzle of `swizzleBytes`.
struct GpuTensorMapParam {
  std::string memrefParam;
  std::vector<int64_t> box;
  int64_t swizzleBytes = 0;
  /// A map over a strided view of the buffer: the view's extents and
  /// element strides (outermost axis first) as shape expressions over the
  /// task's dims; empty for a map over the dense buffer.
  std::vector<std::string> viewShape, viewStrides;
};

/// Launch facts of one lowered kernel.
struct GpuKernelInfo {
  std::string symbol;
  std::array<int64_t, 3> block = {1, 1, 1};
  /// Bytes to pass as cuLaunchKernel's sharedMemBytes (above 48 KB the runner
  /// must also raise CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES).
  int64_t dynamicSharedMemory = 0;
  /// Params after the ABI's (getKernelABI), in order.
  std::vector<GpuTensorMapParam> tensorMaps;
  /// The kernel runs persistent CTAs (tile.persistent): its launch is sized
  /// by the SMs, not by the tiles (the driver rewrites its grid).
  bool persistent = false;
};

struct GpuCompileResult {
  /// PTX of every kernel (one module; kernels are translated one LLVM module
  /// each, on as many threads as the context has, and merged).
  std::string ptx;
  std::vector<GpuKernelInfo> kernels;
  /// Wall time of tile-to-gpu and of the NVVM pipeline to PTX.
  double loweringSeconds = 0;
  double ptxSeconds = 0;
};

/// Lowers every tile.kernel of `module` (left unchanged; host functions and
/// transform scripts in it are ignored) to PTX. Failures are reported as
/// diagnostics on the offending op through the module's context.
mlir::FailureOr<GpuCompileResult>
compileToPtx(mlir::ModuleOp module, const GpuCompileOptions &options = {});

/// Adds the device-only pipeline from tile-to-gpu output to a module whose
/// gpu.modules hold PTX (`gpu.binary` with format isa).
void buildGPUToPtxPipeline(mlir::OpPassManager &pm,
                           const GpuCompileOptions &options);

/// The same pipeline up to LLVM-dialect gpu.modules with their NVVM target
/// attached, ready to translate (compileToPtx translates them side by
/// side).
void buildGPUToNVVMPipeline(mlir::OpPassManager &pm,
                            const GpuCompileOptions &options);

/// Turns `--nvptx-short-ptr` on or off for this process (an LLVM option: the
/// NVPTX data layout reads it when a target machine is created).
void setNVPTXShortPointers(bool enable);

/// The PTX text of every `gpu.binary` object with format `assembly`, in
/// module order.
mlir::FailureOr<std::string> extractPtx(mlir::ModuleOp module);

/// One kernel's resources as `ptxas -v` reports them.
struct PtxasKernelReport {
  std::string symbol;
  int64_t registers = 0;
  int64_t spillStores = 0; // bytes
  int64_t spillLoads = 0;  // bytes
  int64_t stackFrame = 0;  // bytes
  int64_t sharedMemory = 0; // bytes of static shared memory
  int64_t barriers = 0;
  /// Full wgmma waits ptxas added on its own (info C7517: it could not
  /// prove a wgmma group finished before its registers are read). Each one
  /// ends the overlap of that group with what follows; 0 in a kernel whose
  /// K loop leaves groups in flight.
  int64_t injectedWgmmaWaits = 0;
};

struct PtxasReport {
  std::vector<PtxasKernelReport> kernels;
  /// ptxas's own output (info lines and warnings).
  std::string log;
  double seconds = 0;
};

struct PtxasOptions {
  std::string arch = "sm_90a";
  unsigned optLevel = 3;
  /// Empty: $KBENCH_PTXAS, then /usr/local/cuda/bin/ptxas, then PATH.
  std::string ptxasPath;
};

/// Where ptxas is, if anywhere (see PtxasOptions::ptxasPath).
std::optional<std::string> findPtxas(llvm::StringRef explicitPath = {});

/// Parses the `-v` output of ptxas. Fails (with `error`) when it reports no
/// entry function, a function's figures cannot be read, or ptxas warns
/// that it serialized wgmma instructions.
mlir::FailureOr<PtxasReport> parsePtxasLog(llvm::StringRef log,
                                           std::string &error);

/// The number of entry functions (kernels) of `ptx`.
unsigned countPtxEntries(llvm::StringRef ptx);

/// Whether the ptxas at `ptxas` takes `--split-compile` (it lists it in its
/// `--help`; CUDA 12 and later). Asked once per path and remembered.
bool ptxasHasSplitCompile(llvm::StringRef ptxas);

/// Assembles `ptx` into `cubinPath` with `ptxas -arch=<arch> -O<n> -v` and
/// parses the report. PTX with several kernels (a dispatch bundle's
/// variants) is assembled one kernel per thread (`--split-compile N`, N the
/// kernels, at most the hardware threads) where ptxas has the flag: the
/// machine code is the same, the wall time that of the largest kernel. On
/// failure `error` holds ptxas's diagnostics or why it could not run.
mlir::FailureOr<PtxasReport> runPtxas(llvm::StringRef ptx,
                                      llvm::StringRef cubinPath,
                                      const PtxasOptions &options,
                                      std::string &error);

} // namespace kbench

#endif // KBENCH_TARGET_GPU_GPUBACKEND_H
