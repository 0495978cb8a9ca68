//===- KernelLowering.h - State of lowering one tile.kernel ------*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU. The SIMT lowering is a walk over the
// kernel body that emits into a gpu.func. Every tile value carries its layout
// in its type (the #tile.blocked encoding written by tile-assign-layouts,
// AssignLayouts.cpp) and maps to one per-thread vector; scalars and indices
// map through an IRMapping. Layout changes are explicit tile.convert_layout
// ops; the walk does not decide layouts.
//
// The methods are split by concept: TileToGPU.cpp (the pass, the ABI and the
// prologue), KernelLowering.cpp (the walk, control flow, elementwise ops),
// MemoryLowering.cpp (partitions, loads, stores, shared memory, layout
// conversions), ReduceLowering.cpp (reduce, broadcast and the shape ops) and
// MmaLowering.cpp (tile.mma, impl = simt). Knobs.h holds the knobs and
// limits, Layout.h the layouts, LayoutPlan.h the assignment's analysis.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_KERNELLOWERING_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_KERNELLOWERING_H

#include "Knobs.h"
#include "Layout.h"

#include "kbench/Dialect/Tile/IR/Tile.h"
#include "kbench/Support/KernelConfig.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <tuple>

namespace kbench::gpu_lowering {

// Shared-memory and per-thread limits: kSm90aLimits (KernelConfig.h).

/// A tile held by the threads: one vector per thread and its layout.
struct TileValue {
  mlir::Value vec;
  Layout layout;
};

/// A partition view: the global memref and what addressing it needs.
struct View {
  mlir::Value memref;
  llvm::SmallVector<mlir::Value> dims;
  llvm::SmallVector<std::string> dimNames;
  llvm::SmallVector<int64_t> tileShape;
  tile::PadKind pad = tile::PadKind::none;
  mlir::Type elementType;
};

/// Lowers one tile.kernel into a gpu.func of `module`.
class KernelLowering {
public:
  KernelLowering(tile::KernelOp kernel, mlir::gpu::GPUModuleOp module);
  /// Emits the gpu.func; on failure an error naming the op and the limit has
  /// been emitted and the partial function erased.
  mlir::LogicalResult run();

  //===--- The walk (KernelLowering.cpp) ---------------------------------===//
  mlir::LogicalResult lowerBlock(mlir::Block &block);
  mlir::LogicalResult lowerOp(mlir::Operation *op);
  mlir::LogicalResult lowerFor(mlir::scf::ForOp op);
  mlir::LogicalResult lowerIf(mlir::scf::IfOp op);
  mlir::LogicalResult lowerElementwise(mlir::Operation *op);
  mlir::LogicalResult lowerConstant(mlir::arith::ConstantOp op);
  mlir::LogicalResult lowerGrid(tile::GridOp op);
  mlir::LogicalResult lowerConvertLayout(tile::ConvertLayoutOp op);

  //===--- Memory (MemoryLowering.cpp) -----------------------------------===//
  mlir::LogicalResult lowerPartition(tile::PartitionOp op);
  /// The view `view` stands for, or null after an error on `op`. Views only
  /// come from tile.partition (lowerOp rejects views carried by control
  /// flow), so this guards an invariant rather than user input.
  const View *lookupView(mlir::Operation *op, mlir::Value view);
  mlir::LogicalResult lowerNumTiles(tile::NumTilesOp op);
  mlir::LogicalResult lowerExtent(tile::ExtentOp op);
  mlir::LogicalResult lowerTileSize(tile::TileSizeOp op);
  mlir::FailureOr<TileValue> emitLoad(tile::LoadOp op, mlir::ValueRange indices,
                                      const Layout &layout);
  mlir::LogicalResult lowerLoad(tile::LoadOp op);
  mlir::LogicalResult lowerStore(tile::StoreOp op);
  mlir::LogicalResult lowerAtomicAdd(tile::AtomicAddOp op);
  /// i1 `dim % divisor == 0`, emitted once per kernel in the prologue: the
  /// run-time alignment check of versioned global accesses.
  mlir::Value divisibleBy(mlir::Value dim, int64_t divisor);
  /// A shared-memory buffer of `count` elements, 16-byte aligned.
  mlir::Value allocShared(mlir::Type elementType, int64_t count);
  /// `value` in layout `to` (through shared memory unless equal).
  TileValue convert(const TileValue &value, const Layout &to);
  /// Writes the elements of `value` into `buffer` at `index(coords)`, one
  /// vector.store per run when `innerContiguous` (the index grows by one
  /// along the innermost dim), else one memref.store per element.
  void storeToShared(const TileValue &value, mlir::Value buffer,
                     llvm::function_ref<mlir::Value(mlir::ValueRange)> index,
                     bool innerContiguous);
  /// Reads a tile in `layout` from `buffer` at `index(coords)`.
  mlir::Value loadFromShared(const Layout &layout, mlir::Type elementType,
                             mlir::Value buffer,
                             llvm::function_ref<mlir::Value(mlir::ValueRange)> index,
                             bool innerContiguous);

  //===--- Compute (ReduceLowering.cpp) ----------------------------------===//
  mlir::LogicalResult lowerReduce(tile::ReduceOp op);
  mlir::LogicalResult lowerBroadcast(tile::BroadcastOp op);
  mlir::LogicalResult lowerTranspose(tile::TransposeOp op);
  mlir::LogicalResult lowerExpandDims(tile::ExpandDimsOp op);
  mlir::LogicalResult lowerIota(tile::IotaOp op);
  mlir::LogicalResult lowerSplat(tile::SplatOp op);

  //===--- tile.mma (MmaLowering.cpp) ------------------------------------===//
  mlir::LogicalResult lowerMma(tile::MmaOp op);
  mlir::LogicalResult lowerPipelinedMmaLoop(mlir::scf::ForOp op);

  //===--- Helpers (KernelLowering.cpp) ----------------------------------===//
  mlir::Value constIndex(int64_t value);
  /// The coordinate t(d) of this thread along a layout dim (hoisted, cached).
  mlir::Value threadCoord(const DimLayout &dim);
  /// i1 that is true on exactly one replica of every element of `layout`,
  /// or null when the layout has no replicas.
  mlir::Value ownerPredicate(const Layout &layout);
  /// A CTA-wide barrier (gpu.barrier).
  void barrier();
  /// The layout of tile value `v`: the `#tile.blocked` encoding of its type
  /// (tile-assign-layouts ran before the walk).
  Layout layoutOf(mlir::Value v) const;
  /// The lowered tile `v` as it was produced.
  TileValue tileOf(mlir::Value v);
  /// The lowered tile `v` in `layout` (converted if needed).
  TileValue tileOf(mlir::Value v, const Layout &layout);
  mlir::VectorType vectorType(const Layout &layout, mlir::Type elementType);
  /// Whether `op` is nested in a loop inside the kernel (its shared-memory
  /// scratch must then be fenced before the next iteration overwrites it).
  bool inLoop(mlir::Operation *op);
  /// Per-thread limit check for a tile value produced by `op`.
  mlir::LogicalResult checkRegisterBudget(mlir::Operation *op,
                                          mlir::RankedTensorType type,
                                          const Layout &layout);
  /// What `requires` facts make dim `dimName` a multiple of (1 if nothing).
  int64_t knownMultiple(llvm::StringRef dimName) const;

  tile::KernelOp kernel;
  mlir::gpu::GPUModuleOp module;
  mlir::gpu::GPUFuncOp func;
  mlir::OpBuilder b;
  /// Hoisted values (constants, thread coordinates, shared-memory views) go
  /// right before this op, which ends the function's prologue.
  mlir::Operation *prologueEnd = nullptr;
  /// The tile op being lowered (its loop nesting decides trailing barriers).
  mlir::Operation *currentOp = nullptr;
  int64_t numWarps = 4, vectorWidth = 1, groupM = 1;

  mlir::IRMapping scalars;
  llvm::DenseMap<mlir::Value, TileValue> tiles;
  llvm::DenseMap<mlir::Value, View> views;
  llvm::StringMap<mlir::Value> dimValues;
  llvm::StringMap<int64_t> multiples;

  mlir::Value threadId, laneId, warpId;
  std::map<std::tuple<int64_t, int64_t, int64_t, int64_t>, mlir::Value> coords;
  llvm::DenseMap<int64_t, mlir::Value> indexConstants;
  llvm::DenseMap<std::pair<mlir::Value, int64_t>, mlir::Value> divisibility;

  /// Shared memory: the byte buffer all allocations are views of, and the
  /// bytes allocated so far.
  mlir::Value sharedBase;
  int64_t sharedBytes = 0;
};

/// The pad value of `kind` for element type `type` as a typed attribute.
mlir::TypedAttr getPadAttr(tile::PadKind kind, mlir::Type type);

/// The arith op combining two values for a reduction kind.
mlir::Value combine(mlir::OpBuilder &b, mlir::Location loc,
                    tile::ReduceKind kind, mlir::Value lhs, mlir::Value rhs);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_KERNELLOWERING_H
