//===- McpTargets.cpp - Fuzz target of the MCP request parser --------------===//
//
// `kbench mcp` reads one JSON-RPC message per line from an agent, and every
// line goes through parseMessage before any tool runs. Its contract
// (include/kbench/Mcp/Protocol.h): a line is either a message or the JSON-RPC
// error that answers it, never a crash or a hang, with the size and nesting
// limits enforced before llvm::json parses. What the server then writes back
// must be one line of JSON that reads back as a response with the same id.
//
//===----------------------------------------------------------------------===//

#include "FuzzTargets.h"

#include "kbench/Mcp/Protocol.h"

#include "llvm/Support/JSON.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace kbench::mcp;

/// Aborts unless `line` is one line of JSON that parses back as a response
/// carrying `id`.
static void expectResponseLine(const std::string &line,
                               const llvm::json::Value &id) {
  if (line.find('\n') != std::string::npos) {
    std::fprintf(stderr, "a rendered message spans lines: %s\n", line.c_str());
    std::abort();
  }
  Message back;
  ProtocolError error;
  if (!parseMessage(line, back, error) || back.kind != Message::Kind::Response ||
      back.id != id) {
    std::fprintf(stderr, "a rendered response does not read back (%s): %s\n",
                 error.message.c_str(), line.c_str());
    std::abort();
  }
}

int kbench::fuzz::fuzzMcpRequest(const uint8_t *data, size_t size) {
  llvm::StringRef line(reinterpret_cast<const char *>(data), size);
  Message message;
  ProtocolError error;
  if (!parseMessage(line, message, error)) {
    if (error.message.empty()) {
      std::fprintf(stderr, "a refused line has no error message\n");
      std::abort();
    }
    // The answer to a bad line; a null id when none could be read.
    expectResponseLine(renderLine(makeError(error.id, error.code, error.message)),
                       error.id);
    return 0;
  }
  if (message.kind != Message::Kind::Response && message.method.empty()) {
    std::fprintf(stderr, "a request or notification without a method\n");
    std::abort();
  }
  // What initialize answers: a served revision, whatever was asked.
  if (std::optional<llvm::StringRef> asked =
          message.params.getString("protocolVersion")) {
    llvm::StringRef answer = negotiateProtocolVersion(*asked);
    bool served = false;
    for (llvm::StringRef version : kProtocolVersions)
      served |= answer == version;
    if (!served) {
      std::fprintf(stderr, "negotiated an unserved revision '%s'\n",
                   answer.str().c_str());
      std::abort();
    }
  }
  // The server echoes the params back in results of some methods; any
  // accepted request must be answerable in one line.
  if (message.kind == Message::Kind::Request)
    expectResponseLine(
        renderLine(makeResult(message.id, llvm::json::Object{
                                              {"echo", llvm::json::Object(
                                                           message.params)}})),
        message.id);
  return 0;
}
