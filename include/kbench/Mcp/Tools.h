//===- Tools.h - The tool table of `kbench mcp` ------------------*- C++ -*-===//
//
// Every tool in one table: its name, what it is for (agents read the
// description to choose), its input schema (which also checks every call,
// Schema.h, and carries the size limit of every input) and its output
// schema (what structuredContent holds), and the Service method behind it.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_MCP_TOOLS_H
#define KBENCH_MCP_TOOLS_H

#include "kbench/Mcp/Service.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace kbench::mcp {

struct Tool {
  std::string name, title, description;
  llvm::json::Object inputSchema, outputSchema;
  ToolResult (Service::*handler)(const llvm::json::Object &, CallContext &);
};

/// The tools, in the order tools/list gives them.
llvm::ArrayRef<Tool> getTools();

/// The tool named `name`, or null.
const Tool *findTool(llvm::StringRef name);

/// The tools/list entry of `tool`.
llvm::json::Object describeTool(const Tool &tool);

} // namespace kbench::mcp

#endif // KBENCH_MCP_TOOLS_H
