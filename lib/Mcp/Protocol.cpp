//===- Protocol.cpp - JSON-RPC 2.0 messages of the MCP server -------------===//
//
// parseMessage is the fuzzing entry of the server's input side: it must
// answer every byte string with a message or an error, in time linear in its
// length, without recursion deeper than kMaxJsonDepth.
//
//===----------------------------------------------------------------------===//

#include "kbench/Mcp/Protocol.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

namespace json = llvm::json;

namespace kbench::mcp {

llvm::StringRef negotiateProtocolVersion(llvm::StringRef requested) {
  for (llvm::StringRef version : kProtocolVersions)
    if (version == requested)
      return version;
  return kProtocolVersions[0];
}

int jsonNestingDepth(llvm::StringRef text, int limit) {
  int depth = 0, deepest = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit)
        return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

/// A JSON-RPC id: a string or an integer (MCP forbids null).
static bool isValidId(const json::Value &id) {
  return id.getAsString() || id.getAsInteger();
}

bool parseMessage(llvm::StringRef line, Message &message, ProtocolError &error) {
  auto fail = [&](ErrorCode code, const llvm::Twine &text) {
    error.code = code;
    error.message = text.str();
    return false;
  };
  if (line.size() > kMaxMessageBytes)
    return fail(ErrorCode::InvalidRequest,
                llvm::formatv("message of {0} bytes; the limit is {1} bytes",
                              line.size(), kMaxMessageBytes));
  if (jsonNestingDepth(line, kMaxJsonDepth) > kMaxJsonDepth)
    return fail(ErrorCode::InvalidRequest,
                llvm::formatv("JSON nested deeper than {0} levels", kMaxJsonDepth));
  llvm::Expected<json::Value> parsed = json::parse(line);
  if (!parsed)
    return fail(ErrorCode::ParseError,
                "not JSON: " + llvm::toString(parsed.takeError()));
  if (parsed->getAsArray())
    return fail(ErrorCode::InvalidRequest,
                "JSON-RPC batches are not supported (protocol revisions " +
                    llvm::join(llvm::ArrayRef(kProtocolVersions), ", ") +
                    "); send one message per line");
  json::Object *object = parsed->getAsObject();
  if (!object)
    return fail(ErrorCode::InvalidRequest,
                "a message is a JSON object with \"jsonrpc\": \"2.0\"");
  // From here on the error can name the request it answers.
  const json::Value *id = object->get("id");
  if (id && isValidId(*id))
    error.id = *id;
  std::optional<llvm::StringRef> version = object->getString("jsonrpc");
  if (!version || *version != "2.0")
    return fail(ErrorCode::InvalidRequest,
                "\"jsonrpc\" must be the string \"2.0\"");
  // JSON-RPC 2.0: an error response whose request's id could not be read
  // carries "id": null (the server's own answers to bad lines do).
  bool nullIdError = id && id->kind() == json::Value::Null &&
                     !object->get("method") && object->get("error");
  if (id && !isValidId(*id) && !nullIdError)
    return fail(ErrorCode::InvalidRequest,
                "\"id\" must be a string or an integer");

  const json::Value *method = object->get("method");
  if (!method) {
    if (!id)
      return fail(ErrorCode::InvalidRequest,
                  "a message needs \"method\" (request, notification) or "
                  "\"id\" with \"result\" or \"error\" (response)");
    if (!object->get("result") && !object->get("error"))
      return fail(ErrorCode::InvalidRequest,
                  "a response needs \"result\" or \"error\"");
    message.kind = Message::Kind::Response;
    message.id = *id;
    return true;
  }
  std::optional<llvm::StringRef> name = method->getAsString();
  if (!name || name->empty())
    return fail(ErrorCode::InvalidRequest,
                "\"method\" must be a non-empty string");
  message.method = name->str();
  message.kind = id ? Message::Kind::Request : Message::Kind::Notification;
  if (id)
    message.id = *id;
  if (const json::Value *params = object->get("params")) {
    const json::Object *fields = params->getAsObject();
    if (!fields)
      return fail(ErrorCode::InvalidParams,
                  "\"params\" of " + message.method + " must be an object");
    message.params = *fields;
  }
  return true;
}

json::Value makeResult(const json::Value &id, json::Value result) {
  return json::Object{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json::Value makeError(const json::Value &id, ErrorCode code,
                      llvm::StringRef message) {
  return json::Object{
      {"jsonrpc", "2.0"},
      {"id", id},
      {"error", json::Object{{"code", static_cast<int64_t>(code)},
                             {"message", message}}}};
}

json::Value makeNotification(llvm::StringRef method, json::Object params) {
  return json::Object{
      {"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

std::string renderLine(const json::Value &value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << value; // llvm::json prints compactly: no newline can appear.
  return text;
}

} // namespace kbench::mcp
