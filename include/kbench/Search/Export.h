//===- Export.h - Writing what a search found as schedules -------*- C++ -*-===//
//
// `kbench search --export FILE` writes the best candidate's transform script
// with its provenance; `--export-dispatch DIR` writes a dispatch file
// (docs/schedules.md, "Dispatch by shape") that gives each group of timed
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

/// Writes `dir`/dispatch.json and one `dir`/<candidate>.mlir per candidate
/// it uses, from the medians of the passing candidates timed at every shape
/// the archive measured: the shapes are split one dim at a time (`dim >= T`,
/// T the geometric mean of the two extents on either side, rounded down)
/// where a side's best single candidate beats the whole group's by at least
/// 3% (the product over its shapes), recursively; each group that is not
/// split becomes a variant running the candidate best over all its shapes.
/// Variants are listed upper side first, so the last is the fallback. False
/// with `error` set when no passing candidate was timed at shapes with known
/// dims, none was timed at every shape, or a file cannot be written.
bool exportDispatch(llvm::StringRef dir, const std::vector<CandidateRecord> &records,
                    const RunRecord &run, llvm::StringRef archivePath, std::string &error);

} // namespace kbench::search

#endif // KBENCH_SEARCH_EXPORT_H
