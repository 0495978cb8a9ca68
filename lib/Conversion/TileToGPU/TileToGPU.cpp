//===- TileToGPU.cpp - The tile-to-gpu pass and the kernel ABI ------------===//
//
// Builds the gpu.func of one kernel with the bundle ABI (docs/bundle.md): the
// knobs, the arguments, the memref descriptors over global pointers, the
// thread ids, and after the walk the shared memory (static up to 48 KB,
// dynamic beyond). The pass puts every kernel of a module into one
// gpu.module and drops host code.
//
//===----------------------------------------------------------------------===//

#include "AssignLayouts.h"
#include "KernelLowering.h"
#include "kbench/Conversion/TileToGPU/Pipelining.h"

#include "kbench/Conversion/TileToGPU/Passes.h"
#include "kbench/Dialect/Tile/IR/KernelABI.h"
#include "kbench/Support/ShapeExpr.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

namespace kbench {
#define GEN_PASS_DEF_TILETOGPU
#include "kbench/Conversion/TileToGPU/Passes.h.inc"
} // namespace kbench

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

//===----------------------------------------------------------------------===//
// The kernel: knobs, ABI, prologue, shared memory
//===----------------------------------------------------------------------===//

/// Reads `dim % c == 0` facts (params substituted) into `multiples`.
static void collectMultiples(tile::KernelOp kernel,
                             llvm::StringMap<int64_t> &multiples) {
  for (const ShapeFact &bound : tile::getBoundRequiresFacts(kernel)) {
    if (bound.getRelation() != ShapeFact::Relation::EQ)
      continue;
    for (auto [mod, zero] : {std::pair(bound.getLhs(), bound.getRhs()),
                             std::pair(bound.getRhs(), bound.getLhs())}) {
      if (zero.getKind() != ShapeExpr::Kind::Constant ||
          zero.getConstant() != 0 || mod.getKind() != ShapeExpr::Kind::Mod)
        continue;
      const ShapeExpr &dim = mod.getOperands()[0];
      const ShapeExpr &divisor = mod.getOperands()[1];
      if (dim.getKind() != ShapeExpr::Kind::Symbol ||
          divisor.getKind() != ShapeExpr::Kind::Constant ||
          divisor.getConstant() <= 0)
        continue;
      int64_t &known = multiples[dim.getSymbol()];
      known = std::lcm(known ? known : 1, divisor.getConstant());
    }
  }
}

/// A memref descriptor over the global pointer `ptr` with row-major extents
/// `extents` (i64): the `unrealized_conversion_cast` folds away against the
/// descriptor that convert-gpu-to-nvvm expects.
static Value buildGlobalMemref(OpBuilder &b, Location loc, Value ptr,
                               ArrayRef<Value> extents, Type elementType) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = extents.size();
  Type i64 = b.getI64Type();
  auto arrayType = LLVM::LLVMArrayType::get(i64, rank);
  auto structType = LLVM::LLVMStructType::getLiteral(
      ctx, {ptr.getType(), ptr.getType(), i64, arrayType, arrayType});
  Value desc = LLVM::PoisonOp::create(b, loc, structType);
  desc = LLVM::InsertValueOp::create(b, loc, desc, ptr, ArrayRef<int64_t>{0});
  desc = LLVM::InsertValueOp::create(b, loc, desc, ptr, ArrayRef<int64_t>{1});
  Value zero = arith::ConstantIntOp::create(b, loc, i64, 0);
  desc = LLVM::InsertValueOp::create(b, loc, desc, zero, ArrayRef<int64_t>{2});
  Value stride = arith::ConstantIntOp::create(b, loc, i64, 1);
  for (int64_t i = rank - 1; i >= 0; --i) {
    desc = LLVM::InsertValueOp::create(b, loc, desc, extents[i],
                                       ArrayRef<int64_t>{3, i});
    desc = LLVM::InsertValueOp::create(b, loc, desc, stride,
                                       ArrayRef<int64_t>{4, i});
    if (i > 0)
      stride = arith::MulIOp::create(b, loc, stride, extents[i]);
  }
  auto memrefType = MemRefType::get(
      SmallVector<int64_t>(rank, ShapedType::kDynamic), elementType,
      MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Global));
  return UnrealizedConversionCastOp::create(b, loc, memrefType, desc)
      .getResult(0);
}

LogicalResult KernelLowering::run() {
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();

  // Knobs and layouts.
  FailureOr<KernelKnobs> knobs = readKernelKnobs(kernel);
  if (failed(knobs))
    return failure();
  numWarps = knobs->numWarps;
  vectorWidth = knobs->vectorWidth;
  groupM = knobs->groupM;
  collectMultiples(kernel, multiples);
  if (failed(hasLayouts(kernel) ? verifyLayouts(kernel)
                                : assignLayouts(kernel)))
    return failure();
  planPipelining(kernel, numWarps);

  // The ABI: memref -> global pointer, dim -> i64, scalar -> its value.
  SmallVector<tile::KernelParam> abi = tile::getKernelABI(kernel);
  SmallVector<Type> argTypes;
  for (const tile::KernelParam &param : abi) {
    switch (param.kind) {
    case tile::KernelParam::Kind::Memref:
      argTypes.push_back(LLVM::LLVMPointerType::get(ctx, 1));
      break;
    case tile::KernelParam::Kind::Dim:
      argTypes.push_back(b.getI64Type());
      break;
    case tile::KernelParam::Kind::Scalar:
      argTypes.push_back(param.type.isIndex() ? b.getI64Type() : param.type);
      break;
    }
  }
  b.setInsertionPointToEnd(module.getBody());
  func = gpu::GPUFuncOp::create(b, loc, kernel.getSymName(),
                                FunctionType::get(ctx, argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  int32_t blockSize = tile::getBlockSize(kernel);
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({blockSize, 1, 1}));
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);

  // Prologue: dims, memrefs, scalars, thread ids.
  llvm::StringMap<Value> dimArgs;
  for (auto [param, arg] : llvm::zip(abi, entry.getArguments()))
    if (param.kind == tile::KernelParam::Kind::Dim) {
      dimArgs[param.name] = arg;
      dimValues[param.name] =
          arith::IndexCastOp::create(b, loc, b.getIndexType(), arg);
    }
  for (auto [param, arg] : llvm::zip(abi, entry.getArguments())) {
    if (param.argIndex < 0)
      continue;
    Value kernelArg = kernel.getArgument(param.argIndex);
    if (param.kind == tile::KernelParam::Kind::Memref) {
      SmallVector<Value> extents;
      for (const std::string &dim : param.dims)
        extents.push_back(dimArgs.lookup(dim));
      if (extents.empty() || llvm::is_contained(extents, Value()))
        return kernel.emitOpError("memref argument #")
               << param.argIndex << " needs one `tile.dims` name per axis; "
               << "rank-0 memrefs are not supported by tile-to-gpu";
      scalars.map(kernelArg,
                  buildGlobalMemref(b, loc, arg, extents, param.type));
    } else if (param.type.isIndex()) {
      scalars.map(kernelArg,
                  arith::IndexCastOp::create(b, loc, b.getIndexType(), arg));
    } else {
      scalars.map(kernelArg, arg);
    }
  }
  threadId = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value c32 = arith::ConstantIndexOp::create(b, loc, 32);
  laneId = arith::RemUIOp::create(b, loc, threadId, c32);
  warpId = arith::DivUIOp::create(b, loc, threadId, c32);
  // Hoisted values go before this marker; it is erased at the end.
  prologueEnd = ub::PoisonOp::create(b, loc, b.getIndexType());
  indexConstants[32] = c32;

  if (failed(lowerBlock(kernel.getBody().front()))) {
    func.erase();
    return failure();
  }
  prologueEnd->erase();

  // Shared memory: static up to 48 KB, dynamic beyond.
  if (sharedBytes > kSm90aLimits.sharedMemoryPerBlock) {
    func.erase();
    return kernel.emitOpError("needs ")
           << sharedBytes << " bytes of shared memory (staging and scratch "
           << "buffers); sm_90a allows " << kSm90aLimits.sharedMemoryPerBlock
           << " per CTA: lower the tile sizes (BM, BN, BK) or the number of "
           << "reductions and layout conversions";
  }
  if (sharedBase && sharedBytes <= kSm90aLimits.staticSharedMemoryPerBlock) {
    auto type = MemRefType::get(
        {sharedBytes}, b.getI8Type(), MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
    BlockArgument buffer = func.addWorkgroupAttribution(type, loc);
    func.setWorkgroupAttributionAttr(0, LLVM::LLVMDialect::getAlignAttrName(),
                                     b.getI64IntegerAttr(16));
    Operation *dynamic = sharedBase.getDefiningOp();
    b.setInsertionPoint(dynamic);
    Value cast = memref::CastOp::create(b, loc, sharedBase.getType(), buffer);
    dynamic->getResult(0).replaceAllUsesWith(cast);
    dynamic->erase();
  } else if (sharedBase) {
    func->setAttr(kDynamicSharedMemoryAttrName,
                  b.getI64IntegerAttr(sharedBytes));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct TileToGPUPass : kbench::impl::TileToGPUBase<TileToGPUPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<tile::KernelOp> kernels(module.getOps<tile::KernelOp>());
    if (kernels.empty())
      return;
    MLIRContext *ctx = module.getContext();
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(ctx));
    OpBuilder b(ctx);
    b.setInsertionPointToEnd(module.getBody());
    auto gpuModule =
        gpu::GPUModuleOp::create(b, module.getLoc(), kKernelModuleName);
    bool ok = true;
    for (tile::KernelOp kernel : kernels)
      ok &= succeeded(KernelLowering(kernel, gpuModule).run());
    if (!ok)
      return signalPassFailure();
    for (tile::KernelOp kernel : kernels)
      kernel.erase();
    // Host-level launch sequences stay with the tile IR (the bundle writer
    // records them); this module is device code only.
    for (func::FuncOp host : llvm::make_early_inc_range(
             module.getOps<func::FuncOp>()))
      if (host.walk([](tile::LaunchOp) { return WalkResult::interrupt(); })
              .wasInterrupted())
        host.erase();
  }
};
} // namespace
