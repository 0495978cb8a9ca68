//===- Protocol.h - JSON-RPC 2.0 messages of the MCP server ------*- C++ -*-===//
//
// The request-parsing layer of `kbench mcp`, kept apart from the server so
// that it can be fuzzed on its own: one line of text in, one message (or the
// JSON-RPC error that answers it) out. Nothing here touches MLIR, threads or
// files. The size and nesting limits are checked before llvm::json parses a
// byte, so a hostile line costs at most one linear scan.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_MCP_PROTOCOL_H
#define KBENCH_MCP_PROTOCOL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kbench::mcp {

/// JSON-RPC 2.0 error codes, and MCP's for an unknown resource.
enum class ErrorCode : int64_t {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ResourceNotFound = -32002,
};

/// The longest message line accepted, in bytes.
inline constexpr size_t kMaxMessageBytes = 4 << 20;
/// The deepest nesting of JSON arrays and objects accepted in a message.
inline constexpr int kMaxJsonDepth = 64;

/// The protocol revisions served, newest first: the one the pinned
/// TypeScript SDK client asks for (its LATEST_PROTOCOL_VERSION) and the one
/// before it.
inline constexpr llvm::StringLiteral kProtocolVersions[] = {"2025-11-25",
                                                            "2025-06-18"};

/// The revision to answer an `initialize` asking for `requested`: the same
/// one when it is served, else the newest served (the specification's rule;
/// the client then decides whether it can speak it).
llvm::StringRef negotiateProtocolVersion(llvm::StringRef requested);

/// One parsed message.
struct Message {
  enum class Kind { Request, Notification, Response };
  Kind kind = Kind::Request;
  /// A string or an integer (requests and responses).
  llvm::json::Value id = nullptr;
  /// Requests and notifications.
  std::string method;
  /// The params object ({} when absent).
  llvm::json::Object params;
};

/// Why a line is not a message, as the JSON-RPC error that answers it; `id`
/// is the request's id when it could be read, else null.
struct ProtocolError {
  ErrorCode code = ErrorCode::InvalidRequest;
  std::string message;
  llvm::json::Value id = nullptr;
};

/// Parses one line (without its newline) into `message`; on failure fills
/// `error` and returns false. Batches (JSON arrays) are refused: the served
/// revisions dropped them.
bool parseMessage(llvm::StringRef line, Message &message, ProtocolError &error);

/// The deepest nesting of arrays and objects in `text`, scanning no further
/// than one level past `limit` (strings are skipped, so brackets inside
/// them do not count).
int jsonNestingDepth(llvm::StringRef text, int limit);

/// {"jsonrpc": "2.0", "id": id, "result": result}
llvm::json::Value makeResult(const llvm::json::Value &id,
                             llvm::json::Value result);
/// {"jsonrpc": "2.0", "id": id, "error": {"code", "message"}}
llvm::json::Value makeError(const llvm::json::Value &id, ErrorCode code,
                            llvm::StringRef message);
/// {"jsonrpc": "2.0", "method": method, "params": params}
llvm::json::Value makeNotification(llvm::StringRef method,
                                   llvm::json::Object params);

/// `value` as one line of JSON (no newline inside, none at the end).
std::string renderLine(const llvm::json::Value &value);

} // namespace kbench::mcp

#endif // KBENCH_MCP_PROTOCOL_H
