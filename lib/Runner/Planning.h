//===- Planning.h - From options to an EvalPlan, shared by both modes -*- C++ -*-===//
//
// Private to lib/Runner. One kbench-run call (Evaluate.cpp) and a batch
// (Batch.cpp) choose the target, read the distributions and split a task's
// shapes by their requires facts the same way; this is that one way.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_RUNNER_PLANNING_H
#define KBENCH_LIB_RUNNER_PLANNING_H

#include "kbench/Runner/Report.h"
#include "kbench/Runner/Worker.h"

namespace kbench::runner {

/// `asked`, or sm_90a when a GPU is present, else host; `why` says which
/// (empty when asked).
std::string chooseTarget(const std::string &asked, std::string &why);

/// Distribution names; throws InputError "<what>: unknown distribution ...".
std::vector<Distribution> parseDistributions(const std::vector<std::string> &names,
                                             const std::string &what);

/// Throws InputError "<what>: unknown shape set ..." unless every name is
/// check, tune or heldout.
void checkShapeSetNames(const std::vector<std::string> &sets, const std::string &what);

/// Fills plan.shapes with the shapes of `checkSets` and plan.timedShapes
/// with those of `timedSets`, each where the bundle's requires facts hold.
/// A checked shape where one is false is a requires_violated case of `rb`;
/// a shape only timed is a skipped timing entry.
void planShapes(const Task &task, const Manifest &manifest,
                const std::vector<std::string> &checkSets,
                const std::vector<std::string> &timedSets, EvalPlan &plan, ReportBuilder &rb);

/// Looks up the torch.compile package of every shape of `timedSets` in `dir`
/// (BaselinePlan.h), records what it found in `rb` (measured later, missing
/// or unavailable) and the packages to time in plan.compiledPackages.
void planCompiledBaselines(const Task &task, const std::vector<std::string> &timedSets,
                           const std::string &dir, EvalPlan &plan, ReportBuilder &rb);

} // namespace kbench::runner

#endif // KBENCH_LIB_RUNNER_PLANNING_H
