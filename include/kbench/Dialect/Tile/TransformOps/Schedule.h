//===- Schedule.h - Apply a schedule file to a kernel module ----*- C++ -*-===//
//
// The C++ entry behind `kbench compile --schedule FILE`: a schedule is an MLIR
// file holding `transform.named_sequence @__transform_main`, kept apart from
// the kernel so that agents edit schedules without touching kernels. Light
// header: forward declarations only.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DIALECT_TILE_TRANSFORMOPS_SCHEDULE_H
#define KBENCH_DIALECT_TILE_TRANSFORMOPS_SCHEDULE_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace kbench {

/// Name of the named sequence a schedule file must define.
inline constexpr llvm::StringLiteral kScheduleEntryPoint = "__transform_main";

/// Parses the schedule file at `schedulePath` in `module`'s context and runs
/// its `@__transform_main` with the transform interpreter on `module`. Every
/// problem is reported as an error diagnostic through the context, with a
/// location in the schedule or the kernel, and makes the result failure: an
/// unreadable or unparsable file, a missing entry point, a transform op that
/// fails (silenceable failures included, e.g. a schedule that matches no
/// kernel or sets an illegal knob) and a module that no longer verifies.
/// The context must have the transform dialect and the tile extension
/// registered (kbench::registerAllDialects does both).
mlir::LogicalResult applySchedule(mlir::ModuleOp module,
                                  llvm::StringRef schedulePath);

/// applySchedule for a schedule already parsed into `schedule` (the search
/// parses its space once and applies it many times). `schedulePath` names the
/// schedule in messages.
mlir::LogicalResult applyScheduleModule(mlir::ModuleOp module,
                                        mlir::ModuleOp schedule,
                                        llvm::StringRef schedulePath);

} // namespace kbench

#endif // KBENCH_DIALECT_TILE_TRANSFORMOPS_SCHEDULE_H
