//===- MmaSync.h - Building blocks of the mma_sync lowering -----*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU: the plan, the register-to-shared
// staging and the ldmatrix + mma.sync steps of impl = mma_sync, shared by the
// tile.mma pattern (MmaSyncLowering.cpp) and the cp.async pipelined K loop
// (MmaSyncPipeline.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_MMASYNC_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_MMASYNC_H

#include "Patterns.h"
#include "kbench/Conversion/TileToGPU/MmaSyncRules.h"

namespace kbench::gpu_lowering {

/// Static facts about one tile.mma lowered with mma.sync.
struct MmaSyncPlan {
  int64_t m, n, k;
  bool transA, transB;
  /// Whether A (KxM) or B (KxN) is staged as rows of M or N and read with
  /// ldmatrix.trans, instead of as rows of K.
  bool kMajorA, kMajorB;
  mlir::Type operandType;
  MmaSyncWarpGrid grid;
  Layout acc;
};

/// The plan of `op` in a K loop of `stages` stages, or an error on `op`.
mlir::FailureOr<MmaSyncPlan> planMmaSync(tile::MmaOp op, int64_t numWarps,
                                         int64_t stages = 1);

/// mmaSyncSwizzle(row, col, rowElems) as index arithmetic at the insertion
/// point.
mlir::Value emitMmaSyncSwizzle(KernelContext &ctx, mlir::OpBuilder &b,
                               mlir::Value row, mlir::Value col,
                               int64_t rowElems);

/// Accumulates the mma.sync steps of the whole staged K tile into `acc` (the
/// thread's C elements in getMmaSyncLayout order), reading A and B from
/// `bufA` and `bufB` at element offsets `baseA` and `baseB` (null: 0).
void emitMmaSyncSteps(KernelContext &ctx, mlir::OpBuilder &b,
                      const MmaSyncPlan &p, mlir::Value bufA, mlir::Value baseA,
                      mlir::Value bufB, mlir::Value baseB,
                      llvm::SmallVectorImpl<mlir::Value> &acc);

/// Wraps every K loop that asks for a cp.async pipelined mma_sync
/// (MmaSyncPipeline.cpp) in `scf.if` on the 16-byte alignment of the
/// operand rows: the pipelined loop when they are aligned, the same loop
/// with one stage otherwise. Runs on the tile IR before the conversion.
void versionMmaSyncPipelines(tile::KernelOp kernel, int64_t numWarps);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_MMASYNC_H
