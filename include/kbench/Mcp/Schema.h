//===- Schema.h - Check tool arguments against their JSON schema -*- C++ -*-===//
//
// Each tool publishes an input schema (tools/list), and the same schema
// checks the arguments of every call, so what an agent reads and what the
// server enforces cannot drift. Only the subset of JSON Schema the tools use
// is understood: type, properties, required, additionalProperties: false,
// enum, minLength/maxLength (counted in bytes, which is stricter than
// characters), minimum/maximum, items, maxItems.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_MCP_SCHEMA_H
#define KBENCH_MCP_SCHEMA_H

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace kbench::mcp {

/// Why `value` does not conform to `schema`, naming the argument
/// ("argument 'budget': expected an integer <= 64, got 100"), or nullopt.
std::optional<std::string> checkAgainstSchema(const llvm::json::Value &value,
                                              const llvm::json::Object &schema);

} // namespace kbench::mcp

#endif // KBENCH_MCP_SCHEMA_H
