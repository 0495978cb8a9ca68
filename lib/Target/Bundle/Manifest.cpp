//===- Manifest.cpp - Bundle manifests (docs/bundle.md) -------------------===//
//
// The entry func.func of a task takes the task's inputs then outputs and
// launches kernels with tile.launch; memref.alloc inside it declares
// temporaries. This file turns that into the manifest's buffers, kernels and
// launches (the typed structs of kbench/Support/BundleSchema.h, which alone
// writes the JSON), using the kernel ABI of KernelABI.h so the runner passes
// exactly what the lowered kernels expect.
//
//===----------------------------------------------------------------------===//

#include "kbench/Target/Bundle/Manifest.h"

#include "kbench/Dialect/Tile/IR/KernelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace kbench::tile;

namespace kbench {

FailureOr<TaskSignature> readTaskSignature(StringRef taskDir,
                                           std::string &error) {
  SmallString<256> path(taskDir);
  llvm::sys::path::append(path, "task.json");
  if (!llvm::sys::fs::exists(path)) {
    // No task file yet: positional names, the folder's name.
    TaskSignature task;
    task.name = llvm::sys::path::filename(
                    llvm::sys::path::remove_leading_dotslash(taskDir))
                    .str();
    return task;
  }
  std::optional<TaskSignature> task = tryReadTaskSignature(taskDir.str(), error);
  if (!task)
    return failure();
  return std::move(*task);
}

LogicalResult applyTaskOptIns(ModuleOp module, const TaskSignature &task,
                              std::string &error) {
  for (KernelOp kernel : module.getOps<KernelOp>()) {
    if (task.allowTf32) {
      kernel->setAttr(kAllowTf32AttrName, UnitAttr::get(module.getContext()));
      continue;
    }
    if (kernel->hasAttr(kAllowTf32AttrName)) {
      error = "kernel @" + kernel.getSymName().str() + " carries " +
              kAllowTf32AttrName + ", but task '" + task.name +
              "' does not opt into tf32; only task.json can (\"allow_tf32\": "
              "true), since the reference then runs with TF32 on";
      return failure();
    }
  }
  return success();
}

namespace {

/// Names every value the entry function launches with and collects the
/// buffers it declares.
class LaunchSequenceBuilder {
public:
  LaunchSequenceBuilder(func::FuncOp entry, const TaskSignature &task)
      : entry(entry), task(task) {}

  FailureOr<std::vector<bundle::BufferSpec>> buildBuffers(ModuleOp module);
  FailureOr<std::vector<bundle::LaunchSpec>>
  buildLaunches(ModuleOp module, const std::vector<bundle::KernelSpec> &kernels);

private:
  /// Shape of a buffer as dim names, taken from the kernel argument it is
  /// passed to (kernels name every axis).
  FailureOr<SmallVector<std::string>> shapeOf(Value buffer, ModuleOp module);

  func::FuncOp entry;
  const TaskSignature &task;
  llvm::DenseMap<Value, std::string> names;
};

} // namespace

static bundle::BufferSpec::Role roleOf(unsigned argIndex,
                                       const TaskSignature &task) {
  if (argIndex >= task.inputs.size() &&
      argIndex < task.inputs.size() + task.outputs.size())
    return bundle::BufferSpec::Role::Output;
  return bundle::BufferSpec::Role::Input;
}

/// The bundle dtype of `type`; an error at `op` when it has none.
static FailureOr<DType> dtypeOf(Operation *op, Type type) {
  if (std::optional<DType> dtype = parseDType(getDtypeName(type)))
    return *dtype;
  return op->emitOpError("uses element type ")
         << type << ", which has no bundle dtype (" << dtypeNames() << ")";
}

static std::vector<ShapeExpr> symbols(ArrayRef<std::string> names) {
  std::vector<ShapeExpr> exprs;
  for (const std::string &name : names)
    exprs.push_back(ShapeExpr::symbol(name));
  return exprs;
}

FailureOr<SmallVector<std::string>>
LaunchSequenceBuilder::shapeOf(Value buffer, ModuleOp module) {
  for (OpOperand &use : buffer.getUses()) {
    auto launch = dyn_cast<LaunchOp>(use.getOwner());
    if (!launch)
      continue;
    auto kernel = module.lookupSymbol<KernelOp>(launch.getKernelAttr());
    if (!kernel)
      continue;
    SmallVector<std::string> dims;
    for (StringRef dim : kernel.getArgDimNames(use.getOperandNumber()))
      dims.push_back(dim.str());
    return dims;
  }
  return failure();
}

FailureOr<std::vector<bundle::BufferSpec>>
LaunchSequenceBuilder::buildBuffers(ModuleOp module) {
  std::vector<bundle::BufferSpec> buffers;
  unsigned expected = task.inputs.size() + task.outputs.size();
  bool positional = expected == 0;
  if (!positional && entry.getNumArguments() != expected)
    return entry.emitOpError("takes ")
           << entry.getNumArguments() << " arguments but task.json lists "
           << task.inputs.size() << " inputs and " << task.outputs.size()
           << " outputs; the entry takes the inputs, then the outputs";

  for (BlockArgument arg : entry.getArguments()) {
    unsigned i = arg.getArgNumber();
    std::string name = positional ? "arg" + std::to_string(i)
                       : i < task.inputs.size()
                           ? task.inputs[i]
                           : task.outputs[i - task.inputs.size()];
    names[arg] = name;
    auto memref = dyn_cast<MemRefType>(arg.getType());
    if (!memref)
      continue; // Scalars are passed by name, they hold no storage.
    FailureOr<SmallVector<std::string>> shape = shapeOf(arg, module);
    if (failed(shape))
      return entry.emitOpError("argument #")
             << i << " ('" << name << "') is never passed to a tile.launch";
    FailureOr<DType> dtype = dtypeOf(entry, memref.getElementType());
    if (failed(dtype))
      return failure();
    buffers.push_back({name, *dtype, symbols(*shape),
                       positional ? bundle::BufferSpec::Role::Input
                                  : roleOf(i, task)});
  }

  unsigned temporaries = 0;
  WalkResult walk = entry.walk([&](memref::AllocOp alloc) -> WalkResult {
    std::string name = "tmp" + std::to_string(temporaries++);
    names[alloc.getResult()] = name;
    FailureOr<SmallVector<std::string>> shape = shapeOf(alloc.getResult(), module);
    if (failed(shape)) {
      alloc.emitOpError("temporary is never passed to a tile.launch");
      return WalkResult::interrupt();
    }
    FailureOr<DType> dtype = dtypeOf(alloc, alloc.getType().getElementType());
    if (failed(dtype))
      return WalkResult::interrupt();
    buffers.push_back({name, *dtype, symbols(*shape),
                       bundle::BufferSpec::Role::Temporary});
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return buffers;
}

/// Whether `op` computes an index from indices (the sizes of temporaries; the
/// runner sizes them from their kernels' dims, so nothing here is run).
static bool isIndexArithmetic(Operation &op) {
  return isa_and_nonnull<arith::ArithDialect>(op.getDialect()) &&
         isMemoryEffectFree(&op) &&
         llvm::all_of(op.getResultTypes(),
                      [](Type type) { return type.isIndex(); });
}

FailureOr<std::vector<bundle::LaunchSpec>> LaunchSequenceBuilder::buildLaunches(
    ModuleOp module, const std::vector<bundle::KernelSpec> &kernels) {
  std::vector<bundle::LaunchSpec> launches;
  for (Operation &op : entry.getBody().front()) {
    if (isa<func::ReturnOp, memref::AllocOp, memref::DeallocOp, memref::DimOp,
            arith::ConstantOp>(op) ||
        isIndexArithmetic(op))
      continue;
    auto launch = dyn_cast<LaunchOp>(op);
    if (!launch)
      return op.emitOpError("is not supported in a task's entry function; it "
                            "may only allocate temporaries and launch kernels");
    auto kernel = module.lookupSymbol<KernelOp>(launch.getKernelAttr());
    bundle::LaunchSpec spec;
    for (size_t i = 0; i < kernels.size(); ++i)
      if (kernels[i].name == kernel.getSymName())
        spec.kernel = i;
    for (const KernelParam &param : getKernelABI(kernel)) {
      if (param.kind == KernelParam::Kind::Dim) {
        spec.args.push_back(param.name);
        continue;
      }
      Value operand = launch.getArgs()[param.argIndex];
      auto it = names.find(operand);
      if (it == names.end())
        return launch.emitOpError("argument #")
               << param.argIndex
               << " is neither an entry argument nor a temporary";
      spec.args.push_back(it->second);
    }
    launches.push_back(std::move(spec));
  }
  return launches;
}

static FailureOr<bundle::KernelSpec>
describeKernel(KernelOp kernel, const std::array<ShapeExpr, 3> &grid) {
  bundle::KernelSpec spec;
  spec.name = spec.symbol = kernel.getSymName().str();
  for (const KernelParam &param : getKernelABI(kernel)) {
    bundle::KernelParamSpec entry;
    entry.name = param.name;
    switch (param.kind) {
    case KernelParam::Kind::Memref:
      entry.kind = bundle::KernelParamSpec::Kind::Memref;
      entry.dims = symbols(param.dims);
      break;
    case KernelParam::Kind::Dim:
      entry.kind = bundle::KernelParamSpec::Kind::Dim;
      break;
    case KernelParam::Kind::Scalar:
      entry.kind = bundle::KernelParamSpec::Kind::Scalar;
      break;
    }
    FailureOr<DType> dtype = dtypeOf(kernel, param.type);
    if (failed(dtype))
      return failure();
    entry.dtype = *dtype;
    spec.params.push_back(std::move(entry));
  }
  spec.grid = grid;
  // Facts are stated over dims and params; the runner only knows dims.
  for (const ShapeFact &fact : getBoundRequiresFacts(kernel))
    spec.requirements.push_back(fact);
  spec.block = {getLaunchBlockSize(kernel), 1, 1};
  return spec;
}

FailureOr<bundle::BundleManifest> buildManifest(ModuleOp module,
                                                const TaskSignature &task,
                                                StringRef target) {
  SmallVector<func::FuncOp> entries;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isDeclaration())
      entries.push_back(func);
  // Reported at the module's location, without the module printed after it.
  if (entries.size() != 1)
    return mlir::emitError(
               module.getLoc(),
               "a kernel file needs exactly one host func.func (the "
               "entry function, which launches its kernels), found ")
           << entries.size();

  bundle::BundleManifest manifest;
  manifest.target = target.str();
  manifest.task = task.name;
  for (KernelOp kernel : module.getOps<KernelOp>()) {
    FailureOr<std::array<ShapeExpr, 3>> grid = getLaunchGrid(kernel);
    if (failed(grid))
      return failure();
    FailureOr<bundle::KernelSpec> spec = describeKernel(kernel, *grid);
    if (failed(spec))
      return failure();
    manifest.kernels.push_back(std::move(*spec));
  }
  LaunchSequenceBuilder builder(entries.front(), task);
  FailureOr<std::vector<bundle::BufferSpec>> buffers =
      builder.buildBuffers(module);
  if (failed(buffers))
    return failure();
  FailureOr<std::vector<bundle::LaunchSpec>> launches =
      builder.buildLaunches(module, manifest.kernels);
  if (failed(launches))
    return failure();
  manifest.buffers = std::move(*buffers);
  manifest.launches = std::move(*launches);
  return manifest;
}

std::string hashModule(ModuleOp module, StringRef salt) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os, OpPrintingFlags().enableDebugInfo(false));
  llvm::SHA256 hasher;
  hasher.update(salt);
  hasher.update(text);
  std::array<uint8_t, 32> digest = hasher.final();
  return llvm::toHex(digest, /*LowerCase=*/true);
}

} // namespace kbench
