//===- Schedule.cpp - Apply a schedule file to a kernel module ------------===//
//
// What `kbench-opt --transform-preload-library=... --transform-interpreter`
// does, as one call for `kbench compile --schedule FILE`: parse the schedule,
// find @__transform_main, run it on the module, and turn every way this can
// go wrong into an error diagnostic with a location.
//
//===----------------------------------------------------------------------===//

#include "kbench/Dialect/Tile/TransformOps/Schedule.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;

LogicalResult kbench::applySchedule(ModuleOp module, StringRef schedulePath) {
  MLIRContext *context = module.getContext();
  Location fileLoc = FileLineColLoc::get(context, schedulePath, 0, 0);
  if (!llvm::sys::fs::is_regular_file(schedulePath))
    return emitError(fileLoc) << "schedule file '" << schedulePath
                              << "' does not exist or is not a regular file";

  // Parse errors are reported by the parser at their line and column.
  ParserConfig config(context);
  OwningOpRef<ModuleOp> schedule =
      parseSourceFile<ModuleOp>(schedulePath, config);
  if (!schedule)
    return emitError(fileLoc) << "schedule file '" << schedulePath
                              << "' does not parse (see the errors above)";

  return applyScheduleModule(module, *schedule, schedulePath);
}

LogicalResult kbench::applyScheduleModule(ModuleOp module, ModuleOp schedule,
                                          StringRef schedulePath) {
  auto entry = schedule.lookupSymbol<mlir::transform::NamedSequenceOp>(
      kScheduleEntryPoint);
  if (!entry)
    return emitError(schedule.getLoc())
           << "schedule file '" << schedulePath
           << "' has no transform.named_sequence @" << kScheduleEntryPoint
           << "; define one taking the module (%root: !transform.any_op "
              "{transform.readonly}) in a module with the "
              "transform.with_named_sequence attribute";
  if (entry.getFunctionType().getNumInputs() != 1)
    return emitError(entry.getLoc())
           << "@" << kScheduleEntryPoint << " takes "
           << entry.getFunctionType().getNumInputs()
           << " arguments; a schedule entry takes exactly the module "
              "(%root: !transform.any_op {transform.readonly})";

  // Silenceable failures that reach the top level are reported as errors at
  // the failing transform op (with notes at the payload), then fail here.
  if (failed(mlir::transform::applyTransformNamedSequence(
          module, entry, /*transformModule=*/nullptr,
          mlir::transform::TransformOptions())))
    return failure();
  if (failed(mlir::verify(module)))
    return emitError(module.getLoc())
           << "the module does not verify after schedule '" << schedulePath
           << "'";
  return success();
}
