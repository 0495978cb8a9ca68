//===- EpilogueRules.cpp - Which stores a staged epilogue takes -----------===//

#include "kbench/Conversion/TileToGPU/EpilogueRules.h"
#include "kbench/Conversion/TileToGPU/TmaRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

/// Whether `value` is a tile.mma result, directly or as the result of an
/// scf.for whose body yields one for it (the K loop of a matmul).
static bool isMmaResult(Value value) {
  if (value.getDefiningOp<tile::MmaOp>())
    return true;
  auto result = dyn_cast<OpResult>(value);
  auto loop = result ? dyn_cast<scf::ForOp>(result.getOwner()) : nullptr;
  if (!loop)
    return false;
  Value yielded =
      loop.getBody()->getTerminator()->getOperand(result.getResultNumber());
  return bool(yielded.getDefiningOp<tile::MmaOp>());
}

/// Whether `op` is a splat tile constant.
static bool isSplatTile(Operation *op) {
  auto constant = dyn_cast<arith::ConstantOp>(op);
  if (!constant || !isa<RankedTensorType>(constant.getType()))
    return false;
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  return dense && dense.isSplat();
}

/// Whether `op` is an elementwise arith/math op whose operands and results
/// are all tiles of `shape`.
static bool isElementwiseOnTiles(Operation *op, ArrayRef<int64_t> shape) {
  if (!OpTrait::hasElementwiseMappableTraits(op) ||
      !isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
      op->getNumResults() != 1)
    return false;
  auto isTile = [&](Type type) {
    auto tile = dyn_cast<RankedTensorType>(type);
    return tile && tile.getShape() == shape;
  };
  return llvm::all_of(op->getOperandTypes(), isTile) &&
         llvm::all_of(op->getResultTypes(), isTile);
}

std::optional<StagedEpilogue>
kbench::gpu_lowering::getStagedEpilogue(tile::StoreOp store, std::string &why) {
  StagedEpilogue epilogue;
  // Unit dims in front of a 2-D chain (a [1, BM, BN] tile of a batched
  // output) are only an indexing matter for the store.
  Value storedValue = store.getValue();
  while (cast<RankedTensorType>(storedValue.getType()).getRank() > 2) {
    auto expand = storedValue.getDefiningOp<tile::ExpandDimsOp>();
    if (!expand || expand.getDim() != 0 ||
        expand->getBlock() != store->getBlock()) {
      why = "a staged epilogue stores 2-D tiles, or 2-D tiles with unit dims "
            "put in front by tile.expand_dims dim 0 in the block of the "
            "store, and this tile.store stores a rank-" +
            std::to_string(
                cast<RankedTensorType>(store.getValue().getType()).getRank()) +
            " tile made otherwise";
      return std::nullopt;
    }
    ++epilogue.leadingUnitDims;
    storedValue = expand.getInput();
  }
  auto stored = cast<RankedTensorType>(storedValue.getType());
  if (stored.getRank() != 2) {
    why = "a staged epilogue stores 2-D tiles, and this tile.store stores a "
          "rank-" +
          std::to_string(stored.getRank()) + " tile";
    return std::nullopt;
  }
  ArrayRef<int64_t> shape = stored.getShape();
  epilogue.stored = storedValue;
  llvm::SetVector<Operation *> chain;
  llvm::SetVector<Value> sources;
  SmallVector<Value> worklist{storedValue};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    Operation *def = value.getDefiningOp();
    if (def && isSplatTile(def)) {
      if (!llvm::is_contained(epilogue.constants, def))
        epilogue.constants.push_back(cast<arith::ConstantOp>(def));
      continue;
    }
    if (auto broadcast = dyn_cast_or_null<tile::BroadcastOp>(def)) {
      auto input = cast<RankedTensorType>(broadcast.getInput().getType());
      ArrayRef<int64_t> dims = broadcast.getDims();
      if (input.getRank() == 1 && dims.size() == 1 &&
          cast<RankedTensorType>(broadcast.getType()).getShape() == shape) {
        epilogue.broadcasts.push_back(broadcast);
        continue;
      }
    }
    // tile-assign-layouts may have put a conversion between the chain's
    // values; the staged chain reads every value in its own layout anyway.
    if (auto convert = dyn_cast_or_null<tile::ConvertLayoutOp>(def)) {
      chain.insert(def);
      worklist.push_back(convert.getInput());
      continue;
    }
    if (auto load = dyn_cast_or_null<tile::LoadOp>(def);
        load && load.getType().getShape() == shape &&
        cast<tile::PartitionType>(load.getView().getType()).getShape() ==
            shape) {
      epilogue.loads.push_back(load);
      continue;
    }
    if (def && isElementwiseOnTiles(def, shape)) {
      chain.insert(def);
      for (Value operand : def->getOperands())
        worklist.push_back(operand);
      continue;
    }
    sources.insert(value);
  }
  if (sources.empty()) {
    why = "the stored tile reads no tile.mma result, only loads and "
          "constants (a staged epilogue serves matmul results, whose "
          "accumulator layout is not the store's)";
    return std::nullopt;
  }
  if (sources.size() != 1) {
    why = "the stored tile must be an elementwise chain (arith and math ops, "
          "splat constants, broadcasts of a row or a column vector, loads of "
          "tiles of its shape) over exactly one other tile, and it reaches " +
          std::to_string(sources.size()) + " tiles";
    return std::nullopt;
  }
  epilogue.source = sources.front();
  if (!isMmaResult(epilogue.source)) {
    why = "the chain of the stored tile starts from a tile that no tile.mma "
          "produced (a staged epilogue serves matmul results, whose "
          "accumulator layout is not the store's)";
    return std::nullopt;
  }
  // Definitions before uses: the chain's ops sit in one block, in order.
  epilogue.chain = chain.takeVector();
  Block *block = store->getBlock();
  for (Operation *op : epilogue.chain)
    if (op->getBlock() != block) {
      why = "the elementwise ops of the stored tile's chain must sit in the "
            "block of the tile.store";
      return std::nullopt;
    }
  llvm::sort(epilogue.chain,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return epilogue;
}

//===----------------------------------------------------------------------===//
// TMA stores
//===----------------------------------------------------------------------===//

SmallVector<int64_t> kbench::gpu_lowering::getTmaStoreBox(tile::StoreOp store) {
  auto view = cast<tile::PartitionType>(store.getView().getType());
  int64_t bytes = view.getElementType().getIntOrFloatBitWidth() / 8;
  return {view.getShape()[0], kTmaStoreBoxRowBytes / bytes};
}

std::optional<std::string>
kbench::gpu_lowering::whyNotTmaStore(tile::StoreOp store) {
  if (!store->hasAttr(kStagedEpilogueAttrName))
    return std::string(
        "tile.tma_store writes the output of a staged epilogue from shared "
        "memory, and this tile.store is not staged; apply "
        "transform.tile.stage_epilogue 1 first");
  auto view = cast<tile::PartitionType>(store.getView().getType());
  if (view.getRank() != 2)
    return llvm::formatv("tile.tma_store writes rank-2 tiles through rank-2 "
                         "tensor maps, and this tile.store's view has rank "
                         "{0}",
                         view.getRank())
        .str();
  if (!getPartitionedKernelArg(store.getView()))
    return std::string(
        "tile.tma_store writes through a tensor map of a kernel argument, "
        "and this tile.store's view is not a tile.partition of one");
  Type element = view.getElementType();
  if (!element.isF32() && !element.isBF16() && !element.isF16())
    return llvm::formatv("tile.tma_store writes f32, bf16 or f16 tiles, and "
                         "this one is {0}",
                         element)
        .str();
  SmallVector<int64_t> box = getTmaStoreBox(store);
  int64_t rows = view.getShape()[0], cols = view.getShape()[1];
  if (rows > 256)
    return llvm::formatv("tile.tma_store writes boxes of at most 256 rows, "
                         "and the stored tile has {0}; lower the tile's rows",
                         rows)
        .str();
  if (cols % box[1] != 0)
    return llvm::formatv("tile.tma_store writes boxes of {0} bytes of a row "
                         "({1} columns of {2}), and the stored tile has {3} "
                         "columns; make them a multiple of {1}",
                         kTmaStoreBoxRowBytes, box[1], element, cols)
        .str();
  return std::nullopt;
}
