//===- SharedBudget.h - Shared memory of mma operands -----------*- C++ -*-===//
//
// One model of the shared memory tile-to-gpu allocates for tile.mma
// operands, read by transform.tile.set_params (the kernel-wide budget) and
// transform.tile.pipeline (a prefetching loop's budget), so that neither
// refuses a schedule the lowering would fit, nor counts a buffer twice.
//
// The lowering allocates, per tile.mma (docs/schedules.md, the budgets of
// transform.tile.set_params):
//   - impl = simt: one buffer per operand in the accumulator's type, rows
//     padded by 16 bytes; two in its double-buffered K loop;
//   - a tensor-core K loop of S >= 2 stages: S buffers per operand (wgmma:
//     1024-byte aligned, plus 2 S mbarriers when TMA copies them);
//   - a loop of S >= 2 stages that prefetches an operand (PrefetchRules.h):
//     S buffers for that operand, one for the other;
//   - otherwise one buffer per operand.
// An A operand that is already in mma fragment registers (attention's
// probabilities, mma_sync or wgmma) takes no buffer; the model counts it
// anyway, which keeps it a bound. The compile checks the lowered kernel's real
// total.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_CONVERSION_TILETOGPU_SHAREDBUDGET_H
#define KBENCH_CONVERSION_TILETOGPU_SHAREDBUDGET_H

#include "kbench/Dialect/Tile/IR/Tile.h"

#include <cstdint>

namespace kbench::gpu_lowering {

/// Elements per staged row of impl = simt's shared buffers: `length`
/// (M for A, N for B) plus a 16-byte pad against bank conflicts, in
/// elements of `elementBytes` bytes (MmaLowering.cpp stages with it).
int64_t getSimtStagedRowLength(int64_t length, int64_t elementBytes);

/// Bytes of shared memory tile-to-gpu allocates for the operands of `mma`
/// with the pipeline stages its loop has now (the model above).
int64_t getMmaOperandSharedBytes(tile::MmaOp mma);

/// The same with the enclosing loop at `stages` pipeline stages, for a
/// transform op that is about to set them.
int64_t getMmaOperandSharedBytes(tile::MmaOp mma, int64_t stages);

} // namespace kbench::gpu_lowering

#endif // KBENCH_CONVERSION_TILETOGPU_SHAREDBUDGET_H
