//===- PtxBackend.cpp - Device-only NVVM pipeline to PTX ------------------===//
//
// The device side of `kbench compile`, stated in one place:
//
//   tile-overlap-mma, tile-assign-layouts, tile-plan-pipelining, tile-to-gpu
//   nvvm-attach-target{chip=sm_90a features=+ptx80 O=3}
//   gpu.module(kbench-gpu-prepare-nvvm, convert-scf-to-cf,
//              convert-nvgpu-to-nvvm, convert-gpu-to-nvvm,
//              kbench-nvvm-grid-constant-params, convert-nvvm-to-llvm,
//              kbench-nvvm-extern-dynamic-shared, canonicalize, cse)
//   reconcile-unrealized-casts
//   gpu.module(kbench-nvvm-check-translatable)
//   gpu-module-to-binary{format=isa}      (with --nvptx-short-ptr)
//
// compileToPtx (kbench compile) first gives every kernel a gpu.module of its
// own and, instead of gpu-module-to-binary, translates the modules on the
// context's threads and merges their PTX (PtxMerge.h): LLVM's NVPTX code
// generation is one thread per module, and a dispatch bundle has a kernel
// per variant.
//
// No host code is generated: the runner launches the kernels through the CUDA
// driver with the bundle ABI, so `gpu-to-llvm` and the MLIR CUDA runtime
// (which Debian does not ship) are not needed.
//
//===----------------------------------------------------------------------===//

#include "kbench/Target/GPU/GPUBackend.h"

#include "kbench/Conversion/TileToGPU/Passes.h"
#include "kbench/Dialect/Tile/IR/Tile.h"
#include "kbench/Target/GPU/Passes.h"
#include "kbench/Target/GPU/PtxMerge.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Threading.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>
#include <cstdlib>

namespace kbench {
#define GEN_PASS_DEF_GPUTOPTX
#include "kbench/Target/GPU/Passes.h.inc"
} // namespace kbench

using namespace mlir;
using namespace kbench;

void kbench::setNVPTXShortPointers(bool enable) {
  llvm::DenseMap<llvm::StringRef, llvm::cl::Option *> &options =
      llvm::cl::getRegisteredOptions();
  auto it = options.find("nvptx-short-ptr");
  if (it != options.end())
    static_cast<llvm::cl::opt<bool> *>(it->second)->setValue(enable);
}

std::optional<std::string> kbench::findCudaToolkit() {
  auto hasLibdevice = [](llvm::StringRef root) {
    SmallString<128> path(root);
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    return !root.empty() && llvm::sys::fs::exists(path);
  };
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *root = std::getenv(var); root && hasLibdevice(root))
      return std::string(root);
  if (hasLibdevice("/usr/local/cuda"))
    return std::string("/usr/local/cuda");
  return std::nullopt;
}

static std::string getToolkitPath(const GpuCompileOptions &options) {
  if (!options.cudaPath.empty())
    return options.cudaPath;
  return findCudaToolkit().value_or("");
}

void kbench::buildGPUToNVVMPipeline(OpPassManager &pm,
                                    const GpuCompileOptions &options) {
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createGPUPrepareForNVVM());
  device.addPass(createSCFToControlFlowPass());
  // The ldmatrix of impl = mma_sync; a no-op for kernels without nvgpu ops.
  device.addPass(createConvertNVGPUToNVVMPass());
  device.addPass(createConvertGpuOpsToNVVMOps());
  // Tensor maps of TMA K loops; a no-op for kernels without them.
  device.addPass(createNVVMGridConstantParams());
  // NVVM ops that are inline PTX rather than intrinsics (wgmma.mma_async of
  // impl = wgmma); a no-op for kernels without them.
  device.addPass(createConvertNVVMToLLVMPass());
  device.addPass(createNVVMExternDynamicSharedMemory());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.nest<gpu::GPUModuleOp>().addPass(createNVVMCheckTranslatable());
}

void kbench::buildGPUToPtxPipeline(OpPassManager &pm,
                                   const GpuCompileOptions &options) {
  buildGPUToNVVMPipeline(pm, options);
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  // libdevice comes from the toolkit; without it math calls stay unresolved
  // externs that ptxas rejects.
  binary.toolkitPath = getToolkitPath(options);
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

/// Moves every kernel but the first of a gpu.module that holds only kernels
/// into a gpu.module of its own (`<name>_<i>`, the same attributes), so that
/// the backend translates the kernels side by side: LLVM's NVPTX code
/// generation, most of a kernel's compile time, is one thread per module.
static void splitKernelsIntoModules(ModuleOp device) {
  for (gpu::GPUModuleOp module :
       llvm::to_vector(device.getOps<gpu::GPUModuleOp>())) {
    SmallVector<gpu::GPUFuncOp> kernels;
    bool onlyKernels = true;
    for (Operation &op : *module.getBody()) {
      auto func = dyn_cast<gpu::GPUFuncOp>(op);
      onlyKernels &= func && func.isKernel();
      if (func)
        kernels.push_back(func);
    }
    if (!onlyKernels || kernels.size() < 2)
      continue;
    OpBuilder b(module);
    b.setInsertionPointAfter(module);
    for (auto [i, kernel] : llvm::enumerate(ArrayRef(kernels).drop_front())) {
      auto split = gpu::GPUModuleOp::create(
          b, module.getLoc(), (module.getName() + "_" + Twine(i + 1)).str(),
          module.getTargetsAttr(), module.getOffloadingHandlerAttr());
      split->setDiscardableAttrs(module->getDiscardableAttrDictionary());
      kernel->moveBefore(split.getBody(), split.getBody()->end());
      b.setInsertionPointAfter(split);
    }
  }
}

/// The PTX of every gpu.module of `device` (after buildGPUToNVVMPipeline),
/// each translated by its NVVM target on its own thread of the context's
/// pool, then merged into one module (mergePtxModules).
static FailureOr<std::string>
serializeModulesToPtx(ModuleOp device, const GpuCompileOptions &options) {
  MLIRContext *ctx = device.getContext();
  SmallVector<gpu::GPUModuleOp> modules(device.getOps<gpu::GPUModuleOp>());
  if (modules.empty())
    return device.emitError("no gpu.module to translate to PTX");
  gpu::TargetOptions targetOptions(getToolkitPath(options), {}, {}, {},
                                   gpu::CompilationTarget::Assembly);
  SmallVector<std::string> ptx(modules.size());
  // Diagnostics of the threads reach the handlers in module order.
  ParallelDiagnosticHandler diagnostics(ctx);
  LogicalResult translated = failableParallelForEachN(
      ctx, 0, modules.size(), [&](size_t i) -> LogicalResult {
        diagnostics.setOrderIDForThread(i);
        llvm::scope_exit unorder([&] { diagnostics.eraseOrderIDForThread(); });
        gpu::GPUModuleOp module = modules[i];
        ArrayAttr targets = module.getTargetsAttr();
        auto target = targets && targets.size() == 1
                          ? dyn_cast<gpu::TargetAttrInterface>(targets[0])
                          : gpu::TargetAttrInterface();
        if (!target)
          return module.emitError("expected one NVVM target on the gpu.module "
                                  "(nvvm-attach-target)");
        std::optional<SmallVector<char, 0>> object =
            target.serializeToObject(module, targetOptions);
        if (!object)
          return module.emitError("the NVVM target could not translate this "
                                  "gpu.module to PTX");
        ptx[i].assign(object->begin(), object->end());
        while (!ptx[i].empty() && ptx[i].back() == '\0')
          ptx[i].pop_back();
        return success();
      });
  if (failed(translated))
    return failure();
  std::string error;
  std::optional<std::string> merged = mergePtxModules(ptx, error);
  if (!merged)
    return device.emitError("cannot merge the kernels' PTX: ") << error;
  return *merged;
}

FailureOr<std::string> kbench::extractPtx(ModuleOp module) {
  std::string ptx;
  bool found = false;
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      auto object = dyn_cast<gpu::ObjectAttr>(attr);
      if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
        continue;
      ptx += object.getObject().getValue();
      found = true;
    }
  });
  if (!found)
    return module.emitError("no PTX in the module: expected a gpu.binary "
                            "with an object of format `assembly` "
                            "(gpu-module-to-binary{format=isa})");
  return ptx;
}

static double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       start)
      .count();
}

FailureOr<GpuCompileResult>
kbench::compileToPtx(ModuleOp module, const GpuCompileOptions &options) {
  MLIRContext *ctx = module.getContext();
  // Device code only: a copy of the kernels, whatever else the module holds.
  OwningOpRef<ModuleOp> device = ModuleOp::create(module.getLoc());
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(device->getBody());
  for (Operation &op : module.getBody()->getOperations())
    if (isa<tile::KernelOp>(op))
      b.clone(op);
  if (device->getBody()->empty())
    return module.emitError("no tile.kernel to compile for ")
           << options.chip;

  GpuCompileResult result;
  auto start = std::chrono::steady_clock::now();
  PassManager lowering(ctx);
  lowering.addPass(createTileOverlapMma());
  lowering.addPass(createTileAssignLayouts());
  lowering.addPass(createTilePlanPipelining());
  lowering.addPass(createTileToGPU());
  if (failed(lowering.run(*device)))
    return failure();
  result.loweringSeconds = secondsSince(start);

  device->walk([&](gpu::GPUFuncOp func) {
    if (!func.isKernel())
      return;
    GpuKernelInfo info;
    info.symbol = func.getName().str();
    if (std::optional<ArrayRef<int32_t>> block = func.getKnownBlockSize())
      for (auto [i, size] : llvm::enumerate(*block))
        info.block[i] = size;
    if (auto bytes =
            func->getAttrOfType<IntegerAttr>(kDynamicSharedMemoryAttrName))
      info.dynamicSharedMemory = bytes.getInt();
    info.persistent = func->hasAttr(tile::kPersistentAttrName);
    if (auto maps = func->getAttrOfType<ArrayAttr>(kTmaDescriptorsAttrName))
      for (auto map : maps.getAsRange<DictionaryAttr>()) {
        GpuTensorMapParam param;
        param.memrefParam =
            cast<StringAttr>(map.get("param")).getValue().str();
        ArrayRef<int64_t> box = cast<DenseI64ArrayAttr>(map.get("box"));
        param.box.assign(box.begin(), box.end());
        param.swizzleBytes = cast<IntegerAttr>(map.get("swizzle")).getInt();
        auto strings = [](Attribute attr, std::vector<std::string> &out) {
          if (auto array = dyn_cast_or_null<ArrayAttr>(attr))
            for (auto text : array.getAsRange<StringAttr>())
              out.push_back(text.getValue().str());
        };
        strings(map.get("view_shape"), param.viewShape);
        strings(map.get("view_strides"), param.viewStrides);
        info.tensorMaps.push_back(std::move(param));
      }
    result.kernels.push_back(info);
  });

  start = std::chrono::steady_clock::now();
  splitKernelsIntoModules(*device);
  setNVPTXShortPointers(options.shortPointers);
  PassManager backend(ctx);
  buildGPUToNVVMPipeline(backend, options);
  if (failed(backend.run(*device)))
    return failure();
  FailureOr<std::string> ptx = serializeModulesToPtx(*device, options);
  if (failed(ptx))
    return failure();
  result.ptx = std::move(*ptx);
  result.ptxSeconds = secondsSince(start);
  return result;
}

//===----------------------------------------------------------------------===//
// kbench-gpu-to-ptx
//===----------------------------------------------------------------------===//

namespace {
struct GPUToPtxPass : kbench::impl::GPUToPtxBase<GPUToPtxPass> {
  using Base::Base;

  GpuCompileOptions compileOptions() const {
    GpuCompileOptions options;
    options.chip = chip;
    options.features = features;
    options.optLevel = optLevel;
    options.shortPointers = shortPointers;
    options.cudaPath = cudaPath;
    return options;
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    OpPassManager pm(ModuleOp::getOperationName());
    buildGPUToPtxPipeline(pm, compileOptions());
    pm.getDependentDialects(registry);
  }

  LogicalResult writePtx(StringRef ptx) {
    std::string error;
    auto file = openOutputFile(ptxFile, &error);
    if (!file)
      return getOperation().emitError("cannot write the PTX to '")
             << ptxFile << "': " << error;
    file->os() << ptx;
    file->keep();
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    GpuCompileOptions options = compileOptions();
    setNVPTXShortPointers(options.shortPointers);
    OpPassManager pm(ModuleOp::getOperationName());
    buildGPUToPtxPipeline(pm, options);
    if (failed(runPipeline(pm, module)))
      return signalPassFailure();
    if (ptxFile.empty() && cubinFile.empty())
      return;
    FailureOr<std::string> ptx = extractPtx(module);
    if (failed(ptx))
      return signalPassFailure();
    if (!ptxFile.empty() && failed(writePtx(*ptx)))
      return signalPassFailure();
    if (cubinFile.empty())
      return;
    PtxasOptions ptxas;
    ptxas.arch = options.chip;
    std::string error;
    FailureOr<PtxasReport> report = runPtxas(*ptx, cubinFile, ptxas, error);
    if (failed(report)) {
      mlir::emitError(module.getLoc()) << error;
      return signalPassFailure();
    }
    for (const PtxasKernelReport &kernel : report->kernels)
      mlir::emitRemark(module.getLoc())
          << "ptxas " << options.chip << ": kernel '" << kernel.symbol
          << "' uses " << kernel.registers << " registers, "
          << kernel.spillStores << " bytes spill stores, " << kernel.spillLoads
          << " bytes spill loads, " << kernel.sharedMemory
          << " bytes static shared memory, " << kernel.barriers << " barriers, "
          << kernel.injectedWgmmaWaits << " wgmma waits injected by ptxas";
  }
};
} // namespace
