//===- Baselines.h - What the candidate is timed against ----------*- C++ -*-===//
//
// The worker's half of the baselines (BaselinePlan.h has the supervisor's).
// A candidate is timed, interleaved and under the same L2 flush, against
//   eager_tf32_off  the task's reference ops (Reference.h), TF32 off;
//   eager_tf32_on   the same with TF32 on, for tasks with an fp32 matmul;
//   torch_compile   the reference compiled ahead of time by AOTInductor
//                   (scripts/gpu-aoti-package.py), one package per task and
//                   timed shape, loaded with LibTorch's AOTIModelPackageLoader.
// A package the supervisor found is checked against the reference once and
// then timed ("measured"), or refused ("rejected"): a wrong package must
// never become a baseline.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_BASELINES_H
#define KBENCH_RUNNER_BASELINES_H

#include "kbench/Runner/Inputs.h"
#include "kbench/Runner/Timing.h"

#include <string>
#include <vector>

namespace kbench::runner {

class Reference;

/// Turns TF32 for cuBLAS and cuDNN on or off in LibTorch's global context.
void setTf32(bool on);

/// The baseline contestants at one timed shape, on device tensors `inputs`:
/// eager TF32 off, eager TF32 on (fp32 matmul tasks) and, when `package` is
/// not empty, torch_compile after its outputs matched the reference once.
/// `status` receives that package's status ("measured" or "rejected" with a
/// detail). The closures hold references to `reference` and copies of
/// `inputs`; they live until the shape is timed.
std::vector<Contestant> baselineContestants(const Reference &reference, const Task &task,
                                            const TensorMap &inputs, const SymbolValues &dims,
                                            const std::string &package, nlohmann::json &status);

} // namespace kbench::runner

#endif // KBENCH_RUNNER_BASELINES_H
