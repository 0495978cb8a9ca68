//===- TileMutate.cpp - The tile-mutate pass ------------------------------===//
//
// Parses `mutation=FAMILY:SITE:SEED`, finds the site among the family's sites
// (MutationSites.h) and applies the variant the seed picks; `list-sites`
// prints every family's sites instead. Deterministic: the same module and
// mutation always give the same mutant.
//
//===----------------------------------------------------------------------===//

#include "kbench/Transforms/Passes.h"

#include "MutationSites.h"

#include "kbench/Analysis/KernelModel.h"

#include "mlir/Analysis/Presburger/PresburgerRelation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/raw_ostream.h"

namespace kbench {
#define GEN_PASS_DEF_TILEMUTATE
#include "kbench/Transforms/Passes.h.inc"
} // namespace kbench

using namespace mlir;

namespace {

struct TileMutatePass : kbench::impl::TileMutateBase<TileMutatePass> {
  using TileMutateBase::TileMutateBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (listSites) {
      for (const char *family : kbench::mutation::kFamilies) {
        auto sites = kbench::mutation::collectSites(module, family);
        for (auto [i, site] : llvm::enumerate(sites)) {
          llvm::outs() << family << ":" << i << " variants="
                       << site.variants.size() << " " << site.what << " [";
          llvm::interleave(site.variants, llvm::outs(), "|");
          llvm::outs() << "]\n";
        }
      }
      return;
    }
    if (mutation.empty())
      return;

    SmallVector<StringRef> parts;
    StringRef(mutation).split(parts, ':');
    unsigned site = 0, seed = 0;
    if (parts.size() != 3 || parts[1].getAsInteger(10, site) ||
        parts[2].getAsInteger(10, seed)) {
      module.emitError() << "tile-mutate: mutation='" << mutation
                         << "' must be FAMILY:SITE:SEED with non-negative "
                            "integers, e.g. F1:0:0";
      return signalPassFailure();
    }
    if (!llvm::is_contained(kbench::mutation::kFamilies, parts[0])) {
      module.emitError() << "tile-mutate: unknown family '" << parts[0]
                         << "'; the families are F1, F2, F4, F5, F6 and F7";
      return signalPassFailure();
    }
    auto sites = kbench::mutation::collectSites(module, parts[0]);
    if (site >= sites.size()) {
      module.emitError() << "tile-mutate: " << parts[0] << " has "
                         << sites.size() << " sites in this module, so site "
                         << site
                         << " does not exist; list them with list-sites";
      return signalPassFailure();
    }
    const kbench::mutation::Site &target = sites[site];
    // An index mutation that leaves the access relation unchanged (`c * 2`
    // where c is always 0) is an equivalent mutant; say so, so that mutation
    // analysis does not count it.
    // Likewise a grid mutation that launches the same blocks for every shape.
    using Kind = kbench::mutation::Site::Kind;
    std::optional<mlir::presburger::PresburgerRelation> before;
    if (target.kind == Kind::Index)
      before = relationOf(target.op);
    else if (target.kind == Kind::Grid)
      before = blocksOf(target.op);
    if (failed(kbench::mutation::applySite(parts[0], target, seed)))
      return signalPassFailure();
    if (before) {
      std::optional<mlir::presburger::PresburgerRelation> after =
          target.kind == Kind::Index ? relationOf(target.op)
                                     : blocksOf(target.op);
      if (after && before->isEqual(*after))
        target.op->emitRemark()
            << "tile-mutate: equivalent mutant: " << mutation
            << (target.kind == Kind::Index
                    ? " leaves the access relation of this op unchanged"
                    : " launches the same blocks for every shape");
    }
  }

  /// The launched blocks {(dims, block)} of the kernel around `op`.
  static std::optional<mlir::presburger::PresburgerRelation>
  blocksOf(Operation *op) {
    auto kernel = op->getParentOfType<kbench::tile::KernelOp>();
    if (!kernel)
      return std::nullopt;
    kbench::KernelModel model(kernel);
    if (!model.getUnsupported().empty())
      return std::nullopt;
    kbench::LinearSystem sys;
    llvm::SmallVector<kbench::LinearExpr> syms = model.emitSymbols(sys);
    (void)model.emitInstance(sys, syms, /*scope=*/-1, "", false);
    return mlir::presburger::PresburgerRelation(sys.toPolyhedron());
  }

  /// The access relation of a memory op, if its kernel is in the fragment.
  static std::optional<mlir::presburger::PresburgerRelation>
  relationOf(Operation *op) {
    auto kernel = op->getParentOfType<kbench::tile::KernelOp>();
    if (!kernel)
      return std::nullopt;
    kbench::KernelModel model(kernel);
    const kbench::AccessInfo *access = model.getAccess(op);
    if (!model.getUnsupported().empty() || !access ||
        !access->unsupported.empty())
      return std::nullopt;
    return mlir::presburger::PresburgerRelation(
        model.getRelation(*access).relation);
  }
};

} // namespace
