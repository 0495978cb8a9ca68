//===- Server.h - The MCP server of kbench -----------------------*- C++ -*-===//
//
// Transport-free: handleMessage takes one message line and answers through
// the sink, so stdio (Stdio.h), tests and a fuzzer drive the same code. The
// lifecycle follows the MCP specification: `initialize` negotiates the
// protocol revision (Protocol.h), then tools/list, tools/call,
// resources/list, resources/read and ping are served; notifications/cancelled
// stops the call it names. Tool calls run on their own threads (unless
// ServerOptions::inlineCalls), so the server keeps answering while they run.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_MCP_SERVER_H
#define KBENCH_MCP_SERVER_H

#include "kbench/Mcp/Service.h"

#include "llvm/Support/JSON.h"

#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace kbench::mcp {

struct ServerOptions {
  /// Run tool calls on the thread of handleMessage (a fuzzer wants no
  /// threads); otherwise each call gets a thread.
  bool inlineCalls = false;
  /// Tool calls in flight at most; more are refused with a tool error.
  int64_t maxCalls = 16;
};

class Server {
public:
  /// `send` receives each outgoing message as one line of JSON (no
  /// newline); it may be called from several threads, never at once.
  Server(Service &service, ServerOptions options,
         std::function<void(const std::string &)> send);
  /// Cancels the calls still in flight and waits for them to stop.
  ~Server();

  /// Waits up to `seconds` for the calls in flight to answer (at the end
  /// of input, so that a client that closes its end after its last request
  /// still gets the answers).
  void drain(double seconds);

  /// Handles one incoming message (one line, without its newline).
  void handleMessage(llvm::StringRef line);

  /// Answers a line the transport dropped because it was longer than
  /// kMaxMessageBytes (an error response with a null id).
  void reportOversizedMessage(size_t bytes);

  /// The negotiated protocol revision ("" before initialize).
  std::string getProtocolVersion() const;

private:
  struct Call;
  void handleRequest(const llvm::json::Value &id, llvm::StringRef method,
                     const llvm::json::Object &params);
  void handleNotification(llvm::StringRef method,
                          const llvm::json::Object &params);
  void callTool(const llvm::json::Value &id, const llvm::json::Object &params);
  void send(const llvm::json::Value &message);

  Service &service;
  ServerOptions options;
  std::function<void(const std::string &)> sink;
  std::mutex sendMutex;

  mutable std::mutex mutex;
  std::condition_variable idle;
  std::string protocolVersion;
  bool initialized = false;
  /// Calls in flight, by rendered request id.
  std::map<std::string, std::shared_ptr<Call>> calls;
};

} // namespace kbench::mcp

#endif // KBENCH_MCP_SERVER_H
