//===- Manifest.h - A compiled bundle's manifest.json -------------*- C++ -*-===//
//
// The runner's side of docs/bundle.md: parse manifest.json, check it against
// the task it claims to implement (names, dtypes, shapes, launch arguments),
// and, per shape, evaluate the `requires` facts and the grids. Plain C++; the
// supervisor does all of this before a worker starts.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_MANIFEST_H
#define KBENCH_RUNNER_MANIFEST_H

#include "kbench/Runner/Task.h"

#include <array>

namespace kbench::runner {

/// One argument of a kernel, in ABI order.
struct KernelParamSpec {
  enum class Kind { Memref, Dim, Scalar };
  std::string name;
  Kind kind = Kind::Memref;
  DType dtype = DType::F32;       ///< memref element type or scalar type
  std::vector<ShapeExpr> dims; ///< memref: one dim (expression) per axis
};

struct KernelSpec {
  std::string name;
  std::string symbol;
  std::vector<KernelParamSpec> params;
  std::array<ShapeExpr, 3> grid;
  std::array<int64_t, 3> block = {1, 1, 1};
  int64_t dynamicSharedMemory = 0;
  std::vector<ShapeFact> requirements; ///< the manifest's `requires` facts
  nlohmann::json resources; ///< ptxas figures, copied into the report
};

struct BufferSpec {
  enum class Role { Input, Output, Temporary };
  std::string name;
  DType dtype = DType::F32;
  std::vector<ShapeExpr> shape;
  Role role = Role::Input;
};

struct LaunchSpec {
  size_t kernel = 0; ///< index into Manifest::kernels
  std::vector<std::string> args;
  std::string field; ///< "launches[0]"
};

struct Manifest {
  std::string target; ///< "sm_90a" or "host"
  std::string task;
  nlohmann::json compiler;
  std::string irHash;
  std::string verification;
  std::vector<BufferSpec> buffers;
  std::vector<KernelSpec> kernels;
  std::vector<LaunchSpec> launches;
  std::filesystem::path dir;
  std::string file;

  const BufferSpec *findBuffer(const std::string &name) const;
};

/// Reads `<bundleDir>/manifest.json`; throws InputError naming the field.
Manifest parseManifestFile(const std::filesystem::path &bundleDir);
Manifest parseManifest(const nlohmann::json &doc, const std::string &file);

/// Checks that the bundle implements `task`: the task name, every task input
/// and output present as a buffer of the same dtype and shape (params are
/// bundle inputs), launch arguments that match the kernel params in kind,
/// dtype and dims, and that the binary files for `target` exist. Throws
/// InputError naming the manifest field and the task field.
void checkManifestAgainstTask(const Manifest &manifest, const Task &task,
                              const std::string &target);

/// One launch with everything evaluated at a shape.
struct ResolvedLaunch {
  size_t kernel = 0;
  std::array<int64_t, 3> grid = {1, 1, 1};
  struct Arg {
    KernelParamSpec::Kind kind;
    std::string buffer; ///< memref: the buffer; scalar: the rank-0 task input
    int64_t dim = 0;    ///< dim: its value
  };
  std::vector<Arg> args;
};

/// The requires facts of every kernel that do not hold at `dims`, as
/// messages naming the kernel, the fact and the dim values. Empty when all
/// hold.
std::vector<std::string> violatedRequires(const Manifest &manifest, const SymbolValues &dims);

/// Grids and arguments of the launch sequence at `dims`. Throws InputError
/// when a grid does not evaluate or is out of range for the target.
std::vector<ResolvedLaunch> resolveLaunches(const Manifest &manifest, const SymbolValues &dims);

/// Extents of a buffer at `dims` (throws InputError on a bad expression).
std::vector<int64_t> bufferExtents(const BufferSpec &buffer, const SymbolValues &dims);

} // namespace kbench::runner

#endif // KBENCH_RUNNER_MANIFEST_H
