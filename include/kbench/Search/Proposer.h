//===- Proposer.h - Transform scripts from a language model ------*- C++ -*-===//
//
// The optional LLM proposer of `kbench search --llm-proposals N`: any
// OpenAI-compatible chat-completions endpoint (URL and model from flags or
// the environment; the API key from KBENCH_LLM_API_KEY only, never logged or
// archived) receives the search's structured feedback (the kernel, the
// space, the best candidates with their medians and ptxas resources, recent
// failures with their diagnostics and verifier witnesses) and answers with a
// transform script.
//
// A script is data, never code to run: it is size-limited, parsed as MLIR,
// and accepted only when it is one @__transform_main made of allowlisted
// transform ops (structured.match, tile.*, tune.* with every choice made,
// param.constant, yield); no printing, debug, include or any op that could
// reach files or a shell. Every refusal carries its reason, which the
// engine archives with the candidate.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SEARCH_PROPOSER_H
#define KBENCH_SEARCH_PROPOSER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace kbench::search {

/// Where and how to ask.
struct LLMOptions {
  /// The chat-completions URL, e.g. http://127.0.0.1:8000/v1/chat/completions.
  std::string url;
  std::string model;
  /// Sent as "Authorization: Bearer KEY" when not empty; from the
  /// environment only.
  std::string apiKey;
  double timeoutSeconds = 60;
  /// Longest script accepted, in bytes.
  size_t maxScriptBytes = 16384;
};

/// One proposal: a checked schedule, or why there is none.
struct ProposalResult {
  /// The script as the reply gave it (size-limited; "" when there was none).
  std::string script;
  /// The parsed, checked script (null on failure).
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// Empty on success, else the reason, naming the endpoint or the line.
  std::string error;
};

/// The script in a chat-completions reply body: choices[0].message.content,
/// or the first ```-fenced block in it. nullopt with `error` set when the
/// body is not JSON or has no content.
std::optional<std::string> scriptFromReply(llvm::StringRef body,
                                           std::string &error);

/// Parses `text` and accepts it only as a plain schedule of allowlisted ops
/// no longer than `maxBytes` (above). Null with `error` set otherwise.
mlir::OwningOpRef<mlir::ModuleOp>
checkProposedScript(mlir::MLIRContext &context, llvm::StringRef text,
                    size_t maxBytes, std::string &error);

class LLMProposer {
public:
  explicit LLMProposer(LLMOptions options) : options(std::move(options)) {}
  /// Posts `feedback` (the user message) with the instructions (the system
  /// message) and checks the script of the reply.
  ProposalResult propose(mlir::MLIRContext &context,
                         const llvm::json::Object &feedback) const;
  const LLMOptions &getOptions() const { return options; }

private:
  LLMOptions options;
};

} // namespace kbench::search

#endif // KBENCH_SEARCH_PROPOSER_H
