//===- MutationSites.h - Fault sites of tile kernels -------------*- C++ -*-===//
//
// Private to lib/Transforms. The mutation operators of tile-mutate, grouped in
// families (docs/verification.md, "Mutation analysis"). collectSites
// enumerates the sites of one family over a module in walk order; a site
// lists its operator variants, and applySite performs one of them.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_TRANSFORMS_MUTATIONSITES_H
#define KBENCH_LIB_TRANSFORMS_MUTATIONSITES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace kbench::mutation {

/// The families of fault operators.
inline constexpr const char *kFamilies[] = {"F1", "F2", "F4", "F5", "F6", "F7"};

/// One place where a family's operators apply.
struct Site {
  /// What the operators rewrite.
  enum class Kind {
    Index,        // F1, F7: a tile coordinate operand of a memory op
    PadKind,      // F2: the pad of a tile.partition
    LoopBounds,   // F2: bounds of an scf.for
    Grid,         // F2: the view of tile.grid
    Requires,     // F2: one requires fact
    LoopStep,     // F4: step of an scf.for
    Mma,          // F4: a tile.mma
    AtomicAdd,    // F4: a tile.atomic_add
    Carried,      // F4: an iter_arg of an scf.for
    FloatBinary,  // F5, F6, F7: an arith float binary op
    FloatUnary,   // F5, F6: a math/arith float unary op
    Reduce,       // F5, F6: a tile.reduce
    FloatConstant,// F5: a dense float splat constant
    Producer,     // F6: a tile.load or tile.mma result
    Loop,         // F7: an scf.for to reverse
    Hoist,        // F7: a tile.load to move up
  };
  Kind kind;
  mlir::Operation *op;
  /// Operand number (Index), axis (Grid), fact index (Requires), iter_arg
  /// number (Carried).
  unsigned position = 0;
  /// Description for list-sites.
  std::string what;
  /// Operator variants (a SEED picks one modulo their count).
  llvm::SmallVector<std::string> variants;
};

/// The sites of `family` ("F1", ...) in `module`, in walk order.
llvm::SmallVector<Site> collectSites(mlir::ModuleOp module,
                                     llvm::StringRef family);

/// Applies variant `variant` of `site` of `family`. Ops the mutation creates
/// or rewrites get the location "kbench.mutant"(original). Fails with an
/// error at the op when the variant cannot apply.
mlir::LogicalResult applySite(llvm::StringRef family, const Site &site,
                              unsigned variant);

} // namespace kbench::mutation

#endif // KBENCH_LIB_TRANSFORMS_MUTATIONSITES_H
