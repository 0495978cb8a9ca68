//===- Pipelining.h - Which K loops are software-pipelined ------*- C++ -*-===//
//
// Shared by tile-to-gpu and transform.tile.pipeline, so that the op that
// sets a loop's depth and the lowering that consumes it apply one rule.
// Software pipelining is a schedule decision recorded on the loop it
// concerns: `tile.pipeline_stages = 2` on an scf.for asks the lowering for
// the double-buffered K loop of MmaLowering.cpp, `1` (or no attribute, once
// planned) for a plain loop; the legal depths are the knob table's
// (KernelConfig.h). tile-plan-pipelining marks the loops that have no
// decision yet with the default rule below; tile-to-gpu runs it on unmarked
// loops and then only reads the attribute.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_CONVERSION_TILETOGPU_PIPELINING_H
#define KBENCH_CONVERSION_TILETOGPU_PIPELINING_H

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace kbench::gpu_lowering {

/// The attribute holding a loop's pipeline depth (stages; 1 = none).
inline constexpr llvm::StringLiteral kPipelineStagesAttrName =
    "tile.pipeline_stages";

/// The mma of a loop whose body only loads the two operands of one tile.mma
/// (any impl) that accumulates into the loop's single iter_arg, or null. An
/// operand may be loaded as a tile with leading unit dims (a batched
/// matmul's [1, BM, BK]) and tile.squeeze'd to the mma's rank-2 tile.
tile::MmaOp getMmaLoopMma(mlir::scf::ForOp op);

/// The tile.load behind `operand` through unit-dim tile.squeeze ops, or
/// null.
tile::LoadOp getSqueezedLoad(mlir::Value operand);

/// getMmaLoopMma when that mma is simt and reads its operand loads as they
/// are, unsqueezed (the SIMT double-buffered loop of MmaLowering.cpp), or
/// null.
tile::MmaOp getPipelinableMma(mlir::scf::ForOp op);

/// Whether the lowering can pipeline `op` with `numWarps` warps: the loop
/// has that shape and the accumulator splits into micro-tiles.
bool isPipelinableMmaLoop(mlir::scf::ForOp op, int64_t numWarps);

/// The pipeline depth recorded on `op` (1 when none is).
int64_t getPipelineStages(mlir::scf::ForOp op);

/// Records the default decision on every loop of `kernel` without one: 2
/// stages where isPipelinableMmaLoop holds, nothing otherwise.
void planPipelining(tile::KernelOp kernel, int64_t numWarps);

} // namespace kbench::gpu_lowering

#endif // KBENCH_CONVERSION_TILETOGPU_PIPELINING_H
