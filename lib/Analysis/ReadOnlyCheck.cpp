//===- ReadOnlyCheck.cpp - C12: task inputs are read-only -----------------===//
//
// C1-C3 see a kernel alone, so they cannot tell a task input from an output:
// a kernel that also stores its result into its input x is proved by them and
// only caught by the runner (input_modified). C12 adds the host side. A task's
// kernel.mlir has one defined func.func, the entry, whose leading arguments are
// the task inputs (docs/bundle.md); `tile.launch @k(%a, ...)` binds entry
// values to kernel arguments, and memory is written only by tile.store and
// tile.atomic_add through a tile.partition of a kernel argument. C12 follows
// the inputs through every launch of the kernel and reports each write into a
// kernel argument bound to one.
//
// The property holds or fails for every shape at once, so C12 needs no
// Presburger query: it is a syntactic check (a store in code that never runs
// is still reported). It trusts the entry's binding and does not model
// aliasing between distinct arguments. It does not use the KernelModel, so
// it runs even on kernels outside the affine fragment.
//
//===----------------------------------------------------------------------===//

#include "CheckSupport.h"

#include "kbench/Dialect/Tile/IR/KernelABI.h"
#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;

namespace kbench::detail {

namespace {

/// Where a launch binds a kernel argument to a task input.
struct InputBinding {
  unsigned entryArg;
  tile::LaunchOp launch;
};

/// The inputs bound to the arguments of one kernel by every launch of it.
struct Bindings {
  /// Kernel argument index -> the first launch binding it to an input.
  llvm::MapVector<unsigned, InputBinding> inputs;
  /// Why some argument's origin is unknown (empty when every memref operand
  /// is an entry argument or a fresh allocation).
  std::string untraced;
  bool launched = false;
};

} // namespace

static Bindings bindInputs(func::FuncOp entry, tile::KernelOp kernel,
                           unsigned numInputs) {
  Bindings result;
  Block &body = entry.getBody().front();
  entry.walk([&](tile::LaunchOp launch) {
    if (launch.getKernelAttr().getValue() != kernel.getSymName())
      return;
    result.launched = true;
    for (auto [i, operand] : llvm::enumerate(launch.getArgs())) {
      if (!isa<MemRefType>(operand.getType()))
        continue; // Dims and scalars hold no storage.
      if (auto arg = dyn_cast<BlockArgument>(operand);
          arg && arg.getOwner() == &body) {
        if (arg.getArgNumber() < numInputs)
          result.inputs.try_emplace(i, InputBinding{arg.getArgNumber(), launch});
        continue;
      }
      // A temporary (memref.alloc) is fresh memory, never an input.
      Operation *def = operand.getDefiningOp();
      if (def && hasSingleEffect<MemoryEffects::Allocate>(def, operand))
        continue;
      if (result.untraced.empty())
        result.untraced =
            "tile.launch at " + locationString(launch) + " passes argument #" +
            std::to_string(i) + " from " +
            (def ? "'" + def->getName().getStringRef().str() + "'"
                 : std::string("a block argument")) +
            ", neither an entry argument nor a fresh allocation, so it may "
            "alias a task input";
    }
  });
  return result;
}

/// "argument #0 'X' (dims [M, N])", with the argument's name in the kernel.
static std::string describeArgument(tile::KernelOp kernel, unsigned index,
                                    std::string &name) {
  name = tile::getArgName(kernel, index);
  std::string dims;
  for (StringRef dim : kernel.getArgDimNames(index))
    dims += (dims.empty() ? "" : ", ") + dim.str();
  return "argument #" + std::to_string(index) + " '" + name + "' (dims [" +
         dims + "])";
}

std::string checkReadOnlyInputs(CheckRun &run) {
  auto kernel = cast<tile::KernelOp>(run.model.getKernel());
  auto module = kernel->getParentOfType<ModuleOp>();
  unsigned defined = 0;
  func::FuncOp entry = module ? findHostEntry(module, defined) : func::FuncOp();
  if (!entry)
    return "the module has " + std::to_string(defined) +
           " defined func.func, not exactly one host entry, so no argument "
           "is known to be a task input";
  unsigned numInputs = *run.options.readOnlyEntryInputs;
  Bindings bindings = bindInputs(entry, kernel, numInputs);
  if (!bindings.launched)
    return "@" + entry.getSymName().str() + " does not launch @" +
           kernel.getSymName().str() + ", so no argument is bound to a task "
           "input";

  std::string entryName = entry.getSymName().str();
  kernel.walk([&](Operation *op) {
    auto write = dyn_cast<tile::ViewAccessOpInterface>(op);
    if (!write || !write.writesView())
      return;
    // Every write goes through a view; the partition verifier guarantees the
    // view's source is an argument of this kernel.
    Value view = write.getView();
    auto partition = view.getDefiningOp<tile::PartitionOp>();
    if (!partition) {
      run.unsupported(op, "the view of this " +
                              op->getName().getStringRef().str() +
                              " is not a tile.partition, so the argument it "
                              "writes is unknown");
      return;
    }
    unsigned index = cast<BlockArgument>(partition.getSource()).getArgNumber();
    auto it = bindings.inputs.find(index);
    if (it == bindings.inputs.end())
      return;
    const InputBinding &binding = it->second;
    std::string abiName;
    std::string argument = describeArgument(kernel, index, abiName);
    std::string input =
        binding.entryArg < run.options.inputNames.size()
            ? "the task input '" + run.options.inputNames[binding.entryArg] +
                  "' (entry argument #" + std::to_string(binding.entryArg) + ")"
            : "task input #" + std::to_string(binding.entryArg) +
                  " (entry argument #" + std::to_string(binding.entryArg) + ")";
    Finding &finding = run.violation(
        op, "input_write", abiName,
        op->getName().getStringRef().str() + " writes into " + argument +
            ", which @" + entryName + " binds to " + input +
            " at tile.launch " + locationString(binding.launch) +
            "; task inputs are read-only: store into an output (or a "
            "temporary) instead",
        "store_to_output");
    // The counterexample is the binding itself; it holds for every shape.
    finding.witness["kernel_argument"] = static_cast<int64_t>(index);
    finding.witness["entry_argument"] = static_cast<int64_t>(binding.entryArg);
    if (binding.entryArg < run.options.inputNames.size())
      finding.witness["input"] = run.options.inputNames[binding.entryArg];
    addRelated(finding, {partition, binding.launch});
  });
  return bindings.untraced;
}

} // namespace kbench::detail
