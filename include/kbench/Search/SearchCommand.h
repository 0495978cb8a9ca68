//===- SearchCommand.h - `kbench search` -------------------------*- C++ -*-===//
//
// The search command lives beside the library it drives (lib/Search), not in
// lib/Driver: the search library builds on the driver's compile pipeline, so
// the command cannot sit below it.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SEARCH_SEARCHCOMMAND_H
#define KBENCH_SEARCH_SEARCHCOMMAND_H

#include "llvm/ADT/ArrayRef.h"

namespace kbench::search {

/// `kbench search TASK_DIR [flags]`; returns the exit code: 0 when the
/// budget is spent or the space has nothing new, 1 on an error, 3 when a
/// round waits for another machine (--rounds-dir without --evaluator-cmd).
int runSearchCommand(llvm::ArrayRef<const char *> args, const char *argv0);

} // namespace kbench::search

#endif // KBENCH_SEARCH_SEARCHCOMMAND_H
