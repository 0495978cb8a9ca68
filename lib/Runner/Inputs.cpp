//===- Inputs.cpp - Seeds, distributions and input tensors ----------------===//
//
// See Inputs.h for the distributions and why each exists. Params follow the
// usual fan-in rules (kaiming as nn.Linear does, xavier) so that outputs have
// realistic magnitudes; they are never identity or constant, since a kernel
// that skips a multiply by ones is invisible (KB L2/85).
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Inputs.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <cmath>

namespace kbench::runner {

at::ScalarType toScalarType(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return at::kFloat;
  case DType::F16:
    return at::kHalf;
  case DType::BF16:
    return at::kBFloat16;
  case DType::F64:
    return at::kDouble;
  case DType::I8:
    return at::kChar;
  case DType::I32:
    return at::kInt;
  case DType::I64:
    return at::kLong;
  case DType::I1:
    return at::kBool;
  }
  return at::kFloat;
}

/// FNV-1a: a stable per-name stream, independent of std::hash.
static uint64_t nameHash(const std::string &name) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : name)
    h = (h ^ c) * 1099511628211ULL;
  return h;
}

TensorMap drawInputs(const Task &task, const SymbolValues &dims, uint64_t seed) {
  TensorMap result;
  at::NoGradGuard noGrad;
  for (const TensorSpec &t : task.inputs) {
    std::vector<int64_t> sizes = t.extents(dims);
    at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(splitmix64(seed ^ nameHash(t.name)));
    at::TensorOptions f32 = at::TensorOptions().dtype(at::kFloat);
    int64_t fanIn = 1;
    for (size_t i = 1; i < sizes.size(); ++i)
      fanIn *= sizes[i];
    int64_t fanOut = sizes.empty() ? 1 : sizes[0];
    at::Tensor x;
    switch (t.init) {
    case Init::Randn:
    case Init::Normal:
      x = at::randn(sizes, gen, f32);
      break;
    case Init::Uniform:
      x = at::empty(sizes, f32).uniform_(-1.0, 1.0, gen);
      break;
    case Init::Kaiming: {
      double bound = 1.0 / std::sqrt(static_cast<double>(fanIn));
      x = at::empty(sizes, f32).uniform_(-bound, bound, gen);
      break;
    }
    case Init::Xavier: {
      double bound = std::sqrt(6.0 / static_cast<double>(fanIn + fanOut));
      x = at::empty(sizes, f32).uniform_(-bound, bound, gen);
      break;
    }
    case Init::Randint: {
      std::string error;
      std::optional<int64_t> high = t.high->evaluate(dims, error);
      if (!high || *high < 1)
        throw InputError(t.field + ".high '" + t.high->str() + "': " +
                         (high ? "must be >= 1" : error));
      x = at::randint(*high, sizes, gen, at::TensorOptions().dtype(at::kLong));
      break;
    }
    }
    result[t.name] = x.to(toScalarType(t.dtype));
  }
  return result;
}

TensorMap applyDistribution(const Task &task, const TensorMap &base, Distribution d) {
  TensorMap result = base;
  at::NoGradGuard noGrad;
  for (const TensorSpec &t : task.inputs) {
    if (t.role != Role::Input || !isFloat(t.dtype))
      continue;
    const at::Tensor &x = base.at(t.name);
    switch (d) {
    case Distribution::Randn:
      break;
    case Distribution::Negated:
      result[t.name] = x.neg();
      break;
    case Distribution::Small:
      result[t.name] = x.mul(0.01);
      break;
    case Distribution::Large:
      result[t.name] = x.abs().mul(3.0);
      break;
    case Distribution::Structural: {
      at::Tensor s = x.mul(4.0).round().div(4.0);
      if (s.dim() >= 1 && s.size(0) >= 2)
        s.select(0, s.size(0) / 2).mul_(32.0);
      if (s.dim() >= 1 && s.size(0) >= 3)
        s.select(0, s.size(0) - 1).fill_(1.0);
      result[t.name] = s;
      break;
    }
    }
  }
  return result;
}

} // namespace kbench::runner
