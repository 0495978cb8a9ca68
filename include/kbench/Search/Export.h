//===- Export.h - Writing what a search found as schedules -------*- C++ -*-===//
//
// `kbench search --export FILE` writes the best candidate's transform script
// with its provenance; `--export-dispatch DIR` writes a dispatch file
// (docs/schedules.md, "Dispatch by shape") that gives each class of timed
// shapes the candidate that measured fastest there, so that a schedule
// tuned for the tune shape no longer has to be the one that runs at the
// smaller shapes (docs/search.md, "Exporting a dispatch").
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SEARCH_EXPORT_H
#define KBENCH_SEARCH_EXPORT_H

#include "kbench/Archive/Archive.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace kbench::search {

/// Writes `best`'s script to `file`, after comment lines that say where it
/// comes from (archive, candidate, operator, seed, score, knobs, medians,
/// IR hash). False with `error` set when the file cannot be written.
bool exportSchedule(llvm::StringRef file, const CandidateRecord &best, const RunRecord &run,
                    llvm::StringRef archivePath, std::string &error);

/// Writes `dir`/dispatch.json and one `dir`/<variant>.mlir per variant:
/// per timed shape of the passing candidates' measurements, the candidate
/// with the lowest median there; shapes ordered by size (the product of
/// their dims, largest first), neighbours with the same candidate merged
/// into one class, and between two classes the fact "<product of dims> >=
/// T" with T the geometric mean of the two sizes on either side, rounded
/// down. The smallest class is the fallback. False with `error` set when no
/// passing candidate was timed at a shape with known dims, or a file cannot
/// be written.
bool exportDispatch(llvm::StringRef dir, const std::vector<CandidateRecord> &records,
                    const RunRecord &run, llvm::StringRef archivePath, std::string &error);

} // namespace kbench::search

#endif // KBENCH_SEARCH_EXPORT_H
