//===- Reference.h - A task's reference as ATen ops by name -------*- C++ -*-===//
//
// task.json's `reference` is a list of ATen ops called by name through
// c10::Dispatcher (boxed calls), so a task needs no Python and no C++: any op
// of the installed LibTorch, any overload ("aten::add.Tensor"). Arguments are
// bound against the op's schema once, at load time, which is where a string
// becomes a tensor name, a str argument ("tanh") or a shape expression ("N"),
// and where a missing or mistyped argument is reported with its field.
//
// Backward tasks run their forward ops with autograd recording and return the
// gradients of the `grad_of` inputs for the seeded grad_out inputs.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_REFERENCE_H
#define KBENCH_RUNNER_REFERENCE_H

#include "kbench/Runner/Inputs.h"

#include <functional>
#include <memory>

namespace kbench::runner {

class Reference {
public:
  /// Binds every op of `task.reference` to its schema. Throws InputError
  /// naming the op's field ("reference[2].args[1]") on an unknown op or
  /// overload, a wrong argument count, kind or name.
  explicit Reference(const Task &task);
  ~Reference();
  Reference(Reference &&) noexcept;

  /// The task's outputs (forward) or gradients (backward), by output name,
  /// computed from `inputs` at `dims`. Throws InputError naming the op when
  /// an op fails or a result has the wrong dtype or shape; `checkDtypes` is
  /// off for the fp64 validity reference.
  TensorMap run(const TensorMap &inputs, const SymbolValues &dims, bool checkDtypes = true) const;

  /// A closure for timing the eager baseline: forward tasks re-run the ops;
  /// backward tasks record the forward graph once and re-run only the
  /// gradient computation (as robust-kbench times backward).
  std::function<void()> timedClosure(const TensorMap &inputs, const SymbolValues &dims) const;

  /// True when an op is a matmul or convolution on fp32 data: the eager
  /// baseline is then also timed with TF32 on.
  bool hasFp32Matmul() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace kbench::runner

#endif // KBENCH_RUNNER_REFERENCE_H
