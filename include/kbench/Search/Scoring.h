//===- Scoring.h - What a candidate is scored on -----------------*- C++ -*-===//
//
// A schedule tuned at one shape can lose badly at another (a 4096-wide tile
// at N = 1000 is three quarters padding), so the search scores a candidate
// over the task's tune shapes and shapes derived from them, never over the
// task's own heldout shapes, which stay unseen. The runner is given an
// evaluation copy of task.json whose "heldout" set is replaced by the derived
// shapes: it checks and times them like heldout shapes, and the fitness is a
// weighted geomean of the speedups over eager (docs/search.md, "Fitness").
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SEARCH_SCORING_H
#define KBENCH_SEARCH_SCORING_H

#include "kbench/Search/Evaluator.h"
#include "kbench/Support/ShapeExpr.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace kbench::search {

/// The shapes derived from a tune shape, one per dimension larger than 1
/// (dims in name order): that dimension d becomes max(1, d / 4 - 1) and the
/// others keep their tune extents. Smaller, like unseen shapes, and off
/// every power of two, so that tiles sized for the tune shape meet a partial
/// last tile; one dim shrunk at a time lets the measurements say which dim
/// a schedule's speed depends on (long rows or many rows), which
/// `--export-dispatch` splits on (docs/search.md, "Fitness").
///
/// `facts` are the kernel's `requires` facts with its own params bound
/// (TaskCompiler::getRequiresFacts): those that then name only the shape's
/// dims (`H % 2 == 0`; `M % 4 == 0` from `M % BR == 0` at BR = 4) must hold
/// at a derived shape, or candidates would be refused there. When d / 4 - 1
/// breaks one, the nearest extent below d that keeps them all is taken (the
/// lower first on a tie: 30 for H = 128 under `H % 2 == 0`); a dim with no
/// such extent within 64 of it derives no shape. Facts that still name
/// something else (a derived dim of task.json) are left to the runner.
std::vector<llvm::json::Object>
derivedShapes(const llvm::json::Object &tuneShape,
              llvm::ArrayRef<ShapeFact> facts = {});

/// Writes `outDir`/task.json: the task's task.json with its "heldout" set
/// replaced by the derived shapes of the tune shapes (each once), which keep
/// the kernel's `facts` as derivedShapes says. Returns false with `error` set
/// when task.json cannot be read or written.
bool writeEvaluationTask(llvm::StringRef taskDir, llvm::StringRef outDir,
                         llvm::ArrayRef<ShapeFact> facts, std::string &error);

/// A fitness and what it is.
struct Score {
  double fitness = 0;
  std::string kind;
};

/// The measured fitness of a passing report. `score` "tune": the speedup
/// over eager (TF32 off) at the first timed shape. "multi": the weighted
/// geomean of the speedups at every timed shape, the tune shapes sharing
/// half the weight and the derived ("heldout" in the evaluation task) the
/// other half (all of it to the tune shapes when none was timed). A report
/// without any timed shape scores 1 ("pass (no timing)").
Score measuredScore(const EvalReport &report, llvm::StringRef score);

} // namespace kbench::search

#endif // KBENCH_SEARCH_SCORING_H
