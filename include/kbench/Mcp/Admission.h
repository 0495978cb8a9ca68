//===- Admission.h - What IR and scripts the MCP server accepts --*- C++ -*-===//
//
// Kernels and schedules come from an agent, and `evaluate` on the host
// target runs native code compiled from them. So a kernel may hold only the
// tile IR (tile, arith, math, scf and index ops inside tile.kernel; one
// func.func @main of tile.launch ops), every symbol it references must be
// defined in it, and it may carry no attribute of another dialect (llvm.*
// attributes change code generation and linkage). A schedule may hold only
// transform.tile.*, transform.tune.* and the transform ops that match and
// move handles. The kernel is checked again after its schedule ran.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_MCP_ADMISSION_H
#define KBENCH_MCP_ADMISSION_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace kbench::mcp {

/// The deepest nesting of (), [], {} and <> in MLIR text `text`, scanning
/// no further than one past `limit` (string literals and // comments
/// skipped). The parser recurses once per level, so this bounds its stack.
int mlirNestingDepth(llvm::StringRef text, int limit);

/// The deepest nesting accepted in a kernel or schedule.
inline constexpr int kMaxIrNesting = 48;

/// Why `module` is not an acceptable kernel file (naming the op, where it
/// is and what is allowed), or nullopt.
std::optional<std::string> checkKernelModule(mlir::ModuleOp module);

/// Why `module` is not an acceptable schedule, or nullopt.
std::optional<std::string> checkScheduleModule(mlir::ModuleOp module);

} // namespace kbench::mcp

#endif // KBENCH_MCP_ADMISSION_H
