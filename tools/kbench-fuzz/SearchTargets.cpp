//===- SearchTargets.cpp - Fuzz target of the search's spaces ------------===//
//
// A space (docs/search.md, "The space") is text a user, an agent or the LLM
// proposer writes: its reader, its constraints and the schedules it resolves
// to must turn every input into either candidates or located errors. The
// target reads the input as a space, resolves it at three points (every
// knob's first option, every knob's last, and one the input's bytes pick),
// checks the constraints there, and applies each point that meets them to a
// fixed task kernel (row_softmax) the way the search compiles a candidate:
// the printed schedule parsed back and run by the transform interpreter.
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"
#include "FuzzTargets.h"

#include "kbench/Dialect/Tile/TransformOps/Schedule.h"
#include "kbench/Search/Space.h"

#include "mlir/IR/Verifier.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using kbench::fuzz::asText;
using kbench::fuzz::FuzzContext;

namespace {

/// The fixed kernel spaces are applied to.
StringRef spaceKernel() {
  static const std::string *text = [] {
    auto buffer = llvm::MemoryBuffer::getFile(KBENCH_FUZZ_SPACE_KERNEL_PATH);
    if (!buffer) {
      llvm::errs() << "kbench-fuzz: cannot read "
                   << KBENCH_FUZZ_SPACE_KERNEL_PATH << "\n";
      std::abort();
    }
    return new std::string((*buffer)->getBuffer().str());
  }();
  return *text;
}

/// The three points the target tries: every knob's first option, every
/// knob's last, and one picked by a hash of the input (so that the fuzzer
/// reaches middle options by changing bytes anywhere).
std::vector<kbench::search::Assignment>
pointsOf(const kbench::search::Space &space, StringRef input) {
  kbench::search::Assignment first, last, hashed;
  uint64_t hash = llvm::hash_value(input);
  for (const kbench::search::Knob &knob : space.getKnobs()) {
    int64_t count = static_cast<int64_t>(knob.options.size());
    first.push_back(0);
    last.push_back(count - 1);
    hashed.push_back(count > 0 ? static_cast<int64_t>(hash % count) : 0);
    hash = hash / 7 + 0x9e3779b97f4a7c15ULL * (hash % 7 + 1);
  }
  return {first, last, hashed};
}

} // namespace

int kbench::fuzz::fuzzSpace(const uint8_t *data, size_t size) {
  FuzzContext ctx;
  OwningOpRef<ModuleOp> kernel =
      ctx.parse(spaceKernel(), KBENCH_FUZZ_SPACE_KERNEL_PATH);
  if (!kernel)
    FuzzContext::broken("the task kernel", "does not parse");
  // A NUL-terminated copy, as every kbench caller of Space::parse holds.
  std::string text = asText(data, size).str();
  std::optional<search::Space> space =
      search::Space::parse(*ctx.get(), text, "space.mlir");
  if (!space) {
    ctx.requireUserFacingFailure("the space reader");
    return 0;
  }
  for (const search::Knob &knob : space->getKnobs())
    if (knob.options.empty())
      FuzzContext::broken("the space reader",
                          "accepted a choice without options: " + knob.name);
  (void)space->size();
  for (const search::Assignment &point : pointsOf(*space, asText(data, size))) {
    (void)space->values(point);
    if (space->checkConstraints(point))
      continue; // refused before anything is compiled, with its message
    space->select(point);
    std::string script = space->print();
    OwningOpRef<ModuleOp> schedule = ctx.parse(script, "candidate.mlir");
    if (!schedule)
      FuzzContext::broken("Space::print",
                          "wrote a candidate that does not parse back:\n" +
                              script);
    OwningOpRef<ModuleOp> candidate(cast<ModuleOp>((*kernel)->clone()));
    size_t errorsBefore = ctx.errorCount();
    if (failed(kbench::applyScheduleModule(*candidate, *schedule,
                                           "candidate.mlir"))) {
      ctx.requireUserFacingFailure("the transform interpreter", errorsBefore);
      continue;
    }
    if (failed(verify(*candidate)))
      FuzzContext::broken("the transform interpreter",
                          "succeeded on IR that does not verify");
  }
  return 0;
}
