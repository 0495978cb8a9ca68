//===- Task.h - The task.json contract ----------------------------*- C++ -*-===//
//
// A task (`tasks/<name>/task.json`, see docs/runner.md) says what a kernel
// computes: its tensors with shapes over named dims, how inputs and params are
// drawn, the reference as ATen ops called by name, the shape sets (tune, check,
// heldout), the tolerance and the cost formulas behind "% of floor".
//
// The one task.json parser, plain C++17 (nlohmann/json + ShapeExpr), shared
// by the runner (its supervisor, before anything touches LibTorch or the GPU)
// and the compiler (TaskSignature.h), so both accept the same files with the
// same messages. Every error names the file and the field, e.g.
//   task.json: inputs[1].init: unknown init 'identity' (kaiming, xavier, ...)
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SUPPORT_TASK_H
#define KBENCH_SUPPORT_TASK_H

#include "kbench/Support/DType.h"
#include "kbench/Support/JsonField.h"
#include "kbench/Support/ShapeExpr.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kbench {

/// |out - ref| <= atol + rtol * |ref| elementwise, and the accuracy rule:
/// the candidate's RMS error against the fp64 reference is at most
/// `fp64Ratio` times the task's own reference's (floored at one unit
/// roundoff of RMS(ref)). The elementwise bound alone cannot tell an f32
/// kernel from one that rounds an intermediate to f16 (relative error
/// 2^-11 < 1e-3); the ratio can (docs/runner.md, "Accuracy"). 0 turns the
/// rule off.
struct Tolerance {
  double atol = 1e-3;
  double rtol = 1e-3;
  double fp64Ratio = 128;
};

/// RUNNER.md defaults: fp32 1e-3, f16/bf16 1e-2, f64 1e-7, integers exact;
/// fp64_ratio 128 for f32, f16 and bf16, off for f64 and integers (there is
/// no more precise reference to measure them against).
Tolerance defaultTolerance(DType dtype);

/// How a task input is drawn for each seed.
enum class Init {
  Randn,   ///< role input: N(0, 1), then the distribution transform
  Randint, ///< integer inputs: uniform in [0, high)
  Kaiming, ///< U(-1/sqrt(fan_in), 1/sqrt(fan_in)), fan_in = prod(shape[1:])
  Xavier,  ///< U(-a, a), a = sqrt(6 / (fan_in + fan_out)), fan_out = shape[0]
  Uniform, ///< U(-1, 1)
  Normal,  ///< N(0, 1)
};
const char *initName(Init init);

enum class Role {
  Input, ///< data: every distribution of the protocol applies
  Param, ///< weights: a random init per seed, never identity
  Grad,  ///< backward tasks: the seeded grad_out of a forward result
};
const char *roleName(Role role);

/// One tensor of the task: an input (inputs[]) or an output (outputs[]).
struct TensorSpec {
  std::string name;
  std::vector<ShapeExpr> shape;
  DType dtype = DType::F32;
  // Inputs only.
  Role role = Role::Input;
  Init init = Init::Randn;
  std::optional<ShapeExpr> high; ///< Init::Randint upper bound (exclusive)
  std::string of;                ///< Role::Grad: the forward result it seeds
  // Outputs only.
  std::string gradOf; ///< backward tasks: the input this gradient is of
  std::optional<Tolerance> tolerance;
  /// Where it was declared ("inputs[1]"), for messages.
  std::string field;

  /// Extents at `dims`. Throws InputError when an expression fails.
  std::vector<int64_t> extents(const SymbolValues &dims) const;
};

/// One step of the reference: an ATen op called by name through the
/// dispatcher. Arguments stay JSON until they are bound against the op's
/// schema (Reference.h), which knows whether "tanh" is a string or a tensor.
struct RefOp {
  std::string op;       ///< "aten::add.Tensor"
  std::string name;     ///< "aten::add"
  std::string overload; ///< "Tensor" ("" for the default overload)
  std::vector<nlohmann::json> args;
  std::vector<std::pair<std::string, nlohmann::json>> kwargs;
  std::vector<std::string> outs; ///< "" drops a result
  std::string field;             ///< "reference[2]"
};

/// One shape configuration of a shape set.
struct ShapeCase {
  std::string set; ///< "tune", "check" or "heldout"
  int index = 0;
  /// The shape as task.json writes it.
  SymbolValues dims;
  /// `dims` and the task's derived dims: what a bundle's buffers, grids,
  /// launch arguments and requires facts are evaluated at.
  SymbolValues launchDims;

  /// "check[1] {M=7, N=129}".
  std::string label() const;
};

struct Task {
  std::string name;
  bool backward = false;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
  std::vector<RefOp> reference;
  /// "tune", "check", "heldout" -> shapes, in file order.
  std::map<std::string, std::vector<ShapeCase>> shapes;
  Tolerance tolerance;
  /// `"derived_dims": {"P": "min(64, ceildiv(M, 256))"}`: dims a task
  /// computes from its shape's dims, for the temporaries of its kernels (the
  /// partial results of a reduction split across CTAs). Tensors and cost
  /// formulas use the shape's dims only.
  std::vector<std::pair<std::string, ShapeExpr>> derivedDims;
  std::optional<ShapeExpr> costFlops;
  std::optional<ShapeExpr> costBytes;
  /// The GEMM rate the flops floor is measured against: f32, tf32, bf16, f16.
  std::string costMath = "f32";
  /// `"allow_tf32": true`: the task's f32 matmuls may round their operands
  /// to tf32 (10 mantissa bits). Kernels may then use f32 tensor cores
  /// (impl = mma_sync), and the fp32 reference runs with TF32 on, so that
  /// the accuracy rule measures the candidate against a tf32 reference.
  bool allowTf32 = false;
  /// The folder holding task.json.
  std::filesystem::path dir;
  /// The file it came from, for messages.
  std::string file;

  const TensorSpec *findInput(const std::string &name) const;
  const TensorSpec *findOutput(const std::string &name) const;
  /// Tolerance of one output: its own override, else the task's.
  Tolerance toleranceFor(const TensorSpec &output) const;
};

/// The exit status of every command that reads task.json (kbench compile,
/// verify, eval and search; kbench-run and its --batch) when the file is
/// invalid: 2, the runner's "the run could not be judged". A refuted or
/// failing kernel exits 1, so a caller can tell a bad task from a bad kernel.
inline constexpr int kInvalidTaskExitCode = 2;

/// The shape-set names in protocol order.
const std::vector<std::string> &shapeSetNames();

/// Reads `<dir>/task.json` (or `path` itself when it names a file).
Task parseTaskFile(const std::filesystem::path &path);

/// Parses an already-read document; `file` is used in messages only.
Task parseTask(const nlohmann::json &doc, const std::string &file);

} // namespace kbench

#endif // KBENCH_SUPPORT_TASK_H
