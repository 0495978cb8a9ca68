//===- Batch.h - kbench-run --batch: many bundles of one task ------*- C++ -*-===//
//
// A search evaluates hundreds of candidates of one task. One kbench-run call
// per candidate pays a process, a CUDA context and the references every
// time; a batch pays them once. `kbench-run --batch LIST.json -o OUTDIR`
// reads a list of bundles (docs/runner.md, "Batches"), checks each bundle
// against the task before anything runs, then runs the rest in one worker
// process (Worker.h, runBatchWorker), which keeps every case's inputs and
// references (CaseCache.h) for the next bundle. A bundle that crashes, hangs
// or faults the GPU gets its verdict, and a fresh worker takes the bundles
// after it. Each bundle gets OUTDIR/<id>/report.json, the schema of a single
// run, and a line in OUTDIR/batch.jsonl as soon as it is judged.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_BATCH_H
#define KBENCH_RUNNER_BATCH_H

#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace kbench::runner {

/// LIST.json, parsed. Relative paths are relative to the list's folder.
struct BatchList {
  struct Bundle {
    std::string id; ///< OUTDIR/<id>/: letters, digits, '.', '_', '-'
    std::string dir;
  };
  std::string file;
  std::string taskDir;
  std::vector<Bundle> bundles;
  std::string timing;                   ///< "none", "screen" or "full"
  std::string target;                   ///< "host", "sm_90a" or "" (--target decides)
  std::vector<std::string> shapeSets;   ///< checked; default {"check"}
  int seeds = 3; ///< per checked set unless seedsBySet names it
  /// `"seeds": {"check": 3, "heldout": 1}`: the seeds of each named set (a
  /// search screens its large scoring shapes at one seed; docs/runner.md).
  std::map<std::string, int> seedsBySet;
  std::vector<std::string> distributions; ///< default: all five
};

/// Reads and checks LIST.json. Throws InputError naming the file and field:
/// a missing or unknown key, a bad value, an empty or duplicate id.
BatchList parseBatchList(const std::string &file);

/// What the command line adds to the list.
struct BatchOptions {
  std::string listFile;
  std::string outputDir;
  bool json = false; ///< print the batch.jsonl lines instead of text
  std::string target;
  double timeoutSeconds = 60;
  std::string l2Flush = "read";
  std::string calibrationFile;
  std::string compiledBaselinesDir; ///< AOTInductor packages (BaselinePlan.h); "" = none
  /// --baseline-timings FILE: the screening baselines' timings kept across
  /// runs (BaselineTimings.h); "" = none.
  std::string baselineTimingsFile;
  int device = 0;
};

/// Runs the batch. Exit status: 2 when the list or the task is bad (nothing
/// runs), else the worst exit status of its bundles (0 all passed, 1 one
/// failed, 2 one could not be judged).
int evaluateBatch(const BatchOptions &options, std::ostream &out);

} // namespace kbench::runner

#endif // KBENCH_RUNNER_BATCH_H
