//===- TileToGPU.cpp - The tile-to-gpu pass and the kernel ABI ------------===//
//
// Builds the gpu.func of one kernel with the bundle ABI (docs/bundle.md): the
// knobs, the arguments, the memref descriptors over global pointers, the
// thread ids (KernelContext). Then it moves the kernel body into the function
// and applies the conversion patterns (Patterns.h) to it, and afterwards
// sizes the shared memory (static up to 48 KB, dynamic beyond). The pass
// puts every kernel of a module into one gpu.module and drops host code.
//
//===----------------------------------------------------------------------===//

#include "AssignLayouts.h"
#include "FastMath.h"
#include "Patterns.h"
#include "kbench/Conversion/TileToGPU/EpilogueRules.h"
#include "kbench/Conversion/TileToGPU/PersistentRules.h"
#include "kbench/Conversion/TileToGPU/Pipelining.h"

#include "kbench/Conversion/TileToGPU/Passes.h"
#include "kbench/Conversion/TileToGPU/TmaRules.h"
#include "kbench/Dialect/Tile/IR/KernelABI.h"
#include "kbench/Support/KernelConfig.h"
#include "kbench/Support/ShapeExpr.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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

/// Ops the lowering accepts in a kernel body: tile ops, scalar or
/// elementwise arith/math/index/ub ops, and the scf ops that carry them;
/// whether each one actually lowers is up to the patterns.
static bool isAcceptedDialect(Operation *op) {
  if (isa<arith::ArithDialect, math::MathDialect, index::IndexDialect,
          ub::UBDialect>(op->getDialect()))
    return op->getNumRegions() == 0;
  return isa<tile::TileDialect>(op->getDialect()) ||
         isa<scf::ForOp, scf::IfOp, scf::YieldOp>(op);
}

InFlightDiagnostic kbench::gpu_lowering::emitUnsupported(Operation *op) {
  return op->emitOpError("is not supported by tile-to-gpu (the SIMT "
                         "lowering handles tile ops, elementwise arith/math "
                         "on tiles, scalar arith/math/index, scf.for and "
                         "scf.if)");
}

void kbench::gpu_lowering::populateTileToGPUPatterns(
    const TileTypeConverter &converter, KernelContext &ctx,
    RewritePatternSet &patterns) {
  populateControlFlowPatterns(converter, ctx, patterns);
  populateViewPatterns(converter, ctx, patterns);
  populateElementwisePatterns(converter, ctx, patterns);
  populateMemoryPatterns(converter, ctx, patterns);
  populateReducePatterns(converter, ctx, patterns);
  populateScanPatterns(converter, ctx, patterns);
  populateMmaPatterns(converter, ctx, patterns);
  populateStagedEpiloguePatterns(converter, ctx, patterns);
}

/// Whether `op` is lowered already: no tile op, no tile types, and no
/// pipelining decision left to take.
static bool isLowered(Operation *op) {
  if (isa<tile::TileDialect>(op->getDialect()))
    return false;
  if (auto loop = dyn_cast<scf::ForOp>(op);
      loop && loop->hasAttr(kPipelineStagesAttrName))
    return false;
  return llvm::none_of(op->getOperandTypes(), isTileType) &&
         llvm::none_of(op->getResultTypes(), isTileType);
}

/// Makes every allocation of `context` aligned to `sharedAlignment` in the
/// shared window, not only relative to the CTA's buffer (whose base is only
/// 16-byte aligned): the buffer's uses see it shifted up to the next
/// multiple, and it grows by the largest shift.
static void alignSharedBase(OpBuilder &b, KernelContext &context) {
  Value raw = context.sharedBase;
  Location loc = raw.getLoc();
  int64_t alignment = context.sharedAlignment;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfterValue(raw);
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, raw);
  Value align = arith::ConstantIndexOp::create(b, loc, alignment);
  Value misalignment = arith::RemUIOp::create(b, loc, address, align);
  Value shift = arith::RemUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, align, misalignment), align);
  int64_t usableBytes = context.sharedBytes;
  context.sharedBytes += alignment - 16;
  Value size = arith::ConstantIndexOp::create(b, loc, usableBytes);
  auto aligned = memref::ViewOp::create(b, loc, raw.getType(), raw, shift,
                                        ValueRange{size});
  Operation *addressOp = address.getDefiningOp();
  raw.replaceUsesWithIf(aligned, [&](OpOperand &use) {
    return use.getOwner() != addressOp && use.getOwner() != aligned;
  });
}

/// Records the tensor-map params of `func` for the backend and the bundle
/// writer: `kbench.tma_descriptor_args` (their argument numbers) and
/// `kbench.tma_descriptors` (per param: the memref param it describes, the
/// box outermost axis first, the swizzle in bytes and, for a staged-rows
/// map, the view's shape and strides as shape expressions).
static void describeTmaDescriptorArgs(gpu::GPUFuncOp func,
                                      ArrayRef<tile::KernelParam> abi,
                                      ArrayRef<TmaDescriptorRequest> requests,
                                      unsigned firstArg) {
  OpBuilder b(func.getContext());
  SmallVector<int64_t> argNumbers;
  SmallVector<Attribute> descriptors;
  for (auto [i, request] : llvm::enumerate(requests)) {
    argNumbers.push_back(firstArg + i);
    const tile::KernelParam *memref = llvm::find_if(
        abi, [argIndex = request.argIndex](const tile::KernelParam &param) {
          return param.argIndex == static_cast<int>(argIndex);
        });
    SmallVector<NamedAttribute> fields = {
        b.getNamedAttr("param", b.getStringAttr(memref->name)),
        b.getNamedAttr("box", b.getDenseI64ArrayAttr(request.box)),
        b.getNamedAttr("swizzle", b.getI64IntegerAttr(request.swizzleBytes))};
    // A memref without one dim name per axis fails the ABI check below.
    if (request.stagedRowsWarps > 0 && memref->dims.size() == 2) {
      StagedRowsView view = getStagedRowsView(
          memref->dims[0], memref->dims[1], request.stagedRowsWarps);
      auto strings = [&](ArrayRef<std::string> texts) {
        SmallVector<Attribute> attrs;
        for (const std::string &text : texts)
          attrs.push_back(b.getStringAttr(text));
        return b.getArrayAttr(attrs);
      };
      fields.push_back(b.getNamedAttr("view_shape", strings(view.shape)));
      fields.push_back(b.getNamedAttr("view_strides", strings(view.strides)));
    }
    descriptors.push_back(b.getDictionaryAttr(fields));
  }
  func->setAttr(kTmaDescriptorArgsAttrName,
                b.getDenseI64ArrayAttr(argNumbers));
  func->setAttr(kTmaDescriptorsAttrName, b.getArrayAttr(descriptors));
}

/// A persistent kernel's loop over tiles: everything from the tile.grid to
/// the terminator of `entry` moves into `scf.for %t = blockIdx.x to T step
/// gridDim.x`, T the product of the grid view's tile counts, ended by a
/// barrier (the next tile's code may write shared memory that slower warps
/// still read); tile.grid then lowers %t (ctx.persistentTile). The loop
/// carries LLVM's LICM-disable hint: see sinkIntoTileLoop.
static scf::ForOp wrapInTileLoop(OpBuilder &b, KernelContext &ctx,
                                 Block &entry) {
  tile::GridOp grid;
  for (Operation &op : entry)
    if (auto found = dyn_cast<tile::GridOp>(op))
      grid = found;
  Location loc = grid.getLoc();
  b.setInsertionPoint(grid);
  Value tiles = ctx.constIndex(b, 1);
  for (int64_t dim : grid.getGridDims())
    tiles = arith::MulIOp::create(
        b, loc, tiles,
        tile::NumTilesOp::create(b, loc, grid.getView(),
                                 b.getI64IntegerAttr(dim)));
  Value first = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value step = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  auto loop = scf::ForOp::create(b, loc, first, tiles, step);
  Block *body = loop.getBody();
  body->getOperations().splice(body->getTerminator()->getIterator(),
                               entry.getOperations(), grid->getIterator(),
                               entry.getTerminator()->getIterator());
  b.setInsertionPoint(body->getTerminator());
  ctx.barrier(b);
  ctx.persistentTile = loop.getInductionVar();
  // SCF-to-CF and CF-to-LLVM carry the llvm.* attributes to the back edge.
  MLIRContext *mlir = b.getContext();
  auto licm = LLVM::LoopLICMAttr::get(mlir, b.getBoolAttr(true), BoolAttr());
  loop->setAttr(kLoopAnnotationAttrName,
                LLVM::LoopAnnotationAttr::get(
                    mlir, BoolAttr(), {}, {}, {}, {}, licm, {}, {}, {}, {},
                    BoolAttr(), BoolAttr(), FusedLoc(), FusedLoc(), {}));
  return loop;
}

/// Moves the side-effect-free values of the function's entry block that
/// only `loop` uses to the start of its body. The lowering hoists addresses
/// and index arithmetic into the kernel's prologue; in a persistent kernel
/// that keeps each live across the whole tile loop, K loop included (34
/// shared addresses and 26 index values of matmul_bf16's TMA kernel: 255
/// registers and spills, 214 and none once computed per tile). LLVM's LICM
/// would hoist them back, hence the loop's hint; ptxas leaves them in place.
static void sinkIntoTileLoop(Block &entry, scf::ForOp loop) {
  Block *body = loop.getBody();
  auto usedOnlyInLoop = [&](Operation *op) {
    return llvm::all_of(op->getUsers(), [&](Operation *user) {
      return loop->isProperAncestor(user);
    });
  };
  SmallVector<Operation *> before;
  for (Operation &op : entry) {
    if (&op == loop.getOperation())
      break;
    before.push_back(&op);
  }
  // Last first, so that an op's users have moved before it is looked at.
  for (Operation *op : llvm::reverse(before))
    if (!op->use_empty() && op->getNumRegions() == 0 &&
        isMemoryEffectFree(op) && usedOnlyInLoop(op))
      op->moveBefore(&body->front());
}

/// Lowers `kernel` into a gpu.func of `module`. On failure an error naming
/// the op and the limit has been emitted and the partial function erased.
static LogicalResult lowerKernel(tile::KernelOp kernel,
                                 gpu::GPUModuleOp module) {
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  OpBuilder b(ctx);

  // Knobs, layouts, pipelining decisions, and what the lowering accepts.
  FailureOr<KernelKnobs> knobs = readKernelKnobs(kernel);
  if (failed(knobs))
    return failure();
  llvm::StringMap<int64_t> multiples;
  collectMultiples(kernel, multiples);
  if (failed(hasLayouts(kernel) ? verifyLayouts(kernel)
                                : assignLayouts(kernel)))
    return failure();
  planPipelining(kernel, knobs->numWarps);
  Block &body = kernel.getBody().front();
  WalkResult accepted =
      kernel.getBody().walk<WalkOrder::PreOrder>([](Operation *op) {
        if (isAcceptedDialect(op))
          return WalkResult::advance();
        emitUnsupported(op);
        return WalkResult::interrupt();
      });
  if (accepted.wasInterrupted())
    return failure();
  KernelContext context(kernel, *knobs);
  if (knobs->cacheHints)
    context.l2Priorities = planCacheHints(kernel);
  context.warpSpecialized = kernel->hasAttr(tile::kWarpSpecializedAttrName);
  if (context.warpSpecialized)
    if (std::optional<std::string> why = whyNotWarpSpecialized(kernel))
      return kernel.emitOpError("tile.warp_specialized: ") << *why;
  // The marked stores, checked and read before the conversion starts: a
  // TMA store while its memref is still a kernel argument (a store the
  // rules refuse gets no tensor map), a staged epilogue while the loop that
  // produced its accumulator still has its body.
  WalkResult stores = kernel.walk([&](tile::StoreOp store) {
    if (store->hasAttr(kTmaStoreAttrName))
      if (std::optional<std::string> why = whyNotTmaStore(store)) {
        store.emitOpError(*why);
        return WalkResult::interrupt();
      }
    if (!store->hasAttr(kStagedEpilogueAttrName))
      return WalkResult::advance();
    std::string why;
    std::optional<StagedEpilogue> epilogue = getStagedEpilogue(store, why);
    if (!epilogue) {
      store.emitOpError("tile.staged_epilogue: ") << why;
      return WalkResult::interrupt();
    }
    context.stagedEpilogues.try_emplace(store, std::move(*epilogue));
    return WalkResult::advance();
  });
  if (stores.wasInterrupted())
    return failure();
  bool persistent = kernel->hasAttr(tile::kPersistentAttrName);
  if (persistent)
    if (std::optional<std::string> why = whyNotPersistent(kernel))
      return kernel.emitOpError("tile.persistent: ") << *why;

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
  // Tensor maps of TMA K loops: trailing params, each a generic pointer to a
  // by-value CUtensorMap (kbench-nvvm-grid-constant-params makes them
  // byval grid constants once the function is an llvm.func).
  SmallVector<TmaDescriptorRequest> tmaRequests =
      collectTmaDescriptors(kernel, knobs->numWarps);
  unsigned firstTmaArg = argTypes.size();
  for (size_t i = 0; i < tmaRequests.size(); ++i)
    argTypes.push_back(LLVM::LLVMPointerType::get(ctx));
  b.setInsertionPointToEnd(module.getBody());
  auto func = gpu::GPUFuncOp::create(b, loc, kernel.getSymName(),
                                     FunctionType::get(ctx, argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  // The tensor-core rules read it while the body's ops are lowered here.
  if (kernel->hasAttr(tile::kAllowTf32AttrName))
    func->setAttr(tile::kAllowTf32AttrName, b.getUnitAttr());
  if (!tmaRequests.empty())
    describeTmaDescriptorArgs(func, abi, tmaRequests, firstTmaArg);
  // The backend reports it; the compile driver sizes the launch by it.
  if (persistent)
    func->setAttr(tile::kPersistentAttrName, b.getUnitAttr());
  int32_t blockSize = tile::getLaunchBlockSize(kernel);
  func.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({blockSize, 1, 1}));
  // setmaxnreg needs the kernel's own limit, low enough that the CTA fits
  // the register file at launch (TmaRules.h).
  if (context.warpSpecialized)
    func->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                  b.getI32IntegerAttr(
                      getWarpSpecializedRegisters(knobs->numWarps).kernel));
  // ptxas keeps the registers per thread low enough that this many CTAs fit
  // an SM (PTX .minnctapersm with the .reqntid of the block size above).
  if (knobs->minCtasPerSm > 1)
    func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  b.getI32IntegerAttr(knobs->minCtasPerSm));
  Block &entry = func.getBody().front();
  b.setInsertionPointToStart(&entry);

  // Prologue: dims, memrefs, scalars, thread ids. Every kernel argument is
  // replaced by its device value; a memref argument by its global memref,
  // whose extents and facts the patterns find in context.globalArgs.
  llvm::StringMap<Value> dimArgs, dimValues;
  for (auto [param, arg] : llvm::zip(abi, entry.getArguments()))
    if (param.kind == tile::KernelParam::Kind::Dim) {
      dimArgs[param.name] = arg;
      dimValues[param.name] =
          arith::IndexCastOp::create(b, loc, b.getIndexType(), arg);
    }
  SmallVector<std::pair<BlockArgument, Value>> replacements;
  for (auto [param, arg] : llvm::zip(abi, entry.getArguments())) {
    if (param.argIndex < 0)
      continue;
    BlockArgument kernelArg = kernel.getArgument(param.argIndex);
    if (param.kind == tile::KernelParam::Kind::Memref) {
      SmallVector<Value> extents;
      GlobalArg global;
      global.pointer = arg;
      for (const std::string &dim : param.dims) {
        extents.push_back(dimArgs.lookup(dim));
        global.dims.push_back(dimValues.lookup(dim));
        global.multiples.push_back(multiples.lookup(dim) ? multiples.lookup(dim)
                                                         : 1);
      }
      if (extents.empty() || llvm::is_contained(extents, Value())) {
        func.erase();
        return kernel.emitOpError("memref argument #")
               << param.argIndex << " needs one `tile.dims` name per axis; "
               << "rank-0 memrefs are not supported by tile-to-gpu";
      }
      Value memref = buildGlobalMemref(b, loc, arg, extents, param.type);
      context.globalArgs[memref] = std::move(global);
      replacements.push_back({kernelArg, memref});
    } else if (param.type.isIndex()) {
      replacements.push_back({kernelArg, arith::IndexCastOp::create(
                                             b, loc, b.getIndexType(), arg)});
    } else {
      replacements.push_back({kernelArg, arg});
    }
  }
  for (auto [i, request] : llvm::enumerate(tmaRequests)) {
    auto it = llvm::find_if(
        replacements, [argIndex = request.argIndex](const auto &replacement) {
          return replacement.first.getArgNumber() == argIndex;
        });
    context.tmaDescriptors.push_back(
        {it->second, request.box,
         entry.getArgument(firstTmaArg + static_cast<unsigned>(i))});
  }
  context.emitPrologue(b);

  // The body moves into the function after the prologue, then converts.
  for (auto [kernelArg, value] : replacements)
    kernelArg.replaceAllUsesWith(value);
  entry.getOperations().splice(entry.end(), body.getOperations());
  scf::ForOp tileLoop;
  if (persistent)
    tileLoop = wrapInTileLoop(b, context, entry);
  TileTypeConverter converter;
  RewritePatternSet patterns(ctx);
  populateTileToGPUPatterns(converter, context, patterns);
  ConversionTarget target(*ctx);
  // Legal once lowered; otherwise of unknown legality rather than illegal, so
  // that an op the patterns refuse (they have reported why) or do not know
  // (reported below) does not get the driver's generic error as well.
  target.markUnknownOpDynamicallyLegal(
      [](Operation *op) -> std::optional<bool> {
        if (isLowered(op))
          return true;
        return std::nullopt;
      });
  ConversionConfig config;
  // The patterns see the ops as written: folding a tile op or an
  // elementwise op on constant tiles first would change what they lower.
  config.foldingMode = DialectConversionFoldingMode::Never;
  DenseSet<Operation *> unlowered;
  config.unlegalizedOps = &unlowered;
  if (failed(
          applyPartialConversion(func, target, std::move(patterns), config)) ||
      context.hadError) {
    func.erase();
    return failure();
  }
  if (!unlowered.empty()) {
    // The first op in program order that no pattern lowered.
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!unlowered.contains(op))
        return WalkResult::advance();
      emitUnsupported(op);
      return WalkResult::interrupt();
    });
    func.erase();
    return failure();
  }
  // A prefetching loop handed its next copies or its ping-pong arrival to
  // the tile.mma of its first wgmma group (OperandPrefetch.cpp); that op's
  // pattern must have emitted them, or the loop would read stages nothing
  // filled or wait for a turn nobody hands over.
  if (!context.afterGroupCommit.empty()) {
    context.afterGroupCommit.begin()->first->emitOpError(
        "tile-to-gpu: the operand prefetch's copies or ping-pong arrival "
        "were not emitted after this op's wgmma group (a lowering defect; "
        "please report it)");
    func.erase();
    return failure();
  }
  context.prologueEnd->erase();
  if (knobs->fastMath)
    applyFastMath(func);
  if (tileLoop)
    sinkIntoTileLoop(entry, tileLoop);

  // Shared memory: static up to 48 KB, dynamic beyond.
  Value sharedBase = context.sharedBase;
  if (sharedBase && context.sharedAlignment > 16)
    alignSharedBase(b, context);
  int64_t sharedBytes = context.sharedBytes;
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
      ok &= succeeded(lowerKernel(kernel, gpuModule));
    if (!ok)
      return signalPassFailure();
    for (tile::KernelOp kernel : kernels)
      kernel.erase();
    // Host-level launch sequences stay with the tile IR (the bundle writer
    // records them); this module is device code only.
    for (func::FuncOp host :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (host.walk([](tile::LaunchOp) { return WalkResult::interrupt(); })
              .wasInterrupted())
        host.erase();
  }
};
} // namespace
