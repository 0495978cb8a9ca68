//===- InitAll.h - Register everything kbench's tools use --------*- C++ -*-===//
//
// The one registration entry that every tool includes (Triton's
// RegisterTritonDialects.h idea): upstream dialects, extensions, passes and
// LLVM IR translations, plus kbench's dialect, transform ops and passes.
// Deliberately light: only forward declarations, so tool drivers compile fast.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_INITALL_H
#define KBENCH_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace kbench {

/// Adds every upstream dialect and extension, the LLVM IR translations and
/// kbench's dialects and transform extensions to `registry`.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Registers every upstream pass and pipeline and kbench's own passes with the
/// global pass registry (for command-line tools).
void registerAllPasses();

} // namespace kbench

#endif // KBENCH_INITALL_H
