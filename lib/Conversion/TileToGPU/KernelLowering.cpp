//===- KernelLowering.cpp - The walk over a kernel body --------------------===//
//
// Walks the kernel body in order and dispatches every op to its lowering.
// Also holds control flow (scf.for / scf.if with tile values), elementwise
// ops, the grid and the shared helpers of KernelLowering.h.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"
#include "kbench/Conversion/TileToGPU/Pipelining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

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

void KernelLowering::barrier() { gpu::BarrierOp::create(b, kernel.getLoc()); }

VectorType KernelLowering::vectorType(const Layout &layout, Type elementType) {
  return VectorType::get({layout.numElements()}, elementType);
}

Layout KernelLowering::layoutOf(Value v) const {
  return *getLayout(cast<RankedTensorType>(v.getType()));
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
  if (layout.numElements() <= kSm90aLimits.maxElementsPerThread)
    return success();
  // The type as the kernel spells it, without the layout encoding.
  return op->emitOpError("tile ")
         << RankedTensorType::get(type.getShape(), type.getElementType())
         << " needs " << layout.numElements()
         << " elements per thread with num_warps = " << numWarps
         << "; at most " << kSm90aLimits.maxElementsPerThread
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
  if (auto x = dyn_cast<tile::ExtentOp>(op))
    return lowerExtent(x);
  if (auto x = dyn_cast<tile::TileSizeOp>(op))
    return lowerTileSize(x);
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
  if (auto x = dyn_cast<tile::ConvertLayoutOp>(op))
    return lowerConvertLayout(x);
  if (isa<tile::ReturnOp>(op)) {
    gpu::ReturnOp::create(b, op->getLoc());
    return success();
  }
  if (isa<scf::ForOp, scf::IfOp>(op) &&
      llvm::any_of(op->getResultTypes(), llvm::IsaPred<tile::PartitionType>))
    return op->emitOpError("carries a tile view (!tile.part) through control "
                           "flow; tile-to-gpu needs every view to be a "
                           "tile.partition of the kernel body");
  if (auto x = dyn_cast<scf::ForOp>(op)) {
    int64_t stages = getPipelineStages(x);
    if (stages == 1)
      return lowerFor(x);
    if (stages != 2 || !isPipelinableMmaLoop(x, numWarps))
      return x.emitOpError(kPipelineStagesAttrName)
             << " = " << stages << " is not supported: tile-to-gpu "
             << "pipelines with 2 stages a K loop whose body only loads the "
             << "two operands of one simt tile.mma accumulating into the "
             << "loop's single iter_arg";
    return lowerPipelinedMmaLoop(x);
  }
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
      Layout layout = layoutOf(result);
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
      Layout layout = layoutOf(result);
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
  Layout layout = layoutOf(anchor);
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

LogicalResult KernelLowering::lowerConvertLayout(tile::ConvertLayoutOp op) {
  tiles[op.getResult()] = tileOf(op.getInput(), layoutOf(op.getResult()));
  return success();
}

LogicalResult KernelLowering::lowerConstant(arith::ConstantOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!dense || !dense.isSplat())
    return op.emitOpError("non-splat tile constants are not supported by "
                          "tile-to-gpu; build the tile with tile.iota, "
                          "tile.splat and arith ops");
  Layout layout = layoutOf(op.getResult());
  if (failed(checkRegisterBudget(op, type, layout)))
    return failure();
  VectorType vt = vectorType(layout, type.getElementType());
  Value vec = arith::ConstantOp::create(
      b, op.getLoc(), vt,
      DenseElementsAttr::get(vt, dense.getSplatValue<Attribute>()));
  tiles[op.getResult()] = {vec, layout};
  return success();
}

