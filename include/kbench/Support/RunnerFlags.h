//===- RunnerFlags.h - The flags of kbench-run that kbench eval forwards -*- C++ -*-===//
//
// The one table of the runner's per-run flags (seeds, shapes, distributions,
// timing, L2 flush, baselines, device, ...). kbench-run registers them to set
// its RunOptions; kbench eval registers the same ones to check them before it
// compiles and then forwards what was given, verbatim, to the kbench-run it
// starts. A flag added here is therefore a kbench eval flag too.
//
// The flags a tool owns itself are not here: -o and --target (eval compiles
// for the target and picks the output folder), --batch, --calibrate and
// --version (kbench-run's other modes).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SUPPORT_RUNNERFLAGS_H
#define KBENCH_SUPPORT_RUNNERFLAGS_H

#include "kbench/Support/CommandLine.h"

#include <map>
#include <string>
#include <vector>

namespace kbench {

/// What the runner flags set, with the runner's defaults.
struct RunnerSettings {
  bool json = false;                      ///< print the report instead of the table
  std::vector<std::string> shapeSets;     ///< empty = check,tune,heldout (GPU) / check (host)
  int seeds = 3;
  std::vector<std::string> distributions; ///< empty = all five
  double timeoutSeconds = 60;
  int timing = -1;                        ///< -1 = on for GPU targets, off for host
  std::string l2Flush = "read";           ///< "read" or "write" (Timing.h)
  std::string calibrationFile;
  std::string compiledBaselinesDir;       ///< AOTInductor packages; "" = none
  int device = 0;
};

/// The group the runner flags are added in (CommandLine::argumentsOf).
inline constexpr const char *kRunnerFlagGroup = "runner";

/// Adds the runner flags to `cl`, writing into `settings`. `heading`, when
/// not empty, lists them under their own heading in --help.
void addRunnerFlags(cli::CommandLine &cl, RunnerSettings &settings,
                    const std::string &heading = "");

/// Whether the runner flag `name` is one that LIST.json states in --batch
/// mode (shapes, seeds, distributions, timing), so kbench-run refuses it there.
bool isBatchListFlag(const std::string &name);

/// The per-set seeds ("seeds" of LIST.json) of a search's batch with
/// `timing` over `shapeSets`: a screen that checks the derived scoring shapes
/// (the evaluation task's heldout set, tune-sized) checks them at one seed and
/// the check shapes at the protocol's three; any other batch checks every set
/// at three (an empty map). The round trip's lists and the queue worker's
/// both ask here.
std::map<std::string, int>
searchSeedsBySet(const std::string &timing,
                 const std::vector<std::string> &shapeSets);

} // namespace kbench

#endif // KBENCH_SUPPORT_RUNNERFLAGS_H
