//===- TensorCore.h - Building blocks of the tensor-core lowerings -*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU. impl = mma_sync and impl = wgmma share
// everything but the instructions that read the staged operands:
//
//   TensorCore.cpp       the plan, the staging of the operands into swizzled
//                        shared memory (from registers, or by a cp.async
//                        pipelined K loop) and both patterns;
//   MmaSyncLowering.cpp  ldmatrix + mma.sync per k16 step (emitMmaSyncSteps);
//   WgmmaLowering.cpp    matrix descriptors + wgmma.mma_async per k16 step
//                        (emitWgmmaSteps);
//   TmaPipeline.cpp      the wgmma K loop whose operands one thread copies
//                        with TMA, paced by mbarriers (TmaRules.h).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_TENSORCORE_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_TENSORCORE_H

#include "GlobalAccess.h"
#include "Patterns.h"
#include "kbench/Conversion/TileToGPU/MmaSyncRules.h"
#include "kbench/Conversion/TileToGPU/WgmmaRules.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace kbench::gpu_lowering {

/// Static facts about one tile.mma lowered on tensor cores.
struct TensorCorePlan {
  tile::MmaImpl impl;
  int64_t m, n, k;
  bool transA, transB;
  /// Whether A (KxM) or B (KxN) is staged as rows of M or N and read with
  /// ldmatrix.trans, instead of as rows of K (mma_sync only).
  bool kMajorA, kMajorB;
  mlir::Type operandType;
  /// The warp grid of mma_sync (wgmma: every warp along M).
  MmaSyncWarpGrid grid;
  Layout acc;
  int64_t numWarps;

  bool isWgmma() const { return impl == tile::MmaImpl::wgmma; }
  /// f32 operands, rounded to tf32 by the mma (mma_sync only).
  bool isTf32() const { return operandType.isF32(); }
  int64_t elementBytes() const {
    return operandType.getIntOrFloatBitWidth() / 8;
  }
  /// Operand elements per 16-byte chunk (getChunkElements).
  int64_t chunkElements() const { return getChunkElements(operandType); }
  /// K of one mma.sync step (getMmaSyncStepK).
  int64_t stepK() const { return getMmaSyncStepK(operandType); }
  /// Alignment of the staged operand buffers in shared memory.
  int64_t bufferAlignment() const {
    return isWgmma() ? kWgmmaBufferAlign : 16;
  }
};

/// The plan of `op` (impl mma_sync or wgmma) in a K loop of `stages` stages,
/// or an error on `op`.
mlir::FailureOr<TensorCorePlan>
planTensorCoreMma(tile::MmaOp op, int64_t numWarps, int64_t stages = 1);

/// mmaSyncSwizzle(row, col, rowElems, elementBytes) as index arithmetic at
/// the insertion point.
mlir::Value emitMmaSyncSwizzle(KernelContext &ctx, mlir::OpBuilder &b,
                               mlir::Value row, mlir::Value col,
                               int64_t rowElems, int64_t elementBytes = 2);

/// wgmmaStagedRow(row, m, numWarps) as index arithmetic.
mlir::Value emitWgmmaStagedRow(KernelContext &ctx, mlir::OpBuilder &b,
                               mlir::Value row, int64_t m, int64_t numWarps);

/// The four element pairs (vector<2xT>) of the A fragment of row tile `tile`
/// at k16 step `kk` from `a`, the thread's A elements in the fragment layout
/// of the impl (getMmaSyncOperandALayout for mma_sync's warp grid,
/// getWgmmaLayout(p.m, p.k) for wgmma): pairs 0..3 are rows g and g + 8 (row
/// repeats 2 tile and 2 tile + 1) at columns 2t of the k step's first and
/// second 8-column tile (column positions 4 kk and 4 kk + 2). mma.sync's
/// m16n8k16 and wgmma's m64nNk16 read A from registers in this same
/// fragment, each warp of a warpgroup for its 16 rows of a 64-row tile.
llvm::SmallVector<mlir::Value> getRegisterFragmentA(mlir::OpBuilder &b,
                                                    mlir::Location loc,
                                                    const TensorCorePlan &p,
                                                    mlir::Value a, int64_t tile,
                                                    int64_t kk);

/// Accumulates the mma.sync steps of the whole staged K tile into `acc` (the
/// thread's C elements in getMmaSyncLayout order), reading A and B from
/// `bufA` and `bufB` at element offsets `baseA` and `baseB` (null: 0). When
/// `registersA` is set (the thread's A vector in getMmaSyncOperandALayout
/// order for p.grid.warpsM), the A fragments come from it and `bufA` is not
/// read.
void emitMmaSyncSteps(KernelContext &ctx, mlir::OpBuilder &b,
                      const TensorCorePlan &p, mlir::Value bufA,
                      mlir::Value baseA, mlir::Value bufB, mlir::Value baseB,
                      llvm::SmallVectorImpl<mlir::Value> &acc,
                      mlir::Value registersA = {});

/// The same with wgmma.mma_async (acc in getWgmmaLayout order): one
/// emitWgmmaGroup that waits for itself, so that the buffers may be
/// overwritten after the next barrier, unless `waitForGroup` is false (a
/// deferred wait, getDeferredWaitMma: a later wait covers the group).
/// `registersA` as for mma_sync, in getWgmmaLayout(p.m, p.k) order.
/// `afterCommit` emits what runs while the group is in flight (between its
/// commit and its wait).
void emitWgmmaSteps(KernelContext &ctx, mlir::OpBuilder &b,
                    const TensorCorePlan &p, mlir::Value bufA,
                    mlir::Value baseA, mlir::Value bufB, mlir::Value baseB,
                    llvm::SmallVectorImpl<mlir::Value> &acc,
                    mlir::Value registersA = {}, bool waitForGroup = true,
                    llvm::function_ref<void()> afterCommit = {});

/// The thread's accumulators (getWgmmaLayout order) as one LLVM struct of
/// f32 registers per wgmma tile of its warpgroup, and back. A K loop that
/// keeps a wgmma group in flight carries the structs, so that no other
/// instruction writes the registers of an unfinished group (ptxas would
/// serialize the wgmma instructions).
llvm::SmallVector<mlir::Value>
packWgmmaAccumulators(KernelContext &ctx, mlir::OpBuilder &b,
                      const TensorCorePlan &p,
                      llvm::ArrayRef<mlir::Value> elements);
void unpackWgmmaAccumulators(KernelContext &ctx, mlir::OpBuilder &b,
                             const TensorCorePlan &p,
                             llvm::ArrayRef<mlir::Value> structs,
                             llvm::SmallVectorImpl<mlir::Value> &elements);

/// A K loop that leaves a wgmma group in flight at each step's end runs
/// inside `scf.if (lb < ub)`: openInFlightWgmmaLoop creates the guard (its
/// else branch yields `init`) and leaves `b` at the start of the then
/// branch, where the caller builds the loop; closeInFlightWgmmaLoop ends the
/// branch with wgmma.wait_group 0, yields the loop's `results` and returns
/// the guard's. So ptxas sees no group in flight where the accumulators
/// merge with the values of a loop of zero steps (it would serialize every
/// wgmma, C7515), and each step can wait with a fixed count instead of one
/// chosen by its index (ptxas cannot tell the last step and injects a full
/// wait after every group, C7517).
mlir::scf::IfOp openInFlightWgmmaLoop(mlir::OpBuilder &b, mlir::Location loc,
                                      mlir::Value lb, mlir::Value ub,
                                      mlir::ValueRange init);
mlir::ValueRange closeInFlightWgmmaLoop(mlir::OpBuilder &b, mlir::Location loc,
                                        mlir::scf::IfOp guard,
                                        mlir::ValueRange results);

/// emitWgmmaGroup's `pendingGroups` when the caller emits the wait itself.
inline constexpr int64_t kWgmmaNoWait = -1;

/// Fences the accumulators, issues every k16 step of the staged K tile as
/// one wgmma group into `structs` (packWgmmaAccumulators) and waits until at
/// most `pendingGroups` groups are in flight (kWgmmaNoWait: no wait). With
/// `registersA` (emitWgmmaSteps) A is read from registers, not from `bufA`.
/// `afterCommit` runs between the commit and the wait.
void emitWgmmaGroup(KernelContext &ctx, mlir::OpBuilder &b,
                    const TensorCorePlan &p, mlir::Value bufA,
                    mlir::Value baseA, mlir::Value bufB, mlir::Value baseB,
                    llvm::SmallVectorImpl<mlir::Value> &structs,
                    int64_t pendingGroups, mlir::Value registersA = {},
                    llvm::function_ref<void()> afterCommit = {});

/// Makes this thread's writes to the staged buffers (st.shared, cp.async)
/// visible to the wgmma async proxy; call before the barrier that publishes
/// them. Nothing for mma_sync, whose ldmatrix reads are generic.
void emitStagingFence(KernelContext &ctx, mlir::OpBuilder &b,
                      const TensorCorePlan &p);

/// The rows and row length of an operand tile as it is in memory: A MxK
/// (KxM transposed), B NxK (transpose_b) or KxN.
std::pair<int64_t, int64_t> getStagedTileShape(const TensorCorePlan &p,
                                               bool isA);

/// The element offset in the operand's staged buffer of element (row, col)
/// of its tile as it is in memory (getStagedTileShape): the swizzled row of
/// the impl's staging (wgmma: A's rows in wgmmaStagedRow order, a KxN B in
/// 64-element columns of N).
mlir::Value emitStagedOffset(KernelContext &ctx, mlir::OpBuilder &b,
                             const TensorCorePlan &p, bool isA, mlir::Value row,
                             mlir::Value col);

/// Copies the operand tile of `view` that starts at `starts` (one global
/// coordinate per dim; dims before the last two are unit) into the stage
/// buffer `buffer` at element `stageBase`, each 16-byte chunk at
/// emitStagedOffset: cp.async (`async`; rows of a multiple of 8 elements)
/// or element loads and one shared store, unrolled over the thread's
/// chunks; past the memref, or everywhere when `inRange` is false, zeros.
void emitStagedTileCopy(KernelContext &ctx, mlir::OpBuilder &b,
                        const TensorCorePlan &p, bool isA, const View &view,
                        llvm::ArrayRef<mlir::Value> starts, mlir::Value inRange,
                        mlir::Value buffer, mlir::Value stageBase, bool async);

/// emitStagedTileCopy with element loads, in a loop LLVM must not unroll:
/// the fallback of the pipelined K loops where rows are not 16-byte
/// aligned, whose accumulators leave no registers for every chunk's loads
/// at once.
void emitSynchronousTileCopy(KernelContext &ctx, mlir::OpBuilder &b,
                             const TensorCorePlan &p, const View &view,
                             llvm::ArrayRef<mlir::Value> starts,
                             mlir::Value inRange, mlir::Value buffer,
                             mlir::Value stageBase, bool isA);

/// What both pipelined tensor-core K loops start from: the loop's mma, its
/// operand loads, their lowered views and the plan at the loop's depth.
struct TensorCoreLoop {
  tile::MmaOp mma;
  tile::LoadOp loadA, loadB;
  View viewA, viewB;
  TensorCorePlan plan;
  int64_t stages;
};
/// The TensorCoreLoop of `loop` (getMmaLoopMma holds), or failure with an
/// error on the op at fault.
mlir::FailureOr<TensorCoreLoop>
planTensorCoreLoop(KernelContext &ctx, mlir::scf::ForOp loop,
                   mlir::ConversionPatternRewriter &rewriter);

/// The TMA-copied wgmma K loop (TmaPipeline.cpp); outranks the cp.async one.
void populateTmaPipelinePatterns(const TileTypeConverter &converter,
                                 KernelContext &ctx,
                                 mlir::RewritePatternSet &patterns);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_TENSORCORE_H
