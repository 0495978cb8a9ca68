//===- KernelContext.h - Per-kernel facts of the lowering -------*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU. The conversion patterns of tile-to-gpu
// (Patterns.h) are stateless about values: what a tile value lowered to is
// the converted value the conversion driver hands them (TypeConverter.h).
// What they do share is a handful of facts about the one kernel being
// lowered, gathered here: the knobs, the thread ids, the kernel ABI (the
// global memref of every memref argument, with its extents and what
// `requires` facts say about them), the prologue where loop-invariant values
// are hoisted (and cached), the shared-memory allocator, and whether a
// pattern already reported an error.
//
// It holds no lowering logic and no map from tile values (the two maps from
// ops say where a loop pattern staged a load's tile, prefetchedTiles, and
// which L2 priority a load asks for, l2Priorities): a new op or layout never
// edits this file. It includes only Knobs.h, Layout.h and the public
// CacheHintRules.h (the include graph of the lowering is in Patterns.h).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_KERNELCONTEXT_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_KERNELCONTEXT_H

#include "Knobs.h"
#include "Layout.h"

#include "kbench/Conversion/TileToGPU/CacheHintRules.h"
#include "kbench/Conversion/TileToGPU/EpilogueRules.h"
#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <map>
#include <tuple>

namespace kbench::gpu_lowering {

/// The attribute of an scf.for that becomes its back edge's LLVM loop
/// metadata (#llvm.loop_annotation): SCF-to-CF moves an scf.for's LLVM
/// attributes onto the branch, whose own attribute has this name.
inline constexpr llvm::StringLiteral kLoopAnnotationAttrName =
    "loop_annotation";

/// A memref argument of the kernel as the device code sees it: what a
/// `tile.partition` of it lowers to and what addressing its tiles needs.
struct GlobalArg {
  /// The extents (index values of the dim params), outermost first.
  llvm::SmallVector<mlir::Value> dims;
  /// What `requires` facts make each extent a multiple of (1 if nothing).
  llvm::SmallVector<int64_t> multiples;
  /// The kernel parameter itself (an LLVM pointer into global memory), for
  /// accesses the memref ops cannot express (CacheHints.h).
  mlir::Value pointer;
};

/// The per-kernel facts the lowering patterns of one tile.kernel share.
class KernelContext {
public:
  KernelContext(tile::KernelOp kernel, const KernelKnobs &knobs);

  mlir::MLIRContext *mlirContext;
  /// The location of hoisted values and of the ops helpers emit (the
  /// kernel's).
  mlir::Location loc;
  int64_t numWarps, vectorWidth, groupM;
  /// Plain scalar accesses for interior tiles of rows found unaligned at run
  /// time (the scalar_unaligned_rows knob).
  bool scalarUnalignedRows;
  /// A prefetching loop issues its copies while its first wgmma group runs
  /// (the overlap_copies knob; OperandPrefetch.cpp).
  bool overlapCopies;
  /// A prefetching loop paces its stages with mbarriers instead of a CTA
  /// barrier per step (the stage_barriers knob; OperandPrefetch.cpp).
  bool stageBarriers;
  /// The two warpgroups of such a loop take turns to issue its first wgmma
  /// group (the ping_pong knob; OperandPrefetch.cpp).
  bool pingPong;
  /// The L2 eviction priority of each tile.load that gets one (the
  /// cache_hints knob; CacheHintRules.h); empty without the knob.
  llvm::DenseMap<mlir::Operation *, L2Priority> l2Priorities;

  //===--- Prologue (built by the pass before the patterns run) ----------===//
  /// Emits the thread, lane and warp ids and the prologue marker at the
  /// insertion point.
  void emitPrologue(mlir::OpBuilder &b);
  mlir::Value threadId, laneId, warpId;
  /// Hoisted values go right before this op, which ends the prologue.
  mlir::Operation *prologueEnd = nullptr;
  /// The global memref of every memref argument (keyed by that memref).
  llvm::DenseMap<mlir::Value, GlobalArg> globalArgs;
  /// The tensor-map params of the kernel (TmaRules.h): the generic pointer
  /// to the by-value CUtensorMap over global memref `memref` with box `box`
  /// (a staged-rows view when the box has 5 axes).
  struct TmaDescriptorArg {
    mlir::Value memref;
    llvm::SmallVector<int64_t> box;
    mlir::Value pointer;
  };
  llvm::SmallVector<TmaDescriptorArg> tmaDescriptors;
  /// The pointer of the tensor map over `memref` with `box`, or null.
  mlir::Value lookupTmaDescriptor(mlir::Value memref,
                                  llvm::ArrayRef<int64_t> box) const {
    for (const TmaDescriptorArg &arg : tmaDescriptors)
      if (arg.memref == memref && llvm::ArrayRef<int64_t>(arg.box) == box)
        return arg.pointer;
    return {};
  }

  /// An index constant in the prologue (cached).
  mlir::Value constIndex(mlir::OpBuilder &b, int64_t value);
  /// The coordinate t(d) of this thread along a layout dim (hoisted, cached).
  mlir::Value threadCoord(mlir::OpBuilder &b, const DimLayout &dim);
  /// i1 that is true on exactly one replica of every element of `layout`,
  /// or null when the layout has no replicas (at the insertion point).
  mlir::Value ownerPredicate(mlir::OpBuilder &b, const Layout &layout);
  /// i1 `dim % divisor == 0`, in the prologue (cached): the run-time
  /// alignment check of versioned global accesses; the constant true where
  /// a `requires` fact makes the extent a multiple of `divisor`.
  mlir::Value divisibleBy(mlir::OpBuilder &b, mlir::Value dim, int64_t divisor);
  /// A barrier of every thread that runs the kernel's code from here on:
  /// the whole CTA (gpu.barrier), or, once the producer warpgroup of a
  /// warp-specialized kernel has exited, a named barrier counting the
  /// consumer threads only.
  void barrier(mlir::OpBuilder &b);

  //===--- Persistent CTAs (PersistentRules.h) --------------------------===//
  /// The tile index of a persistent kernel's loop over tiles (tile-to-gpu
  /// wraps the body from its tile.grid on in it), which tile.grid reads
  /// instead of the block ids; null otherwise.
  mlir::Value persistentTile;

  //===--- Warp specialization (TmaRules.h) -----------------------------===//
  /// The kernel carries tile.warp_specialized: a producer warpgroup beside
  /// the numWarps warps the layouts are over.
  bool warpSpecialized = false;
  /// Set by the TMA K loop once the producer warpgroup's exit has been
  /// emitted: every barrier the lowering emits after it is the consumers'.
  bool producerExited = false;

  //===--- Shared memory -------------------------------------------------===//
  /// A shared-memory buffer of `count` elements, `alignment`-byte aligned (a
  /// power of two, at least 16), carved out of the one byte buffer of the
  /// CTA (its view is hoisted).
  mlir::Value allocShared(mlir::OpBuilder &b, mlir::Type elementType,
                          int64_t count, int64_t alignment = 16);
  /// The byte buffer all allocations are views of (null if none), the bytes
  /// allocated so far and the largest alignment asked for; the pass sizes
  /// the buffer after the patterns and, beyond 16 bytes, aligns its base at
  /// run time (alignSharedBase).
  mlir::Value sharedBase;
  int64_t sharedBytes = 0;
  int64_t sharedAlignment = 16;
  /// A view of `count` elements at byte `offset` of the byte buffer, inside
  /// what allocShared handed out already: for reusing a buffer whose last
  /// use is over (its view is hoisted).
  mlir::Value viewShared(mlir::OpBuilder &b, mlir::Type elementType,
                         int64_t count, int64_t offset);
  /// The operand stage buffers of the last tensor-core K loop lowered: the
  /// byte range they take and the loop's (unconverted) result. Every copy
  /// into them is complete where the loop ends, so once every thread has
  /// passed a barrier after it (no wgmma reads them any more) the range may
  /// hold other data; the loop's mbarriers lie outside it. The staged
  /// epilogue of that result reuses it (StagedEpilogue.cpp).
  struct StagingRange {
    mlir::Value loopResult;
    int64_t offset = 0, bytes = 0;
  };
  std::optional<StagingRange> lastKLoopStaging;
  /// The staged epilogue of each tile.store marked tile.staged_epilogue,
  /// read from the tile IR before the conversion starts: by the time the
  /// store is lowered, a plain loop that produced its accumulator has moved
  /// its body into the lowered loop, so the rules could not follow it.
  llvm::DenseMap<mlir::Operation *, StagedEpilogue> stagedEpilogues;

  //===--- Prefetched mma operands (OperandPrefetch.cpp) ----------------===//
  /// Where a loop with an operand prefetch (PrefetchRules.h) left the tile
  /// of each prefetched tile.load for the current iteration: the staged
  /// buffer and the element offset of the iteration's stage. The loop's
  /// pattern fills it before the body is lowered; the tile.load pattern
  /// then emits no global loads and the tile.mma pattern reads it there. The
  /// one map from ops in this class: these loads have no value of their own
  /// in registers to carry the fact.
  struct PrefetchedTile {
    mlir::Value buffer;
    mlir::Value base;
  };
  llvm::DenseMap<mlir::Operation *, PrefetchedTile> prefetchedTiles;
  /// The prefetched tile of `load` (null: not prefetched).
  const PrefetchedTile *lookupPrefetched(mlir::Operation *load) const {
    auto it = prefetchedTiles.find(load);
    return it == prefetchedTiles.end() ? nullptr : &it->second;
  }
  /// The tile.mma ops whose loop lets their wgmma group stay in flight into
  /// the next iteration (getDeferredWaitMma): the loop's pattern prefetches
  /// one stage less far ahead and waits for every group after the loop.
  llvm::DenseSet<mlir::Operation *> deferredWaitMmas;
  /// What a loop with an operand prefetch issues after the first wgmma group
  /// of its body, keyed by that tile.mma: the next stage's copies
  /// (overlap_copies), so that the tensor cores run the group while the
  /// warps issue them, and the arrival that hands the other warpgroup its
  /// turn (ping_pong). The tile.mma pattern emits it after committing the
  /// op's group and before waiting for it (OperandPrefetch.cpp). The pass
  /// fails if one is left unemitted.
  llvm::DenseMap<mlir::Operation *, std::function<void(mlir::OpBuilder &)>>
      afterGroupCommit;

  //===--- Errors --------------------------------------------------------===//
  /// Set once a pattern has reported an error: the conversion then stops
  /// lowering (every later pattern declines) and the pass fails.
  bool hadError = false;

private:
  std::map<std::tuple<int64_t, int64_t, int64_t, int64_t>, mlir::Value> coords;
  llvm::DenseMap<int64_t, mlir::Value> indexConstants;
  llvm::DenseMap<std::pair<mlir::Value, int64_t>, mlir::Value> divisibility;
};

/// The named barrier the consumer warps of a warp-specialized kernel
/// synchronize on after the producer warpgroup exits.
inline constexpr int64_t kConsumerBarrierId = 1;
/// The first of the two named barriers through which the warpgroups of a
/// ping_pong loop hand each other their turn (OperandPrefetch.cpp).
inline constexpr int64_t kPingPongBarrierId = 2;

/// Bytes of one element of `type` in memory (index: 8).
int64_t elementBytes(mlir::Type type);

/// Whether `op` is nested in a loop (its shared-memory scratch must then be
/// fenced before the next iteration overwrites it).
bool inLoop(mlir::Operation *op);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_KERNELCONTEXT_H
