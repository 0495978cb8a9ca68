//===- Manifest.h - A compiled bundle's manifest.json -------------*- C++ -*-===//
//
// The runner's side of docs/bundle.md: read manifest.json (through the shared
// schema, kbench/Support/BundleSchema.h), check it against the task it claims
// to implement (names, dtypes, shapes, launch arguments), and, per shape,
// evaluate the `requires` facts and the grids. Plain C++; the supervisor does
// all of this before a worker starts.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_RUNNER_MANIFEST_H
#define KBENCH_RUNNER_MANIFEST_H

#include "kbench/Support/Task.h"
#include "kbench/Support/BundleSchema.h"

#include <array>

namespace kbench::runner {

// The manifest's types, writer and reader are the shared schema's.
using bundle::BufferSpec;
using bundle::KernelParamSpec;
using bundle::KernelSpec;
using bundle::LaunchSpec;
using bundle::parseManifest;
using bundle::parseManifestFile;
using Manifest = bundle::BundleManifest;

/// Checks that the bundle implements `task`: the task name, every task input
/// and output present as a buffer of the same dtype and shape (params are
/// bundle inputs), launch arguments that match the kernel params in kind,
/// dtype and dims, tma_descriptor params whose box (and view) a tensor map
/// can encode (sm_90a bundles only), and that the binary files for `target` exist;
/// refuses workspaces, which this runner cannot pass yet. Throws InputError
/// naming the manifest field and the task field.
void checkManifestAgainstTask(const Manifest &manifest, const Task &task,
                              const std::string &target);

/// One launch with everything evaluated at a shape.
struct ResolvedLaunch {
  size_t kernel = 0;
  std::array<int64_t, 3> grid = {1, 1, 1};
  /// What a tma_descriptor's CUtensorMap is encoded from (docs/bundle.md);
  /// every list is outermost axis first, the manifest's order.
  /// The dense case is the view whose shape is the buffer's extents and
  /// whose strides are its row-major strides, so bind() has one path.
  struct TensorMapSpec {
    DType dtype = DType::F32;
    std::vector<int64_t> shape;   ///< the view's extents (no view: the buffer's)
    std::vector<int64_t> strides; ///< the view's strides in elements (no view:
                                  ///< the dense row-major ones)
    std::vector<int64_t> box;     ///< the param's `dims`, evaluated
    int64_t swizzleBytes = 0;     ///< 0 (none), 32, 64 or 128
    int64_t bufferElements = 0;   ///< the buffer's element count at this shape
  };
  struct Arg {
    KernelParamSpec::Kind kind;
    std::string buffer; ///< memref, tma_descriptor: the buffer;
                        ///< scalar: the rank-0 task input
    int64_t dim = 0;    ///< dim: its value
    TensorMapSpec tensorMap; ///< tma_descriptor only
  };
  std::vector<Arg> args;
};

// selectVariant and violatedRequires (kbench/Support/BundleSchema.h): the
// compiler's search uses them too, to refuse a candidate before a GPU does.
using bundle::selectVariant;
using bundle::violatedRequires;

/// Grids and arguments of the launch sequence at `dims` (of the variant
/// selectVariant picks). Throws InputError
/// when a grid, a tensor map's box or view does not evaluate, or a grid is
/// out of range for the target.
std::vector<ResolvedLaunch> resolveLaunches(const Manifest &manifest, const SymbolValues &dims);

/// Extents of a buffer at `dims` (throws InputError on a bad expression).
std::vector<int64_t> bufferExtents(const BufferSpec &buffer, const SymbolValues &dims);

} // namespace kbench::runner

#endif // KBENCH_RUNNER_MANIFEST_H
