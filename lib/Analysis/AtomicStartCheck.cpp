//===- AtomicStartCheck.cpp - C14: atomic sums start at zero --------------===//
//
// A tile.atomic_add accumulates into memory: the result is the sum only if
// that memory held zero before the kernel ran. C1-C13 see one kernel at a
// time, so a kernel that adds into an output nobody zeroed was proved by them
// and only caught by the runner (its NaN-poisoned outputs). C14 adds the host
// side, as C12 does: for every launch of a kernel with tile.atomic_add, it
// walks the host entry back from the launch to the last earlier launch that
// writes the memory bound to that argument with tile.store. That launch must
// store a zero splat constant, and only that, into it (the kernel
// transform.tile.split_reduction adds, @<name>_zero); launches in between
// that only add into it atomically accumulate into the same sum and are
// passed over. That the zeroing kernel covers every element is its own C2.
//
// Like C12 this is syntactic, holds for every shape at once and needs no
// Presburger query. It follows launches in the entry's body block in order
// (launches inside loops or branches are unsupported), trusts the entry's
// binding and does not model aliasing between distinct memrefs.
//
//===----------------------------------------------------------------------===//

#include "CheckSupport.h"

#include "kbench/Analysis/KernelModel.h"
#include "kbench/Dialect/Tile/IR/KernelABI.h"
#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

namespace kbench::detail {

namespace {

/// How a kernel writes one of its memref arguments.
enum class Writes { None, AtomicOnly, ZerosOnly, Other };

} // namespace

/// The kernel argument a write's view partitions, or -1.
static int64_t writtenArgument(tile::ViewAccessOpInterface write) {
  auto partition = write.getView().getDefiningOp<tile::PartitionOp>();
  if (!partition)
    return -1;
  return cast<BlockArgument>(partition.getSource()).getArgNumber();
}

/// Whether `value` is a splat constant zero (0.0 or 0).
static bool isZeroSplat(Value value) {
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  if (!constant)
    return false;
  auto splat = dyn_cast<SplatElementsAttr>(constant.getValue());
  if (!splat)
    return false;
  if (isa<FloatType>(splat.getElementType()))
    return splat.getSplatValue<APFloat>().isZero();
  return splat.getSplatValue<APInt>().isZero();
}

/// How `kernel` writes its argument `index`; a write through a view that is
/// not a tile.partition counts as Other.
static Writes classifyWrites(tile::KernelOp kernel, unsigned index,
                             Operation *&firstStore) {
  bool atomic = false, zeros = false, other = false;
  firstStore = nullptr;
  kernel.walk([&](Operation *op) {
    auto write = dyn_cast<tile::ViewAccessOpInterface>(op);
    if (!write || !write.writesView())
      return;
    int64_t argument = writtenArgument(write);
    if (argument >= 0 && argument != int64_t(index))
      return;
    if (isa<tile::AtomicAddOp>(op) && argument >= 0) {
      atomic = true;
      return;
    }
    if (!firstStore)
      firstStore = op;
    auto store = dyn_cast<tile::StoreOp>(op);
    if (store && argument >= 0 && isZeroSplat(store.getValue()))
      zeros = true;
    else
      other = true;
  });
  if (other)
    return Writes::Other;
  if (zeros)
    return Writes::ZerosOnly;
  return atomic ? Writes::AtomicOnly : Writes::None;
}

std::string checkAtomicStarts(CheckRun &run) {
  auto kernel = cast<tile::KernelOp>(run.model.getKernel());
  // The arguments this kernel adds into, each with its first atomic add.
  llvm::MapVector<unsigned, Operation *> atomics;
  kernel.walk([&](tile::AtomicAddOp add) {
    int64_t argument =
        writtenArgument(cast<tile::ViewAccessOpInterface>(add.getOperation()));
    if (argument < 0)
      run.unsupported(add, "the view of this tile.atomic_add is not a "
                           "tile.partition, so the argument it adds into is "
                           "unknown");
    else
      atomics.try_emplace(argument, add);
  });
  if (atomics.empty())
    return "@" + kernel.getSymName().str() + " has no tile.atomic_add";
  auto module = kernel->getParentOfType<ModuleOp>();
  unsigned defined = 0;
  func::FuncOp entry = module ? findHostEntry(module, defined) : func::FuncOp();
  if (!entry)
    return "the module has " + std::to_string(defined) +
           " defined func.func, not exactly one host entry, so no launch "
           "order is known";
  std::string entryName = entry.getSymName().str();
  Block &body = entry.getBody().front();
  bool launched = false;
  entry.walk([&](tile::LaunchOp launch) {
    if (launch.getKernelAttr().getValue() != kernel.getSymName())
      return;
    launched = true;
    if (launch->getBlock() != &body) {
      run.unsupported(launch,
                      "this tile.launch of @" + kernel.getSymName().str() +
                          " is inside a loop or branch of @" + entryName +
                          "; C14 follows the launches of its body "
                          "in order");
      return;
    }
    for (const auto &entryOfAtomics : atomics) {
      unsigned index = entryOfAtomics.first;
      Operation *add = entryOfAtomics.second;
      if (index >= launch.getArgs().size())
        continue; // the launch verifier reports the arity
      Value memory = launch.getArgs()[index];
      std::string abiName = tile::getArgName(kernel, index);
      std::string subject = "tile.atomic_add adds into argument #" +
                            std::to_string(index) + " '" + abiName + "' of @" +
                            kernel.getSymName().str() + ", which @" +
                            entryName + "'s tile.launch at " +
                            locationString(launch) + " binds to memory that ";
      auto report = [&](const std::string &what, Operation *related) {
        Finding &finding = run.violation(
            add, "not_zeroed", abiName,
            subject + what +
                "; an atomic sum must start at zero: launch a kernel that "
                "stores zeros over it first (transform.tile.split_reduction "
                "adds one, @<name>_zero)",
            "zero_launch");
        finding.witness["kernel_argument"] = static_cast<int64_t>(index);
        SmallVector<Operation *> relatedOps = {launch};
        if (related)
          relatedOps.push_back(related);
        addRelated(finding, relatedOps);
      };
      // Back from the launch to the last one that stores into `memory`.
      bool settled = false;
      for (Operation *op = launch->getPrevNode(); op && !settled;
           op = op->getPrevNode()) {
        if (op->getNumResults() &&
            llvm::is_contained(op->getResults(), memory)) {
          report("no launch before it stores zeros over (it is created at " +
                     locationString(op) + ")",
                 op);
          settled = true;
          break;
        }
        auto earlier = dyn_cast<tile::LaunchOp>(op);
        if (!earlier) {
          // Launches nested in a loop or branch may or may not run: their
          // writes cannot be ordered.
          bool nested = false;
          op->walk([&](tile::LaunchOp inner) {
            nested |= llvm::is_contained(inner.getArgs(), memory);
          });
          if (nested) {
            run.unsupported(add, "@" + entryName +
                                     " launches a kernel on "
                                     "this memory inside the " +
                                     op->getName().getStringRef().str() +
                                     " at " + locationString(op) +
                                     ", between the zeroing and this launch; "
                                     "C14 follows the launches of its body in "
                                     "order");
            settled = true;
          }
          continue;
        }
        auto callee = SymbolTable::lookupNearestSymbolFrom<tile::KernelOp>(
            earlier, earlier.getKernelAttr());
        if (!callee)
          continue; // the launch verifier reports an unknown kernel
        for (auto [position, operand] : llvm::enumerate(earlier.getArgs())) {
          if (operand != memory)
            continue;
          Operation *store = nullptr;
          Writes writes = classifyWrites(callee, position, store);
          if (writes == Writes::ZerosOnly) {
            settled = true;
          } else if (writes == Writes::Other) {
            report("@" + callee.getSymName().str() + " (launched at " +
                       locationString(earlier) +
                       ") last stored into with values other than a zero "
                       "constant",
                   store);
            settled = true;
          }
          if (settled)
            break;
        }
      }
      if (!settled)
        report("no earlier launch stores zeros over", nullptr);
    }
  });
  if (!launched)
    return "@" + entryName + " does not launch @" + kernel.getSymName().str() +
           ", so no launch order is known";
  return "";
}

} // namespace kbench::detail
