//===- Compare.h - Tolerance checks and verdicts ------------------*- C++ -*-===//
//
// The numeric half of the correctness protocol (docs/runner.md):
//  - an element passes when |out - ref| <= atol + rtol * |ref|; NaN never
//    passes (the comparison is written so that NaN is false);
//  - outputs are filled with a NaN of a distinctive bit pattern (the poison)
//    before each candidate launch, so an element that still holds it was never
//    written, which is told apart from a NaN the kernel computed;
//  - a task is unrefereeable at a shape when atol >= 0.1 * RMS(ref): a kernel
//    writing zeros would pass;
//  - every comparison reports max abs and rel error, the worst element and the
//    box of indices holding failures, so a verdict can say "rows 64..70".
// Comparisons run in fp64 on the tensors' device.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_COMPARE_H
#define KBENCH_RUNNER_COMPARE_H

#include "kbench/Support/Task.h"

#include <ATen/core/Tensor.h>

namespace kbench::runner {

/// Case verdicts, in the order the report lists them. Everything but Pass
/// and Skipped fails the run.
enum class Verdict {
  Pass,
  Skipped,          ///< a gated distribution whose fp32 reference disagrees with fp64
  Unwritten,        ///< poison survived: part of an output was never written
  InputModified,    ///< an input differs from its clone after the runs
  NonFinite,        ///< NaN/Inf where the reference is finite
  Mismatch,         ///< outside the tolerance
  Inaccurate,       ///< within it, but far less accurate than the reference (fp64 ratio)
  Nondeterministic, ///< run 1 and run 2 of the candidate disagree
  Unrefereeable,    ///< atol >= 0.1 * RMS(ref): the task cannot tell zeros apart
  RequiresViolated, ///< a kernel's `requires` fact is false at this shape
  Crash,            ///< the worker died on a signal
  Timeout,          ///< the watchdog killed the worker
  Fault,            ///< a CUDA error during the candidate (illegal address...)
  Error,            ///< the reference or the runner failed at this case
};

const char *verdictName(Verdict verdict);
bool isFailure(Verdict verdict);

/// What one output comparison found.
struct ErrorStats {
  int64_t count = 0;     ///< elements compared
  int64_t bad = 0;       ///< elements failing the tolerance (NaN included)
  int64_t poisoned = 0;  ///< elements still holding the poison
  int64_t nonFinite = 0; ///< NaN/Inf elements that are not the poison
  double maxAbs = 0;     ///< max |out - ref| over finite pairs
  double maxRel = 0;     ///< max |out - ref| / |ref| over |ref| > atol
  std::vector<int64_t> worst; ///< index of the worst element (largest excess)
  double worstGot = 0;
  double worstExpected = 0;
  /// Per axis, [first, last] index holding a failing element (bad > 0).
  std::vector<std::pair<int64_t, int64_t>> badBox;
  double rmsRef = 0;
  bool refFinite = true;

  bool pass() const { return bad == 0; }
};

/// Compares `out` against `ref` (same shape) under `tol`. `poisonCheck`
/// counts elements holding the poison bit pattern (only meaningful for
/// candidate outputs).
ErrorStats compareTensors(const at::Tensor &out, const at::Tensor &ref, Tolerance tol,
                          bool poisonCheck);

/// The accuracy rule: RMS errors against the fp64 reference.
struct AccuracyStats {
  double candidateRms = 0; ///< RMS(out - ref64)
  double referenceRms = 0; ///< RMS(ref - ref64): the task reference's own error
  double floorRms = 0;     ///< unit roundoff of the output dtype * RMS(ref64)
  double ratio = 0;        ///< candidateRms / max(referenceRms, floorRms)
  double limit = 0;        ///< the tolerance's fp64_ratio
  bool pass() const { return limit == 0 || ratio <= limit; }
};

/// Whether the accuracy rule applies to outputs of this dtype: f32, f16 and
/// bf16, whose fp64 reference is more precise than the task's.
bool hasAccuracyRule(DType dtype);

/// Measures `out` and `ref` against `ref64` (all the same shape, finite).
/// With `tf32Operands` (a task with "allow_tf32": its matmul operands may be
/// rounded to tf32) the floor of an f32 output is tf32's unit roundoff,
/// 2^-11, instead of f32's: a TF32-on reference is not rounded to tf32 at
/// every shape (a 1-row product computed in fp32 was seen on the H200
/// machine), and a tf32 kernel must not be held to an fp32 reference.
AccuracyStats measureAccuracy(const at::Tensor &out, const at::Tensor &ref,
                              const at::Tensor &ref64, DType dtype,
                              Tolerance tol, bool tf32Operands = false);

/// One sentence for a failed accuracy rule.
std::string describeInaccuracy(const std::string &output, const AccuracyStats &stats);

nlohmann::json toJson(const AccuracyStats &stats);

/// atol >= 0.1 * RMS(ref).
bool isUnrefereeable(Tolerance tol, double rmsRef);

/// One sentence for a failed comparison: counts, the index box, the worst
/// element with got/expected, and what it suggests ("never written").
std::string describeFailure(const std::string &output, const ErrorStats &stats, Tolerance tol);

nlohmann::json toJson(const ErrorStats &stats);

/// Fills `t` with the poison: a quiet NaN with payload (0x7FC5EED5 in f32,
/// 0x7FF8BAD0... in f64, 0x7E5B / 0x7FAB in f16 / bf16); integers get 0x5A bytes.
void poison(const at::Tensor &t);

/// The first index where `a` and `b` differ bitwise, and how many do; empty
/// when identical.
std::optional<std::pair<std::vector<int64_t>, int64_t>> bitwiseDifference(const at::Tensor &a,
                                                                           const at::Tensor &b);

/// "[3, 17]".
std::string indexString(const std::vector<int64_t> &index);

} // namespace kbench::runner

#endif // KBENCH_RUNNER_COMPARE_H
