//===- FuzzTargets.h - kbench's fuzz targets, by name -------------*- C++ -*-===//
//
// Every fuzz target is a function with libFuzzer's signature over one input
// (bytes in, 0 out; a bug is a crash, an abort or a sanitizer report). The
// same functions are linked two ways (docs/robustness.md):
//  - one libFuzzer binary per target (scripts/fuzz.sh, clang with
//    -fsanitize=fuzzer,address): FuzzerEntry.cpp defines
//    LLVMFuzzerTestOneInput as the target named by KBENCH_FUZZ_TARGET;
//  - kbench-fuzz-replay in the normal build, which runs a target over files
//    or folders (the committed corpora, from a lit test), so CI replays every
//    input the fuzzers kept without clang or libFuzzer.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_TOOLS_KBENCH_FUZZ_FUZZTARGETS_H
#define KBENCH_TOOLS_KBENCH_FUZZ_FUZZTARGETS_H

#include <cstddef>
#include <cstdint>

namespace kbench::fuzz {

/// Tile IR text: the parser and the op verifiers; what verifies must print
/// and parse back.
int fuzzTileIR(const uint8_t *data, size_t size);
/// A transform script applied to a fixed task kernel (linear_bias_relu),
/// then tile-verify over the result.
int fuzzTransform(const uint8_t *data, size_t size);
/// Tile IR text through tile-verify (every check, the JSON report and the
/// diagnostics) when it verifies.
int fuzzTileVerify(const uint8_t *data, size_t size);
/// Tile IR text that tile-verify proves, through tile-to-gpu down to PTX and
/// tile-to-host down to LLVM IR; a refusal must be a located error.
int fuzzLowering(const uint8_t *data, size_t size);
/// task.json text through the one task.json parser.
int fuzzTaskJson(const uint8_t *data, size_t size);
/// manifest.json text through the bundle manifest reader.
int fuzzManifest(const uint8_t *data, size_t size);
/// One line of `kbench mcp`'s input through the JSON-RPC message parser; the
/// answer it leads to must be one line that reads back.
int fuzzMcpRequest(const uint8_t *data, size_t size);
/// A search space (transform.tune choices and kbench.constraints) through
/// the space reader, resolved at three points and applied to a fixed task
/// kernel (row_softmax) as the search compiles a candidate.
int fuzzSpace(const uint8_t *data, size_t size);
/// A task's schedules/dispatch.json text through the dispatch reader; an
/// accepted file keeps the reader's promises (names, `when` facts).
int fuzzDispatch(const uint8_t *data, size_t size);

using TestOneInput = int (*)(const uint8_t *data, size_t size);

struct Target {
  const char *name;
  TestOneInput run;
  /// Largest input worth trying (libFuzzer's -max_len in scripts/fuzz.sh).
  size_t maxLen;
};

/// Every target, by the name scripts/fuzz.sh and kbench-fuzz-replay use (and
/// the corpus folder tools/kbench-fuzz/corpus/<name>).
inline constexpr Target kTargets[] = {
    {"tile-ir", fuzzTileIR, 8192},         {"transform", fuzzTransform, 4096},
    {"tile-verify", fuzzTileVerify, 8192}, {"lowering", fuzzLowering, 8192},
    {"task-json", fuzzTaskJson, 8192},     {"manifest", fuzzManifest, 8192},
    {"mcp-request", fuzzMcpRequest, 4096}, {"space", fuzzSpace, 8192},
    {"dispatch", fuzzDispatch, 4096},
};

} // namespace kbench::fuzz

#endif // KBENCH_TOOLS_KBENCH_FUZZ_FUZZTARGETS_H
