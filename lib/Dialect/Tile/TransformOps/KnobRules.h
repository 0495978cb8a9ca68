//===- KnobRules.h - Legality of tile kernel knobs --------------*- C++ -*-===//
//
// Private to the transform.tile.* ops: an undo log for in-place edits, the
// retiling behind set_params (Retile.cpp) and the rules every stored knob
// must satisfy (KnobRules.cpp). Each op edits a kernel through PayloadEdits,
// then runs checkKnobs and verifyKernel and undoes everything on failure, so
// a failing op leaves the kernel exactly as it found it.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_KNOBRULES_H
#define KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_KNOBRULES_H

#include "kbench/Dialect/Tile/IR/Tile.h"
#include "kbench/Support/KernelConfig.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>
#include <vector>

namespace kbench::transform {

/// The param a knob is stored in (KernelConfig.h's table names them).
inline llvm::StringRef knobParam(Knob knob) { return getKnobSpec(knob).param; }

/// Grids up to this many blocks per side are checked by transform.tile.raster.
inline constexpr int64_t kRasterProofGrid = 32;

/// Why a knob edit is illegal: a one-line message (without the transform op's
/// name, which the caller prepends) and the payload location it concerns.
struct KnobFailure {
  std::string message;
  mlir::Location where;
  std::string note;
};

/// In-place edits of payload types and attributes, recorded so that they can
/// be undone in reverse order. Edits keep every operation (and so every
/// transform handle) alive.
class PayloadEdits {
public:
  void setType(mlir::Value value, mlir::Type type);
  void setAttr(mlir::Operation *op, mlir::StringAttr name,
               mlir::Attribute value);
  void removeAttr(mlir::Operation *op, mlir::StringAttr name);
  /// Restores every edited type and attribute.
  void undo();

private:
  /// One edit: a type (`op` null) or an attribute (`old` null: was absent).
  struct Edit {
    mlir::Value value;
    mlir::Type oldType;
    mlir::Operation *op = nullptr;
    mlir::StringAttr name;
    mlir::Attribute old;
  };
  llvm::SmallVector<Edit> log;
};

/// Sets param `name` of `kernel` to `value` (adding it when absent).
void setParam(tile::KernelOp kernel, llvm::StringRef name, int64_t value,
              PayloadEdits &edits);

/// Gives the params in `assignments` their new values and re-types every
/// partition and tensor whose shape depends on them. Fails, without editing,
/// when the shape rules tie a changed param to a different value: another
/// param, a literal tile size, or an op whose tiles cannot be retiled.
std::optional<KnobFailure>
retileKernel(tile::KernelOp kernel, const llvm::StringMap<int64_t> &assignments,
             PayloadEdits &edits);

/// For each tile of `tiles` (values of `kernel`), the param that sizes each
/// of its dims (the param set_params would retile that dim with), or nullopt
/// where no param does: then no set_params changes the dim. One analysis of
/// the kernel serves every tile.
std::vector<llvm::SmallVector<std::optional<llvm::StringRef>>>
tileDimParams(tile::KernelOp kernel, llvm::ArrayRef<mlir::Value> tiles);

/// Why `value` of the on/off rewrite `knob` is neither 0 nor 1 (`what`
/// says what 1 does), or nullopt when it is one of them.
std::optional<KnobFailure> checkOnOff(tile::KernelOp kernel,
                                      llvm::StringRef knob, int64_t value,
                                      llvm::StringRef what);

/// Verifies `kernel`, capturing instead of emitting the first error.
std::optional<KnobFailure> verifyKernel(tile::KernelOp kernel);

/// Whether `loop` is a K loop transform.tile.pipeline may set a depth on: the
/// SIMT shape (gpu_lowering::getPipelinableMma) or a K loop of one mma_sync
/// tile.mma (whose depth rules are gpu_lowering::whyNotMmaSync's).
bool isPipelineTarget(mlir::scf::ForOp loop);

/// Fails unless `loop` has the shape of a K loop tile-to-gpu can pipeline
/// (gpu_lowering::getPipelinableMma); `what` starts the message.
std::optional<KnobFailure> checkPipelinableLoop(mlir::scf::ForOp loop,
                                                llvm::StringRef what);

/// Whether tile-to-gpu accepts `stages` on `loop` at `numWarps` warps: the depth
/// is in the knob table, and a depth above 1 needs isPipelinableMmaLoop.
std::optional<KnobFailure> checkPipelineStages(mlir::scf::ForOp loop,
                                               int64_t stages,
                                               int64_t numWarps);

/// Checks every stored knob (num_warps, vector_width, group_m, the loops'
/// tile.pipeline_stages) and the shared-memory and register estimates of
/// `kernel` as it is now.
std::optional<KnobFailure> checkKnobs(tile::KernelOp kernel);

} // namespace kbench::transform

#endif // KBENCH_LIB_DIALECT_TILE_TRANSFORMOPS_KNOBRULES_H
