//===- Proposer.cpp - Transform scripts from a language model -------------===//
//
// One HTTP POST per proposal through libcurl (any http:// or https://
// endpoint that speaks OpenAI's chat-completions API), then the reply's
// script is checked as data: its size, its syntax, and that every op is on
// the allowlist. Nothing of the API key leaves this file but the request
// header.
//
//===----------------------------------------------------------------------===//

#include "kbench/Search/Proposer.h"

#include "kbench/Dialect/Tile/TransformOps/Schedule.h"

#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/TuneExtension/TuneExtensionOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

#include <curl/curl.h>

#include <mutex>

using namespace mlir;
namespace tune = mlir::transform::tune;

namespace kbench::search {

/// The instructions sent as the system message.
static constexpr llvm::StringLiteral kInstructions =
    "You tune GPU kernels written in kbench's tile dialect. The user message "
    "is JSON: the kernel, its search space (a transform script whose choices "
    "are transform.tune.knob / transform.tune.alternatives ops), the best "
    "candidates so far with their knobs, medians, ptxas registers and spills, "
    "and recent failures with the compiler's diagnostics (tile-verify "
    "witnesses included). Answer with ONE transform script in a ```mlir "
    "block: a module with transform.with_named_sequence holding "
    "transform.named_sequence @__transform_main, using only "
    "transform.structured.match, transform.tile.* ops, transform.tune.knob "
    "with a value chosen (= V from options = [...]), "
    "transform.tune.alternatives with selected_region, transform.param.constant "
    "and transform.yield. Choose values the space allows, and a schedule that "
    "none of the listed candidates already is.";

std::optional<std::string> scriptFromReply(llvm::StringRef body,
                                           std::string &error) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(body);
  if (!value) {
    error = "the reply is not JSON (" + llvm::toString(value.takeError()) +
            "): " + body.take_front(120).str();
    return std::nullopt;
  }
  const llvm::json::Object *root = value->getAsObject();
  const llvm::json::Array *choices = root ? root->getArray("choices") : nullptr;
  const llvm::json::Object *first =
      choices && !choices->empty() ? (*choices)[0].getAsObject() : nullptr;
  const llvm::json::Object *message = first ? first->getObject("message") : nullptr;
  std::optional<llvm::StringRef> content =
      message ? message->getString("content") : std::nullopt;
  if (!content) {
    error = "the reply has no choices[0].message.content";
    return std::nullopt;
  }
  // The first fenced block, if any (its info string, e.g. "mlir", dropped).
  size_t open = content->find("```");
  if (open == llvm::StringRef::npos)
    return content->str();
  size_t start = content->find('\n', open);
  size_t close = start == llvm::StringRef::npos ? start : content->find("```", start);
  if (close == llvm::StringRef::npos) {
    error = "the reply opens a ``` block and never closes it";
    return std::nullopt;
  }
  return content->slice(start + 1, close).str();
}

/// Whether a proposed script may contain `op`.
static bool allowed(Operation *op) {
  llvm::StringRef name = op->getName().getStringRef();
  return isa<ModuleOp, transform::NamedSequenceOp, transform::YieldOp,
             transform::ParamConstantOp>(op) ||
         name == "transform.structured.match" ||
         name.starts_with("transform.tile.") || isa<tune::KnobOp, tune::AlternativesOp>(op);
}

static std::string lineOf(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return "line " + std::to_string(file.getLine());
  return "the script";
}

OwningOpRef<ModuleOp> checkProposedScript(MLIRContext &context,
                                          llvm::StringRef text, size_t maxBytes,
                                          std::string &error) {
  if (text.size() > maxBytes) {
    error = llvm::formatv("the script has {0} bytes, more than the {1} a "
                          "proposal may have",
                          text.size(), maxBytes)
                .str();
    return nullptr;
  }
  std::string parseErrors;
  OwningOpRef<ModuleOp> module;
  {
    // Parse errors go into the message, not to the terminal.
    ScopedDiagnosticHandler capture(&context, [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error && parseErrors.empty())
        parseErrors = lineOf(d.getLocation()) + ": " + d.str();
      return success();
    });
    module = parseSourceString<ModuleOp>(text, ParserConfig(&context), "proposal");
  }
  if (!module) {
    error = "the script does not parse: " +
            (parseErrors.empty() ? std::string("no module") : parseErrors);
    return nullptr;
  }
  Operation *refused = nullptr;
  std::string why;
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!allowed(op)) {
      refused = op;
      why = "'" + op->getName().getStringRef().str() +
            "' is not allowed in a proposed script (allowed: "
            "transform.structured.match, transform.tile.*, transform.tune.*, "
            "transform.param.constant, transform.named_sequence, "
            "transform.yield)";
      return WalkResult::interrupt();
    }
    if (auto knob = dyn_cast<tune::KnobOp>(op); knob && !knob.getSelectedAttr()) {
      refused = op;
      why = "knob '" + knob.getName().str() +
            "' is left open; a proposed script chooses (= V from options = [...])";
      return WalkResult::interrupt();
    }
    if (auto alternatives = dyn_cast<tune::AlternativesOp>(op);
        alternatives && !alternatives.getSelectedRegionAttr()) {
      refused = op;
      why = "alternatives '" + alternatives.getName().str() +
            "' select no region; a proposed script sets selected_region";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (refused) {
    error = lineOf(refused->getLoc()) + ": " + why;
    return nullptr;
  }
  int64_t sequences = 0;
  module->walk([&](transform::NamedSequenceOp) { ++sequences; });
  if (sequences != 1 ||
      !module->lookupSymbol<transform::NamedSequenceOp>(kScheduleEntryPoint)) {
    error = std::string("the script must hold exactly one "
                        "transform.named_sequence, @") +
            kScheduleEntryPoint.str();
    return nullptr;
  }
  return module;
}

namespace {
/// Collects the reply body, refusing more than a megabyte.
size_t collect(char *data, size_t size, size_t count, void *user) {
  auto *body = static_cast<std::string *>(user);
  if (body->size() + size * count > (1u << 20))
    return 0; // libcurl then fails the transfer (CURLE_WRITE_ERROR)
  body->append(data, size * count);
  return size * count;
}
} // namespace

ProposalResult LLMProposer::propose(MLIRContext &context,
                                    const llvm::json::Object &feedback) const {
  static std::once_flag init;
  std::call_once(init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  ProposalResult result;
  llvm::json::Object request{
      {"model", options.model},
      {"temperature", 0.7},
      {"messages",
       llvm::json::Array{
           llvm::json::Object{{"role", "system"}, {"content", kInstructions}},
           llvm::json::Object{
               {"role", "user"},
               {"content", llvm::formatv("{0}", llvm::json::Value(llvm::json::Object(feedback))).str()}}}}};
  std::string body = llvm::formatv("{0}", llvm::json::Value(std::move(request))).str();
  std::string reply;
  CURL *curl = curl_easy_init();
  if (!curl) {
    result.error = "cannot start an HTTP request (libcurl)";
    return result;
  }
  curl_slist *headers = curl_slist_append(nullptr, "Content-Type: application/json");
  std::string authorization = "Authorization: Bearer " + options.apiKey;
  if (!options.apiKey.empty())
    headers = curl_slist_append(headers, authorization.c_str());
  curl_easy_setopt(curl, CURLOPT_URL, options.url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, long(body.size()));
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &reply);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, long(options.timeoutSeconds * 1000));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  CURLcode code = curl_easy_perform(curl);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  if (code == CURLE_OPERATION_TIMEDOUT) {
    result.error = llvm::formatv("no reply from {0} within {1} s (--llm-timeout)",
                                 options.url, options.timeoutSeconds)
                       .str();
    return result;
  }
  if (code != CURLE_OK) {
    result.error = "the request to " + options.url + " failed: " + curl_easy_strerror(code);
    return result;
  }
  if (status != 200) {
    result.error = llvm::formatv("{0} answered HTTP {1}: {2}", options.url, status,
                                 llvm::StringRef(reply).take_front(200))
                       .str();
    return result;
  }
  std::optional<std::string> script = scriptFromReply(reply, result.error);
  if (!script)
    return result;
  result.script = llvm::StringRef(*script).take_front(options.maxScriptBytes).str();
  result.module = checkProposedScript(context, *script, options.maxScriptBytes, result.error);
  return result;
}

} // namespace kbench::search
