//===- ToolResult.h - What one MCP tool call answers -------------*- C++ -*-===//
//
// Tool failures are results, not protocol errors (the MCP specification's
// rule): an agent reads the message and fixes its call. Only an unknown tool
// or malformed arguments of the protocol itself are JSON-RPC errors.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_MCP_TOOLRESULT_H
#define KBENCH_MCP_TOOLRESULT_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace kbench::mcp {

/// What a tool call answers: a result an agent reads, or an error it can act
/// on (isError, with the message in text).
struct ToolResult {
  bool isError = false;
  std::string text;
  /// Conforms to the tool's output schema; null for errors.
  llvm::json::Value structured = nullptr;

  static ToolResult error(const llvm::Twine &message);
  /// A result whose text is `structured` rendered as JSON.
  static ToolResult success(llvm::json::Object structured);
};

} // namespace kbench::mcp

#endif // KBENCH_MCP_TOOLRESULT_H
