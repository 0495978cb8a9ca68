//===- KernelLowering.cpp - tile.kernel to gpu.func, the walk -------------===//
//
// Builds the gpu.func of one kernel with the bundle ABI (docs/bundle.md),
// then walks the kernel body in order and dispatches every op to its
// lowering. Also holds control flow (scf.for / scf.if with tile values),
// elementwise ops, the grid and the shared helpers of KernelLowering.h, and
// the tile-to-gpu pass itself.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "kbench/Conversion/TileToGPU/Passes.h"
#include "kbench/Dialect/Tile/IR/KernelABI.h"
#include "kbench/Support/ShapeExpr.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/MathExtras.h"

namespace kbench {
#define GEN_PASS_DEF_TILETOGPU
#include "kbench/Conversion/TileToGPU/Passes.h.inc"
} // namespace kbench

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

KernelLowering::KernelLowering(tile::KernelOp kernel, gpu::GPUModuleOp module)
    : kernel(kernel), module(module), b(kernel.getContext()) {}

Value KernelLowering::constIndex(int64_t value) {
  Value &cached = indexConstants[value];
  if (!cached) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(prologueEnd);
    cached = arith::ConstantIndexOp::create(b, kernel.getLoc(), value);
  }
  return cached;
}

Value KernelLowering::threadCoord(const DimLayout &dim) {
  auto key = std::make_tuple(dim.lanes, dim.laneStride, dim.warps,
                             dim.warpStride);
  Value &cached = coords[key];
  if (cached)
    return cached;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(prologueEnd);
  Location loc = kernel.getLoc();
  auto part = [&](Value id, int64_t count, int64_t stride) -> Value {
    if (count == 1)
      return constIndex(0);
    Value v = id;
    if (stride > 1)
      v = arith::DivUIOp::create(b, loc, v, constIndex(stride));
    if (count * stride < (id == laneId ? 32 : numWarps))
      v = arith::RemUIOp::create(b, loc, v, constIndex(count));
    return v;
  };
  Value lane = part(laneId, dim.lanes, dim.laneStride);
  Value warp = part(warpId, dim.warps, dim.warpStride);
  if (dim.warps == 1)
    cached = lane;
  else if (dim.lanes == 1)
    cached = warp;
  else
    cached = arith::AddIOp::create(
        b, loc, lane,
        arith::MulIOp::create(b, loc, warp, constIndex(dim.lanes)));
  return cached;
}

Value KernelLowering::ownerPredicate(const Layout &layout) {
  int64_t laneReplicas = 31 & ~layout.usedLaneMask();
  int64_t warpReplicas = (numWarps - 1) & ~layout.usedWarpMask();
  Location loc = kernel.getLoc();
  Value owner;
  auto require = [&](Value id, int64_t mask) {
    if (!mask)
      return;
    Value bits = arith::AndIOp::create(b, loc, id, constIndex(mask));
    Value zero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, bits,
                                       constIndex(0));
    owner = owner ? arith::AndIOp::create(b, loc, owner, zero) : zero;
  };
  require(laneId, laneReplicas);
  require(warpId, warpReplicas);
  return owner;
}

Value KernelLowering::barrier() {
  gpu::BarrierOp::create(b, kernel.getLoc());
  return {};
}

VectorType KernelLowering::vectorType(const Layout &layout, Type elementType) {
  return VectorType::get({layout.numElements()}, elementType);
}

TileValue KernelLowering::tileOf(Value v) { return tiles.lookup(v); }

TileValue KernelLowering::tileOf(Value v, const Layout &layout) {
  return convert(tiles.lookup(v), layout);
}

bool KernelLowering::inLoop(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent && parent != kernel;
       parent = parent->getParentOp())
    if (isa<scf::ForOp, scf::WhileOp>(parent))
      return true;
  return false;
}

LogicalResult KernelLowering::checkRegisterBudget(Operation *op,
                                                  RankedTensorType type,
                                                  const Layout &layout) {
  if (layout.numElements() <= kMaxElementsPerThread)
    return success();
  return op->emitOpError("tile ")
         << type << " needs " << layout.numElements()
         << " elements per thread with num_warps = " << numWarps
         << "; at most " << kMaxElementsPerThread
         << " fit the SIMT lowering: lower the tile sizes or raise num_warps";
}

int64_t KernelLowering::knownMultiple(StringRef dimName) const {
  return multiples.lookup(dimName) ? multiples.lookup(dimName) : 1;
}

TypedAttr kbench::gpu_lowering::getPadAttr(tile::PadKind kind, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    switch (kind) {
    case tile::PadKind::neg_inf:
      return FloatAttr::get(type, APFloat::getInf(sem, /*Negative=*/true));
    case tile::PadKind::pos_inf:
      return FloatAttr::get(type, APFloat::getInf(sem));
    case tile::PadKind::nan:
      return FloatAttr::get(type, APFloat::getQNaN(sem));
    default:
      return FloatAttr::get(type, APFloat::getZero(sem));
    }
  }
  return IntegerAttr::get(type, 0);
}

Value kbench::gpu_lowering::combine(OpBuilder &b, Location loc,
                                    tile::ReduceKind kind, Value lhs,
                                    Value rhs) {
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(lhs.getType()));
  switch (kind) {
  case tile::ReduceKind::add:
    return isFloat ? (Value)arith::AddFOp::create(b, loc, lhs, rhs)
                   : (Value)arith::AddIOp::create(b, loc, lhs, rhs);
  case tile::ReduceKind::mul:
    return isFloat ? (Value)arith::MulFOp::create(b, loc, lhs, rhs)
                   : (Value)arith::MulIOp::create(b, loc, lhs, rhs);
  case tile::ReduceKind::max:
    return isFloat ? (Value)arith::MaximumFOp::create(b, loc, lhs, rhs)
                   : (Value)arith::MaxSIOp::create(b, loc, lhs, rhs);
  case tile::ReduceKind::min:
    return isFloat ? (Value)arith::MinimumFOp::create(b, loc, lhs, rhs)
                   : (Value)arith::MinSIOp::create(b, loc, lhs, rhs);
  }
  return {};
}

//===----------------------------------------------------------------------===//
// The kernel: knobs, ABI, prologue, shared memory
//===----------------------------------------------------------------------===//

/// Reads `dim % c == 0` facts (params substituted) into `multiples`.
static void collectMultiples(tile::KernelOp kernel,
                             llvm::StringMap<int64_t> &multiples) {
  ArrayAttr facts = kernel.getRequiresAttr();
  if (!facts)
    return;
  SymbolValues params;
  if (DictionaryAttr dict = kernel.getParamsAttr())
    for (NamedAttribute param : dict)
      if (auto value = dyn_cast<IntegerAttr>(param.getValue()))
        params[param.getName().str()] = value.getInt();
  for (Attribute attr : facts) {
    auto text = dyn_cast<StringAttr>(attr);
    std::string error;
    std::optional<ShapeFact> fact =
        text ? ShapeFact::parse(text.str(), error) : std::nullopt;
    if (!fact || fact->getRelation() != ShapeFact::Relation::EQ)
      continue;
    ShapeFact bound = fact->substitute(params);
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

  // Knobs.
  numWarps = kernel.getParamValue("num_warps").value_or(4);
  if (numWarps < 1 || numWarps > 32 || !llvm::isPowerOf2_64(numWarps))
    return kernel.emitOpError("num_warps = ")
           << numWarps << " is not supported by tile-to-gpu: it must be a "
           << "power of two from 1 to 32 (at most 1024 threads per CTA)";
  vectorWidth = kernel.getParamValue("vector_width").value_or(1);
  if (vectorWidth < 1 || vectorWidth > 16 || !llvm::isPowerOf2_64(vectorWidth))
    return kernel.emitOpError("vector_width = ")
           << vectorWidth << " is not supported by tile-to-gpu: it must be "
           << "a power of two from 1 to 16";
  // Params are positive integers (the kernel verifier checks it).
  groupM = kernel.getParamValue("group_m").value_or(1);
  collectMultiples(kernel, multiples);
  plan = std::make_unique<LayoutPlan>(kernel, numWarps, vectorWidth);

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
  if (sharedBytes > kMaxSharedMemory) {
    func.erase();
    return kernel.emitOpError("needs ")
           << sharedBytes << " bytes of shared memory (staging and scratch "
           << "buffers); sm_90a allows " << kMaxSharedMemory
           << " per CTA: lower the tile sizes (BM, BN, BK) or the number of "
           << "reductions and layout conversions";
  }
  if (sharedBase && sharedBytes <= kMaxStaticSharedMemory) {
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
// The walk
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::lowerBlock(Block &block) {
  for (Operation &op : block) {
    if (isa<scf::YieldOp>(op))
      continue; // emitted by the parent's lowering
    if (failed(lowerOp(&op)))
      return failure();
  }
  return success();
}

static bool touchesTiles(Operation *op) {
  auto isTensor = [](Type t) { return isa<RankedTensorType>(t); };
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

LogicalResult KernelLowering::lowerOp(Operation *op) {
  currentOp = op;
  if (auto x = dyn_cast<tile::PartitionOp>(op))
    return lowerPartition(x);
  if (auto x = dyn_cast<tile::GridOp>(op))
    return lowerGrid(x);
  if (auto x = dyn_cast<tile::NumTilesOp>(op))
    return lowerNumTiles(x);
  if (auto x = dyn_cast<tile::LoadOp>(op))
    return lowerLoad(x);
  if (auto x = dyn_cast<tile::StoreOp>(op))
    return lowerStore(x);
  if (auto x = dyn_cast<tile::AtomicAddOp>(op))
    return lowerAtomicAdd(x);
  if (auto x = dyn_cast<tile::ReduceOp>(op))
    return lowerReduce(x);
  if (auto x = dyn_cast<tile::BroadcastOp>(op))
    return lowerBroadcast(x);
  if (auto x = dyn_cast<tile::MmaOp>(op))
    return lowerMma(x);
  if (auto x = dyn_cast<tile::TransposeOp>(op))
    return lowerTranspose(x);
  if (auto x = dyn_cast<tile::ExpandDimsOp>(op))
    return lowerExpandDims(x);
  if (auto x = dyn_cast<tile::IotaOp>(op))
    return lowerIota(x);
  if (auto x = dyn_cast<tile::SplatOp>(op))
    return lowerSplat(x);
  if (isa<tile::ReturnOp>(op)) {
    gpu::ReturnOp::create(b, op->getLoc());
    return success();
  }
  if (auto x = dyn_cast<scf::ForOp>(op))
    return isPipelinableMmaLoop(x) ? lowerPipelinedMmaLoop(x) : lowerFor(x);
  if (auto x = dyn_cast<scf::IfOp>(op))
    return lowerIf(x);
  if (auto x = dyn_cast<arith::ConstantOp>(op);
      x && isa<RankedTensorType>(x.getType()))
    return lowerConstant(x);
  if (touchesTiles(op)) {
    if (OpTrait::hasElementwiseMappableTraits(op))
      return lowerElementwise(op);
  } else if (op->getNumRegions() == 0 &&
             isa<arith::ArithDialect, math::MathDialect, index::IndexDialect,
                 ub::UBDialect>(op->getDialect())) {
    b.clone(*op, scalars);
    return success();
  }
  return op->emitOpError("is not supported by tile-to-gpu (the SIMT "
                         "lowering handles tile ops, elementwise arith/math "
                         "on tiles, scalar arith/math/index, scf.for and "
                         "scf.if)");
}

LogicalResult KernelLowering::lowerGrid(tile::GridOp op) {
  Location loc = op.getLoc();
  static constexpr gpu::Dimension axes[] = {
      gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z};
  SmallVector<Value> ids;
  for (unsigned i = 0, e = op.getNumResults(); i < e; ++i)
    ids.push_back(gpu::BlockIdOp::create(b, loc, axes[i]));
  if (groupM > 1 && ids.size() >= 2) {
    // Grouped order (bijective): consecutive blocks walk groups of group_m
    // tiles along result 0 before moving along result 1, so neighbours share
    // operand tiles in L2.
    Value gx = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
    Value gy = gpu::GridDimOp::create(b, loc, gpu::Dimension::y);
    Value g = constIndex(groupM);
    Value pid = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, ids[1], gx), ids[0]);
    Value width = arith::MulIOp::create(b, loc, g, gy);
    Value group = arith::DivUIOp::create(b, loc, pid, width);
    Value first = arith::MulIOp::create(b, loc, group, g);
    Value size = arith::MinUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, gx, first), g);
    Value inGroup = arith::RemUIOp::create(b, loc, pid, width);
    ids[0] = arith::AddIOp::create(
        b, loc, first, arith::RemUIOp::create(b, loc, inGroup, size));
    ids[1] = arith::DivUIOp::create(b, loc, inGroup, size);
  }
  for (auto [result, id] : llvm::zip(op.getResults(), ids))
    scalars.map(result, id);
  return success();
}

LogicalResult KernelLowering::lowerFor(scf::ForOp op) {
  Location loc = op.getLoc();
  SmallVector<Value> inits;
  SmallVector<std::optional<Layout>> layouts;
  for (auto [init, result] : llvm::zip(op.getInitArgs(), op.getResults())) {
    if (isa<RankedTensorType>(init.getType())) {
      Layout layout = plan->get(result);
      layouts.push_back(layout);
      inits.push_back(tileOf(init, layout).vec);
    } else {
      layouts.push_back(std::nullopt);
      inits.push_back(scalars.lookup(init));
    }
  }
  auto newFor = scf::ForOp::create(
      b, loc, scalars.lookup(op.getLowerBound()),
      scalars.lookup(op.getUpperBound()), scalars.lookup(op.getStep()), inits);
  Block *body = newFor.getBody();
  if (!body->empty())
    body->getTerminator()->erase();
  scalars.map(op.getInductionVar(), newFor.getInductionVar());
  for (auto [arg, newArg, layout] :
       llvm::zip(op.getRegionIterArgs(), newFor.getRegionIterArgs(), layouts)) {
    if (layout)
      tiles[arg] = {newArg, *layout};
    else
      scalars.map(arg, newArg);
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(body);
  if (failed(lowerBlock(*op.getBody())))
    return failure();
  SmallVector<Value> yields;
  for (auto [v, layout] :
       llvm::zip(op.getBody()->getTerminator()->getOperands(), layouts))
    yields.push_back(layout ? tileOf(v, *layout).vec : scalars.lookup(v));
  scf::YieldOp::create(b, loc, yields);
  for (auto [result, newResult, layout] :
       llvm::zip(op.getResults(), newFor.getResults(), layouts)) {
    if (layout)
      tiles[result] = {newResult, *layout};
    else
      scalars.map(result, newResult);
  }
  return success();
}

LogicalResult KernelLowering::lowerIf(scf::IfOp op) {
  Location loc = op.getLoc();
  SmallVector<Type> types;
  SmallVector<std::optional<Layout>> layouts;
  for (Value result : op.getResults()) {
    if (auto type = dyn_cast<RankedTensorType>(result.getType())) {
      Layout layout = plan->get(result);
      layouts.push_back(layout);
      types.push_back(vectorType(layout, type.getElementType()));
    } else {
      layouts.push_back(std::nullopt);
      types.push_back(result.getType());
    }
  }
  bool hasElse = !op.getElseRegion().empty();
  auto newIf = scf::IfOp::create(b, loc, types,
                                 scalars.lookup(op.getCondition()), hasElse);
  SmallVector<std::pair<Region *, Region *>> regions = {
      {&op.getThenRegion(), &newIf.getThenRegion()}};
  if (hasElse)
    regions.push_back({&op.getElseRegion(), &newIf.getElseRegion()});
  for (auto [from, to] : regions) {
    Block *block = &to->front();
    if (!block->empty())
      block->getTerminator()->erase();
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(block);
    if (failed(lowerBlock(from->front())))
      return failure();
    SmallVector<Value> yields;
    for (auto [v, layout] :
         llvm::zip(from->front().getTerminator()->getOperands(), layouts))
      yields.push_back(layout ? tileOf(v, *layout).vec : scalars.lookup(v));
    scf::YieldOp::create(b, loc, yields);
  }
  for (auto [result, newResult, layout] :
       llvm::zip(op.getResults(), newIf.getResults(), layouts)) {
    if (layout)
      tiles[result] = {newResult, *layout};
    else
      scalars.map(result, newResult);
  }
  return success();
}

LogicalResult KernelLowering::lowerElementwise(Operation *op) {
  Value anchor = op->getNumResults() ? op->getResult(0) : Value();
  if (!anchor || !isa<RankedTensorType>(anchor.getType()))
    return op->emitOpError("has no tile result; tile-to-gpu lowers "
                           "elementwise ops whose results are tiles");
  Layout layout = plan->get(anchor);
  if (failed(checkRegisterBudget(op, cast<RankedTensorType>(anchor.getType()),
                                 layout)))
    return failure();
  SmallVector<Value> operands;
  for (Value operand : op->getOperands())
    operands.push_back(isa<RankedTensorType>(operand.getType())
                           ? tileOf(operand, layout).vec
                           : scalars.lookup(operand));
  SmallVector<Type> types;
  for (Type type : op->getResultTypes())
    types.push_back(
        vectorType(layout, cast<RankedTensorType>(type).getElementType()));
  OperationState state(op->getLoc(), op->getName(), operands, types,
                       op->getAttrs());
  Operation *newOp = b.create(state);
  for (auto [result, newResult] :
       llvm::zip(op->getResults(), newOp->getResults()))
    tiles[result] = {newResult, layout};
  return success();
}

LogicalResult KernelLowering::lowerConstant(arith::ConstantOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!dense || !dense.isSplat())
    return op.emitOpError("non-splat tile constants are not supported by "
                          "tile-to-gpu; build the tile with tile.iota, "
                          "tile.splat and arith ops");
  Layout layout = plan->get(op.getResult());
  if (failed(checkRegisterBudget(op, type, layout)))
    return failure();
  VectorType vt = vectorType(layout, type.getElementType());
  Value vec = arith::ConstantOp::create(
      b, op.getLoc(), vt,
      DenseElementsAttr::get(vt, dense.getSplatValue<Attribute>()));
  tiles[op.getResult()] = {vec, layout};
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
