//===- McpCommand.h - `kbench mcp` -------------------------------*- C++ -*-===//
//
// The command lives beside the server it runs (lib/Mcp), as `kbench search`
// lives in lib/Search: the server builds on the search library, so the
// command cannot sit in lib/Driver below it.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_MCP_MCPCOMMAND_H
#define KBENCH_MCP_MCPCOMMAND_H

#include "llvm/ADT/ArrayRef.h"

namespace kbench::mcp {

/// `kbench mcp [flags]`: serves MCP on stdin/stdout until stdin closes.
/// Returns 0 then, 1 when the server could not start.
int runMcpCommand(llvm::ArrayRef<const char *> args, const char *argv0);

} // namespace kbench::mcp

#endif // KBENCH_MCP_MCPCOMMAND_H
