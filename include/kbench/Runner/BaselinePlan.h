//===- BaselinePlan.h - Which torch.compile package each shape gets -*- C++ -*-===//
//
// The supervisor's half of the baselines (Baselines.h has the worker's): no
// LibTorch here, so that report.json can say on any target, the host included,
// what the torch.compile baseline of every timed shape is before anything
// runs: a package "found", "missing" (naming the file it looked for) or
// "unavailable" (a LibTorch without the AOTInductor loader, such as Debian's
// 1.13). The worker turns "found" into "measured" or "rejected"; what was
// never timed ends "not_timed" with the reason. Never silently skipped.
//
// Package names are keys: task, a hash of the reference, the shape, the input
// dtypes and the torch version (docs/runner.md, "Baselines");
// scripts/gpu-aoti-package.py computes the same names.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_BASELINEPLAN_H
#define KBENCH_RUNNER_BASELINEPLAN_H

#include "kbench/Support/Task.h"

#include <iosfwd>

namespace kbench::runner {

/// The linked LibTorch's version, "major.minor.patch" (no local suffix).
std::string linkedTorchVersion();

/// True when this runner was built with LibTorch's AOTInductor package loader.
bool haveCompiledBaselineLoader();

/// The canonical text hashed into package names: the reference ops, the
/// output names and every input's name, dtype and extents at `dims`, as
/// compact JSON with sorted keys. Throws InputError when an extent fails.
std::string compiledBaselineKeyText(const Task &task, const SymbolValues &dims);

/// The package file name of `task` at `dims` for torch `torchVersion`:
/// "<task>-<16 hex digits of FNV-1a 64 of the key text>-<dims>-<dtypes>-torch<version>.pt2",
/// e.g. "row_sum-1f0c...-M8192_N4096-f32-torch2.11.0.pt2".
std::string compiledPackageName(const Task &task, const SymbolValues &dims,
                                const std::string &torchVersion);

/// The torch.compile baseline of every shape of the timed sets (`timedSets`)
/// of `task`, before anything runs:
///   {"name": "torch_compile", "dir": ..., "loader": ..., "shapes": [
///     {"set", "index", "shape", "status", "package", "detail"}, ...]}
/// with status "found" (the worker turns it into "measured" or "rejected"),
/// "missing" or "unavailable". `dir` empty means no --compiled-baselines.
/// `haveLoader` is this runner's (tests pass either).
nlohmann::json compiledBaselinePlan(const Task &task, const std::vector<std::string> &timedSets,
                                    const std::string &dir,
                                    bool haveLoader = haveCompiledBaselineLoader());

/// Folds the worker's verdict on one timed shape ({"baselines":
/// {"torch_compile": {"status", "detail", ...}}} in a timing message) into
/// `plan`, the report's "baselines.torch_compile".
void recordCompiledBaseline(nlohmann::json &plan, const nlohmann::json &timing);

/// Ends the plan once the worker is done: a package still "found" becomes
/// "not_timed", with why (`timed`: whether timing ran at all; `timing`: the
/// report's timing entries). Adds "counts" {status: n}.
void finishCompiledBaselines(nlohmann::json &plan, bool timed, const nlohmann::json &timing);

/// The table's lines on the baseline: the loader, the counts per status and
/// every shape that was not measured, with its package and why.
void printCompiledBaselines(std::ostream &os, const nlohmann::json &plan);

} // namespace kbench::runner

#endif // KBENCH_RUNNER_BASELINEPLAN_H
