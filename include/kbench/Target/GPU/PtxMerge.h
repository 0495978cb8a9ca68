//===- PtxMerge.h - One PTX module from several ---------------*- C++ -*-===//
//
// A bundle holds one kernel.ptx (the runner JIT-compiles it when the cubin is
// refused), but its kernels are translated side by side, one LLVM module per
// kernel (compileToPtx). mergePtxModules joins their PTX texts into one
// module: the header (.version, .target, .address_size) once, then every
// top-level statement of every module in order, a statement that an earlier
// module already holds word for word (the `.extern .shared` of dynamic
// shared memory, a libdevice table) once. Statements that differ and define
// the same name are not reconciled: ptxas rejects the merged module with a
// duplicate definition, and kernels of one bundle have distinct names.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_TARGET_GPU_PTXMERGE_H
#define KBENCH_TARGET_GPU_PTXMERGE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace kbench {

/// One PTX module with the statements of every module of `modules`, or
/// nothing (with `error` set) when their headers differ or a module's
/// braces or parentheses do not balance.
std::optional<std::string> mergePtxModules(llvm::ArrayRef<std::string> modules,
                                           std::string &error);

} // namespace kbench

#endif // KBENCH_TARGET_GPU_PTXMERGE_H
