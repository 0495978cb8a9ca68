//===- Protocol.h - The input distributions and seeds of the protocol -*- C++ -*-===//
//
// The vocabulary of a case (shape x seed x distribution), without LibTorch, so
// that flags and reports can name distributions; the tensors are made in
// Inputs.h. Why each distribution exists:
//   randn       N(0, 1), sign-mixed and dense
//   negated     -randn (KernelBench-Verified's best catcher)
//   small       randn x 0.01
//   large       |randn| x 3, same-sign; kept only when the fp32 reference
//               agrees with an fp64 reference (below the validity ceiling)
//   structural  randn rounded to multiples of 0.25 (ties for max), one outlier
//               row x 32 (overflows an exp without max-subtraction) and one
//               constant row (ties across a row, zero variance); fp64-gated
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_PROTOCOL_H
#define KBENCH_RUNNER_PROTOCOL_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kbench::runner {

enum class Distribution { Randn, Negated, Small, Large, Structural };

const std::vector<Distribution> &allDistributions();
const char *distributionName(Distribution d);
std::optional<Distribution> parseDistribution(const std::string &name);

/// Large and structural inputs are kept only when fp32 and fp64 references
/// agree within the tolerance.
bool isFp64Gated(Distribution d);
/// Distributions at the task's natural scale, where the unrefereeable rule
/// (atol >= 0.1 * RMS(ref)) applies.
bool isNominal(Distribution d);

/// The version of the check and timing protocol, in every report.json. Bumped
/// when numbers measured before are no longer comparable; 1: candidate and
/// eager TF32 off/on interleaved, L2 flush by reading (2026-11-29); 2: the
/// torch.compile package joins the rotation (docs/runner.md, "Baselines");
/// 3: the candidate's outputs are poisoned again before every timed run
/// (outside the events) and check run 2 starts from outputs that half hold
/// the answer (docs/runner.md, "Timing" and "Checks"), 2026-12-01.
inline constexpr int kProtocolVersion = 3;

/// Seed i of the protocol: splitmix64(42 + i) >> 1, printed in the report.
uint64_t protocolSeed(int i);

/// splitmix64, also used to derive one generator per (seed, tensor).
uint64_t splitmix64(uint64_t x);

} // namespace kbench::runner

#endif // KBENCH_RUNNER_PROTOCOL_H
