//===- Inputs.h - Input tensors for a shape, seed and distribution *- C++ -*-===//
//
// Per shape x seed, one base draw of every task input (Protocol.h says why
// each distribution exists); per distribution, a transform of the role-input
// float tensors. Params and grads are left as drawn (re-drawn per seed).
// Draws happen on the CPU with one generator per (seed, tensor name), so a
// case is reproduced from its seed alone, whatever the shape order.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_INPUTS_H
#define KBENCH_RUNNER_INPUTS_H

#include "kbench/Runner/Protocol.h"
#include "kbench/Support/Task.h"

#include <ATen/core/Tensor.h>

#include <map>

namespace kbench::runner {

using TensorMap = std::map<std::string, at::Tensor>;

at::ScalarType toScalarType(DType dtype);

/// Every task input drawn for `seed` at `dims`, on the CPU.
TensorMap drawInputs(const Task &task, const SymbolValues &dims, uint64_t seed);

/// The inputs of one distribution (new tensors for transformed inputs).
TensorMap applyDistribution(const Task &task, const TensorMap &base, Distribution d);

} // namespace kbench::runner

#endif // KBENCH_RUNNER_INPUTS_H
