//===- Stdio.h - The stdio transport of `kbench mcp` -------------*- C++ -*-===//
//
// MCP over stdio: one JSON-RPC message per line on stdin and stdout, logs on
// stderr. Nothing but protocol messages may reach stdout, and kbench links
// code that prints (MLIR's and LLVM's, a transform script's
// transform.print): so the protocol gets a private copy of the original
// stdout and fd 1 is pointed at stderr, where any stray print lands.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_MCP_STDIO_H
#define KBENCH_MCP_STDIO_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>

namespace kbench::mcp {

/// Returns a private, close-on-exec copy of fd 1 for the protocol and
/// points fd 1 at stderr; -1 when the descriptors cannot be set up.
int takeProtocolStdout();

/// Writes `line` and a newline to `fd`; false when the peer is gone.
bool writeLine(int fd, llvm::StringRef line);

/// Reads newline-terminated lines from `fd` until end of input and hands
/// each (without its newline; a trailing '\r' is dropped too) to `handle`.
/// A line longer than `maxBytes` is never buffered whole: it is skipped and
/// `tooLong(bytes seen)` is called instead.
void readLines(int fd, size_t maxBytes,
               llvm::function_ref<void(llvm::StringRef)> handle,
               llvm::function_ref<void(size_t)> tooLong);

} // namespace kbench::mcp

#endif // KBENCH_MCP_STDIO_H
