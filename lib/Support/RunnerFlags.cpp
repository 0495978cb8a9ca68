//===- RunnerFlags.cpp - The flags of kbench-run that kbench eval forwards ===//
//
// The help texts here are what both `kbench-run --help` and `kbench eval
// --help` print; docs/runner.md explains each flag at length.
//
//===----------------------------------------------------------------------===//

#include "kbench/Support/RunnerFlags.h"

#include <algorithm>

namespace kbench {

void addRunnerFlags(cli::CommandLine &cl, RunnerSettings &s, const std::string &heading) {
  cl.setGroup(kRunnerFlagGroup, heading);
  cl.addFlag("json", &s.json, "print the report as JSON instead of the table");
  cl.addList("shapes", &s.shapeSets, "LIST",
             "shape sets to check, of check,tune,heldout\n"
             "(default: all three on sm_90a, check on host)");
  cl.addInt("seeds", &s.seeds, "N", "seeds per shape (default 3)");
  cl.addList("distributions", &s.distributions, "LIST",
             "of randn,negated,small,large,structural (default: all)");
  cl.addPositiveNumber("timeout", &s.timeoutSeconds, "SECONDS",
                       "watchdog: kill the worker after this long without\n"
                       "progress (default 60)",
                       "seconds");
  cl.addFlagPair("timing", &s.timing,
                 "time the candidate and the eager baselines (default:\n"
                 "on for sm_90a; host bundles are never timed)");
  cl.addChoice("l2-flush", &s.l2Flush, "MODE", {"read", "write"},
               "how the L2 is emptied before each timed run: read\n"
               "(default; a read of 2x the L2 size, which leaves it\n"
               "clean) or write (a memset of 2x the L2 size, whose dirty\n"
               "lines are written back during the timed run, as in\n"
               "do_bench-style timers)");
  cl.addString("calibration", &s.calibrationFile, "FILE",
               "ceilings from kbench-run --calibrate, for % of floor");
  cl.addString("compiled-baselines", &s.compiledBaselinesDir, "DIR",
               "AOTInductor packages of the tasks' references\n"
               "(scripts/gpu-aoti-package.py): time torch.compile too;\n"
               "the report says per timed shape whether it was measured,\n"
               "missing or unavailable (docs/runner.md, \"Baselines\")");
  cl.addInt("device", &s.device, "N", "CUDA device ordinal (default 0)", 0);
  cl.setGroup("");
}

bool isBatchListFlag(const std::string &name) {
  return name == "shapes" || name == "seeds" || name == "distributions" ||
         name == "timing";
}

std::map<std::string, int>
searchSeedsBySet(const std::string &timing,
                 const std::vector<std::string> &shapeSets) {
  bool derived = std::find(shapeSets.begin(), shapeSets.end(), "heldout") !=
                 shapeSets.end();
  if (timing == "screen" && derived)
    return {{"heldout", 1}};
  return {};
}

} // namespace kbench
