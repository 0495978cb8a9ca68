//===- Resources.h - The docs `kbench mcp` serves as resources ---*- C++ -*-===//
//
// The dialect reference (docs/TileDialect.md), the schedules guide
// (docs/schedules.md) and the tile IR's model (docs/tile-ir.md), embedded
// in the binary when it is built: an agent reads the docs of the compiler
// it talks to, and the server reads no file outside its workspace.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_MCP_RESOURCES_H
#define KBENCH_MCP_RESOURCES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace kbench::mcp {

struct Resource {
  const char *uri, *name, *title, *description;
  llvm::StringRef text;
};

llvm::ArrayRef<Resource> getResources();

} // namespace kbench::mcp

#endif // KBENCH_MCP_RESOURCES_H
