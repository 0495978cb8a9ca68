//===- Stages.cpp - The compile stages behind CompilePipeline -------------===//
//
// Adapters from the pipeline to the libraries that do the work. Each stage
// reports through the module's diagnostic engine, which the CLI collects.
//
//===----------------------------------------------------------------------===//

#include "Stages.h"

#include "kbench/Analysis/Verification.h"
#include "kbench/Dialect/Tile/TransformOps/Schedule.h"
#include "kbench/Support/KernelConfig.h"
#include "kbench/Target/GPU/GPUBackend.h"
#include "kbench/Target/Host/HostSharedObject.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace path = llvm::sys::path;

namespace kbench::driver {

LogicalResult applyScheduleStage(ModuleOp module, StringRef schedulePath) {
  return applySchedule(module, schedulePath);
}

LogicalResult verifyStage(ModuleOp module, const TaskSignature &task,
                          llvm::json::Value &report) {
  VerifyOptions options;
  // Without task.json nothing says which entry arguments are inputs.
  if (!task.inputs.empty() || !task.outputs.empty()) {
    options.readOnlyEntryInputs = task.inputs.size();
    options.inputNames.assign(task.inputs.begin(), task.inputs.end());
    options.entryArgNames = task.inputs;
    llvm::append_range(options.entryArgNames, task.outputs);
  }
  VerificationResult result = verifyKernels(module, options);
  report = result.toJSON();
  if (result.getStatus() == CheckStatus::Proved)
    return success();
  // One error per finding, at its op, with the witness in words.
  (void)emitDiagnostics(result);
  return failure();
}

LogicalResult hostBackendStage(ModuleOp module, StringRef bundleDir,
                               bundle::BundleManifest &manifest,
                               StageTimes &times) {
  SmallString<256> output(bundleDir);
  path::append(output, "kernel.so");
  std::string log;
  HostBuildTimings timings;
  LogicalResult built =
      buildHostSharedObject(module, output, log, HostBuildOptions(), &timings);
  times.lower += timings.lowering * 1e3;
  times.assemble += (timings.llvm + timings.link) * 1e3;
  if (failed(built))
    return module.emitError("host target: ") << log;
  return success();
}

/// The tensor-map params of a TMA kernel (docs/bundle.md): after the ABI's,
/// each named `<memref>.tma.<rows>x<cols>`, and in every launch of the
/// kernel the buffer passed for that memref.
static LogicalResult appendTensorMapParams(ModuleOp module,
                                           bundle::BundleManifest &manifest,
                                           bundle::KernelSpec &kernel,
                                           const GpuKernelInfo &info) {
  size_t kernelIndex = &kernel - manifest.kernels.data();
  for (const GpuTensorMapParam &map : info.tensorMaps) {
    auto memref = llvm::find_if(kernel.params, [&](const auto &param) {
      return param.kind == bundle::KernelParamSpec::Kind::Memref &&
             param.name == map.memrefParam;
    });
    if (memref == kernel.params.end())
      return module.emitError("the GPU backend asks for a tensor map over '")
             << map.memrefParam << "', which is no memref param of kernel '"
             << kernel.name << "'";
    size_t memrefIndex = memref - kernel.params.begin();
    bundle::KernelParamSpec param;
    param.kind = bundle::KernelParamSpec::Kind::TmaDescriptor;
    param.dtype = memref->dtype;
    param.name = map.memrefParam + ".tma";
    for (size_t i = 0; i < map.box.size(); ++i) {
      param.name += (i ? "x" : ".") + std::to_string(map.box[i]);
      param.dims.push_back(ShapeExpr::constant(map.box[i]));
    }
    param.swizzleBytes = map.swizzleBytes;
    auto parse = [&](const std::vector<std::string> &texts,
                     std::vector<ShapeExpr> &out) -> LogicalResult {
      for (const std::string &text : texts) {
        std::string error;
        std::optional<ShapeExpr> expr = ShapeExpr::parse(text, error);
        if (!expr)
          return module.emitError("the GPU backend's tensor-map view '")
                 << text << "' is not a shape expression: " << error;
        out.push_back(*expr);
      }
      return success();
    };
    if (failed(parse(map.viewShape, param.viewShape)) ||
        failed(parse(map.viewStrides, param.viewStrides)))
      return failure();
    kernel.params.push_back(std::move(param));
    for (bundle::LaunchSpec &launch : manifest.launches)
      if (launch.kernel == kernelIndex)
        launch.args.push_back(launch.args[memrefIndex]);
  }
  return success();
}

LogicalResult gpuBackendStage(ModuleOp module, StringRef bundleDir,
                              bundle::BundleManifest &manifest,
                              StageTimes &times) {
  FailureOr<GpuCompileResult> compiled = compileToPtx(module);
  if (failed(compiled))
    return failure();
  times.lower += (compiled->loweringSeconds + compiled->ptxSeconds) * 1e3;

  SmallString<256> ptxPath(bundleDir), cubinPath(bundleDir);
  path::append(ptxPath, "kernel.ptx");
  path::append(cubinPath, "kernel.cubin");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(ptxPath, ec);
    if (ec)
      return module.emitError("cannot write ") << ptxPath << ": " << ec.message();
    os << compiled->ptx;
  }
  std::string error;
  FailureOr<PtxasReport> ptxas =
      runPtxas(compiled->ptx, cubinPath, PtxasOptions(), error);
  if (failed(ptxas))
    return module.emitError("ptxas rejected the PTX: ") << error;
  times.assemble += ptxas->seconds * 1e3;

  for (const GpuKernelInfo &info : compiled->kernels) {
    bundle::KernelSpec *kernel = manifest.findKernelBySymbol(info.symbol);
    if (!kernel)
      return module.emitError("the GPU backend produced kernel '")
             << info.symbol << "', which the manifest does not list";
    kernel->block = {info.block[0], info.block[1], info.block[2]};
    // The transform ops bound the mma buffers (SharedBudget.h); this is the
    // lowered total, reductions and alignment included, which a launch
    // would refuse on the GPU machine.
    if (info.dynamicSharedMemory > kSm90aLimits.sharedMemoryPerBlock)
      return module.emitError("kernel '")
             << info.symbol << "' needs " << info.dynamicSharedMemory
             << " bytes of shared memory, over the "
             << kSm90aLimits.sharedMemoryPerBlock
             << "-byte limit of one CTA on " << kSm90aLimits.target
             << "; lower the tile sizes or the pipeline stages";
    kernel->dynamicSharedMemory = info.dynamicSharedMemory;
    if (failed(appendTensorMapParams(module, manifest, *kernel, info)))
      return failure();
    if (info.persistent) {
      // At most the CTAs all SMs hold at once: each walks several tiles.
      const PtxasKernelReport *resources = nullptr;
      for (const PtxasKernelReport &report : ptxas->kernels)
        if (report.symbol == info.symbol)
          resources = &report;
      int64_t threads = info.block[0] * info.block[1] * info.block[2];
      int64_t ctas =
          kSm90aLimits.multiprocessors *
          residentCtasPerSm(kSm90aLimits, threads,
                            resources ? resources->registers : 255,
                            info.dynamicSharedMemory +
                                (resources ? resources->sharedMemory : 0));
      ShapeExpr tiles = kernel->grid[0];
      for (int axis = 1; axis < 3; ++axis) {
        const ShapeExpr &extent = kernel->grid[axis];
        if (extent.getKind() != ShapeExpr::Kind::Constant ||
            extent.getConstant() != 1)
          tiles = ShapeExpr::binary(ShapeExpr::Kind::Mul, tiles, extent);
      }
      kernel->grid = {ShapeExpr::binary(ShapeExpr::Kind::Min, tiles,
                                        ShapeExpr::constant(ctas)),
                      ShapeExpr::constant(1), ShapeExpr::constant(1)};
    }
    for (const PtxasKernelReport &resources : ptxas->kernels)
      if (resources.symbol == info.symbol)
        kernel->resources = bundle::ResourceUsage{
            resources.registers,    resources.spillStores,
            resources.spillLoads,   resources.stackFrame,
            resources.sharedMemory, resources.injectedWgmmaWaits};
  }
  return success();
}

} // namespace kbench::driver
