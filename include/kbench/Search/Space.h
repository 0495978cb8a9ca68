//===- Space.h - A search space: a transform script with open choices -*- C++ -*-===//
//
// A space is a schedule (a transform script with @__transform_main) whose
// choices are left open with the transform dialect's own tuning ops:
//
//   %bn = transform.tune.knob<"BN"> options = [256, 512, 1024] -> !transform.param<i64>
//   %w  = transform.tune.alternatives<"wide"> -> !transform.param<i64> { ... }, { ... }
//
// A candidate is the space with every choice resolved: kbench sets the ops'
// own `selected` / `selected_region` attributes, so a resolved space is a
// plain schedule that `kbench compile --schedule` accepts unchanged.
// Constraints between knobs (which upstream's transform.smt.constrain_params
// cannot evaluate yet) are facts in the ShapeExpr language attached to the
// entry: `attributes {kbench.constraints = ["BR * BN <= 4096 * num_warps"]}`.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SEARCH_SPACE_H
#define KBENCH_SEARCH_SPACE_H

#include "kbench/Support/ShapeExpr.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <optional>
#include <string>
#include <vector>

namespace kbench::search {

/// One open choice: a tune.knob (its integer options) or a
/// tune.alternatives (options 0..regions-1, the region index).
struct Knob {
  std::string name;
  std::vector<int64_t> options;
  bool isAlternatives = false;
  mlir::Operation *op = nullptr;
};

/// An index into each knob's options, in the order of Space::getKnobs().
using Assignment = std::vector<int64_t>;

/// A constraint between knobs, e.g. "BR * BN <= 4096 * num_warps".
struct Constraint {
  std::string text;
  ShapeFact fact;
};

class Space {
public:
  /// Parses the space in `text` (named `name` in messages). Errors name the
  /// file, line and the fix, and are reported through the context's
  /// diagnostic engine.
  static std::optional<Space> parse(mlir::MLIRContext &context,
                                    llvm::StringRef text, llvm::StringRef name);

  /// The text of the default space of the single tile.kernel in
  /// `kernelModule`, derived from the kernel's own params and never from a
  /// tuned schedule: each tile param over powers of two from a quarter to
  /// eight times its value, num_warps in {1, 2, 4, 8, 16}, vector_width in
  /// {1, 2, 4}, cache_hints in {0, 1} where a load would take a hint, a
  /// per-thread budget of 64 elements for every partition tile of two or
  /// more sizes, and a structural alternative per rewrite
  /// that fits the kernel (RewriteProbes.h): "split_reduction" (without or
  /// with transform.tile.split_reduction in chunks of the knob "chunk"),
  /// "mask_boundary_tiles", "single_pass", "stage_transposes",
  /// "stage_epilogue" (each without
  /// or with its op) and "mma_impl" (simt, mma_sync or wgmma, with the knob
  /// "stages" where there is a K loop). Empty with `error` set when the
  /// module has no single kernel.
  static std::string defaultSpaceText(mlir::ModuleOp kernelModule,
                                      std::string &error);

  const std::vector<Knob> &getKnobs() const { return knobs; }
  const std::vector<Constraint> &getConstraints() const { return constraints; }
  /// Number of points (product of option counts), saturating at 2^62.
  int64_t size() const;

  /// Knob name -> chosen value, for constraints and records.
  SymbolValues values(const Assignment &assignment) const;

  /// The first constraint `assignment` breaks, as a message naming the
  /// constraint and the knob values; nullopt when all hold.
  std::optional<std::string> checkConstraints(const Assignment &assignment) const;

  /// Resolves every choice in the held module to `assignment`; the module is
  /// then a plain schedule (apply it, or print()).
  void select(const Assignment &assignment);

  /// The held module as text (after select(): the candidate's schedule).
  std::string print() const;

  mlir::ModuleOp getModule() const { return module.get(); }

  Space(Space &&) = default;
  Space &operator=(Space &&) = default;

private:
  Space() = default;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::vector<Knob> knobs;
  std::vector<Constraint> constraints;
};

} // namespace kbench::search

#endif // KBENCH_SEARCH_SPACE_H
