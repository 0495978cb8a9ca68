//===- Server.cpp - The MCP server of kbench ------------------------------===//
//
// Protocol errors (JSON-RPC error responses) are for messages the server
// cannot act on: malformed JSON, an unknown method or tool, a request before
// `initialize`. Everything a tool refuses (bad arguments, an unknown task, a
// kernel that does not parse) is a tool result with isError, so an agent
// reads the message and retries.
//
//===----------------------------------------------------------------------===//

#include "kbench/Mcp/Server.h"

#include "kbench/Driver/CompilePipeline.h"
#include "kbench/Mcp/Protocol.h"
#include "kbench/Mcp/Resources.h"
#include "kbench/Mcp/Schema.h"
#include "kbench/Mcp/Tools.h"

#include "llvm/ADT/StringExtras.h"

#include <atomic>
#include <thread>

namespace json = llvm::json;

namespace kbench::mcp {

/// One tool call in flight.
struct Server::Call : public CallContext {
  Server *server = nullptr;
  json::Value progressToken = nullptr;
  std::atomic<bool> cancelled{false};
  std::mutex progressMutex;

  bool isCancelled() const override { return cancelled; }
  void progress(double done, double total, llvm::StringRef message) override {
    if (progressToken.kind() == json::Value::Null || cancelled)
      return;
    std::lock_guard<std::mutex> lock(progressMutex);
    json::Object params{{"progressToken", progressToken},
                        {"progress", done},
                        {"message", message}};
    if (total > 0)
      params["total"] = total;
    server->send(makeNotification("notifications/progress", std::move(params)));
  }
};

Server::Server(Service &service, ServerOptions options,
               std::function<void(const std::string &)> send)
    : service(service), options(options), sink(std::move(send)) {}

Server::~Server() {
  std::unique_lock<std::mutex> lock(mutex);
  for (auto &[id, call] : calls)
    call->cancelled = true;
  idle.wait(lock, [&] { return calls.empty(); });
}

void Server::drain(double seconds) {
  std::unique_lock<std::mutex> lock(mutex);
  idle.wait_for(lock, std::chrono::duration<double>(seconds),
                [&] { return calls.empty(); });
}

std::string Server::getProtocolVersion() const {
  std::lock_guard<std::mutex> lock(mutex);
  return protocolVersion;
}

void Server::send(const json::Value &message) {
  std::string line = renderLine(message);
  std::lock_guard<std::mutex> lock(sendMutex);
  sink(line);
}

void Server::reportOversizedMessage(size_t bytes) {
  send(makeError(nullptr, ErrorCode::InvalidRequest,
                 "message of " + std::to_string(bytes) +
                     " bytes or more dropped; the limit is " +
                     std::to_string(kMaxMessageBytes) + " bytes"));
}

void Server::handleMessage(llvm::StringRef line) {
  Message message;
  ProtocolError error;
  if (!parseMessage(line, message, error)) {
    send(makeError(error.id, error.code, error.message));
    return;
  }
  switch (message.kind) {
  case Message::Kind::Request:
    handleRequest(message.id, message.method, message.params);
    return;
  case Message::Kind::Notification:
    handleNotification(message.method, message.params);
    return;
  case Message::Kind::Response:
    return; // The server sends no requests, so no response is awaited.
  }
}

static const char *kInstructions =
    "kbench compiles tile-dialect kernels (docs: the kbench://docs/ "
    "resources), proves them safe with tile-verify and checks them against "
    "PyTorch. Start with list_tasks and describe_task; edit the schedule "
    "(transform script) and call verify, compile and evaluate; search_start "
    "explores a task's knob space. Inputs are IR and scripts, never paths.";

void Server::handleRequest(const json::Value &id, llvm::StringRef method,
                           const json::Object &params) {
  bool ready;
  {
    std::lock_guard<std::mutex> lock(mutex);
    ready = initialized || !protocolVersion.empty();
  }
  if (method == "ping") {
    send(makeResult(id, json::Object{}));
    return;
  }
  if (method == "initialize") {
    std::optional<llvm::StringRef> requested = params.getString("protocolVersion");
    if (!requested) {
      send(makeError(id, ErrorCode::InvalidParams,
                     "initialize needs params.protocolVersion (a string)"));
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (!protocolVersion.empty()) {
        send(makeError(id, ErrorCode::InvalidRequest,
                       "already initialized (protocol " + protocolVersion + ")"));
        return;
      }
      protocolVersion = negotiateProtocolVersion(*requested).str();
    }
    send(makeResult(
        id, json::Object{
                {"protocolVersion", getProtocolVersion()},
                {"capabilities",
                 json::Object{{"tools", json::Object{{"listChanged", false}}},
                              {"resources",
                               json::Object{{"listChanged", false},
                                            {"subscribe", false}}}}},
                {"serverInfo", json::Object{{"name", "kbench"},
                                            {"title", "kbench kernel compiler"},
                                            {"version", driver::compilerVersion()}}},
                {"instructions", kInstructions}}));
    return;
  }
  if (!ready) {
    send(makeError(id, ErrorCode::InvalidRequest,
                   "send initialize first (the MCP lifecycle); '" + method.str() +
                       "' was refused"));
    return;
  }
  if (method == "tools/list") {
    json::Array tools;
    for (const Tool &tool : getTools())
      tools.push_back(describeTool(tool));
    send(makeResult(id, json::Object{{"tools", std::move(tools)}}));
    return;
  }
  if (method == "tools/call") {
    callTool(id, params);
    return;
  }
  if (method == "resources/list") {
    json::Array list;
    for (const Resource &resource : getResources())
      list.push_back(json::Object{{"uri", resource.uri},
                                  {"name", resource.name},
                                  {"title", resource.title},
                                  {"description", resource.description},
                                  {"mimeType", "text/markdown"},
                                  {"size", int64_t(resource.text.size())}});
    send(makeResult(id, json::Object{{"resources", std::move(list)}}));
    return;
  }
  if (method == "resources/templates/list") {
    send(makeResult(id, json::Object{{"resourceTemplates", json::Array{}}}));
    return;
  }
  if (method == "resources/read") {
    llvm::StringRef uri = params.getString("uri").value_or("");
    for (const Resource &resource : getResources())
      if (resource.uri == uri) {
        send(makeResult(
            id, json::Object{{"contents",
                              json::Array{json::Object{{"uri", resource.uri},
                                                       {"mimeType", "text/markdown"},
                                                       {"text", resource.text}}}}}));
        return;
      }
    std::string known;
    for (const Resource &resource : getResources())
      known += (known.empty() ? "" : ", ") + std::string(resource.uri);
    send(makeError(id, ErrorCode::ResourceNotFound,
                   "no resource '" + uri.str() + "'; the resources are " + known));
    return;
  }
  send(makeError(id, ErrorCode::MethodNotFound,
                 "method '" + method.str() + "' is not served; kbench serves "
                 "initialize, ping, tools/list, tools/call, resources/list, "
                 "resources/templates/list and resources/read"));
}

void Server::handleNotification(llvm::StringRef method,
                                const json::Object &params) {
  if (method == "notifications/initialized") {
    std::lock_guard<std::mutex> lock(mutex);
    initialized = true;
    return;
  }
  if (method == "notifications/cancelled") {
    const json::Value *id = params.get("requestId");
    if (!id)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = calls.find(renderLine(*id));
    if (it != calls.end())
      it->second->cancelled = true;
  }
  // Other notifications need nothing from the server.
}

void Server::callTool(const json::Value &id, const json::Object &params) {
  std::optional<llvm::StringRef> name = params.getString("name");
  if (!name) {
    send(makeError(id, ErrorCode::InvalidParams,
                   "tools/call needs params.name (a string)"));
    return;
  }
  const Tool *tool = findTool(*name);
  if (!tool) {
    std::string known;
    for (const Tool &t : getTools())
      known += (known.empty() ? "" : ", ") + t.name;
    send(makeError(id, ErrorCode::InvalidParams,
                   "unknown tool '" + name->str() + "'; the tools are " + known));
    return;
  }
  json::Object arguments;
  if (const json::Value *given = params.get("arguments")) {
    if (!given->getAsObject()) {
      send(makeError(id, ErrorCode::InvalidParams,
                     "params.arguments must be an object"));
      return;
    }
    arguments = *given->getAsObject();
  }

  auto call = std::make_shared<Call>();
  call->server = this;
  if (const json::Object *meta = params.getObject("_meta"))
    if (const json::Value *token = meta->get("progressToken"))
      if (token->getAsString() || token->getAsInteger())
        call->progressToken = *token;
  std::string key = renderLine(id);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (calls.count(key)) {
      send(makeError(id, ErrorCode::InvalidRequest,
                     "request id " + key + " is already in flight"));
      return;
    }
    if (int64_t(calls.size()) >= options.maxCalls) {
      send(makeError(id, ErrorCode::InternalError,
                     "the server is busy: " + std::to_string(calls.size()) +
                         " tool calls in flight; retry when one has answered"));
      return;
    }
    calls[key] = call;
  }

  auto run = [this, tool, id = json::Value(id), key, call,
              arguments = std::move(arguments)] {
    ToolResult result;
    if (std::optional<std::string> why =
            checkAgainstSchema(json::Value(json::Object(arguments)),
                               tool->inputSchema))
      result = ToolResult::error(tool->name + ": " + *why);
    else
      result = (service.*(tool->handler))(arguments, *call);
    if (!call->cancelled) {
      json::Object answer{
          {"content", json::Array{json::Object{{"type", "text"},
                                               {"text", result.text}}}}};
      if (result.isError)
        answer["isError"] = true;
      else if (result.structured.kind() != json::Value::Null)
        answer["structuredContent"] = result.structured;
      send(makeResult(id, std::move(answer)));
    }
    std::lock_guard<std::mutex> lock(mutex);
    calls.erase(key);
    idle.notify_all();
  };
  if (options.inlineCalls)
    run();
  else
    std::thread(std::move(run)).detach();
}

} // namespace kbench::mcp
