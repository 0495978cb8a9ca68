//===- PtxBackend.cpp - Device-only NVVM pipeline to PTX ------------------===//
//
// The device side of `kbench compile`, stated in one place:
//
//   tile-assign-layouts, tile-plan-pipelining, tile-to-gpu
//   nvvm-attach-target{chip=sm_90a features=+ptx80 O=3}
//   gpu.module(kbench-gpu-prepare-nvvm, convert-scf-to-cf,
//              convert-nvgpu-to-nvvm, convert-gpu-to-nvvm,
//              kbench-nvvm-grid-constant-params, convert-nvvm-to-llvm,
//              kbench-nvvm-extern-dynamic-shared, canonicalize, cse)
//   reconcile-unrealized-casts
//   gpu.module(kbench-nvvm-check-translatable)
//   gpu-module-to-binary{format=isa}      (with --nvptx-short-ptr)
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

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Transforms/Passes.h"
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

void kbench::buildGPUToPtxPipeline(OpPassManager &pm,
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
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  // libdevice comes from the toolkit; without it math calls stay unresolved
  // externs that ptxas rejects.
  if (!options.cudaPath.empty())
    binary.toolkitPath = options.cudaPath;
  else if (std::optional<std::string> cuda = findCudaToolkit())
    binary.toolkitPath = *cuda;
  pm.addPass(createGpuModuleToBinaryPass(binary));
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
  setNVPTXShortPointers(options.shortPointers);
  PassManager backend(ctx);
  buildGPUToPtxPipeline(backend, options);
  if (failed(backend.run(*device)))
    return failure();
  FailureOr<std::string> ptx = extractPtx(*device);
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
      mlir::emitRemark(module.getLoc()) << "ptxas " << options.chip << ": kernel '"
                          << kernel.symbol << "' uses " << kernel.registers
                          << " registers, " << kernel.spillStores
                          << " bytes spill stores, " << kernel.spillLoads
                          << " bytes spill loads, " << kernel.sharedMemory
                          << " bytes static shared memory, "
                          << kernel.barriers << " barriers";
  }
};
} // namespace
