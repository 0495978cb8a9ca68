//===- Manifest.cpp - Bundle manifests (docs/bundle.md) -------------------===//
//
// The entry func.func of a task takes the task's inputs then outputs and
// launches kernels with tile.launch; memref.alloc inside it declares
// temporaries. This file turns that into the manifest's buffers, kernels and
// launches, using the kernel ABI of KernelABI.h so the runner passes exactly
// what the lowered kernels expect.
//
//===----------------------------------------------------------------------===//

#include "kbench/Target/Bundle/Manifest.h"

#include "kbench/Dialect/Tile/IR/KernelABI.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace kbench::tile;

namespace kbench {

FailureOr<TaskSignature> readTaskSignature(StringRef taskDir,
                                           std::string &error) {
  TaskSignature task;
  task.name = llvm::sys::path::filename(
                  llvm::sys::path::remove_leading_dotslash(taskDir))
                  .str();
  SmallString<256> path(taskDir);
  llvm::sys::path::append(path, "task.json");
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return task; // No task file yet: positional names.

  llvm::Expected<llvm::json::Value> parsed =
      llvm::json::parse(buffer.get()->getBuffer());
  if (!parsed) {
    error = (path + ": invalid JSON: " + llvm::toString(parsed.takeError())).str();
    return failure();
  }
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root) {
    error = (path + ": the top level must be an object").str();
    return failure();
  }
  if (std::optional<StringRef> name = root->getString("name"))
    task.name = name->str();
  for (auto [field, out] : {std::pair<const char *, std::vector<std::string> *>{
                                "inputs", &task.inputs},
                            {"outputs", &task.outputs}}) {
    const llvm::json::Array *list = root->getArray(field);
    if (!list) {
      error = (path + ": field '" + field + "' must be an array").str();
      return failure();
    }
    for (auto [i, entry] : llvm::enumerate(*list)) {
      const llvm::json::Object *object = entry.getAsObject();
      std::optional<StringRef> name =
          object ? object->getString("name") : std::nullopt;
      if (!name) {
        error = (path + ": field '" + field + "[" + Twine(i) +
                 "].name' must be a string")
                    .str();
        return failure();
      }
      out->push_back(name->str());
    }
  }
  return task;
}

namespace {

/// Names every value the entry function launches with and collects the
/// buffers it declares.
class LaunchSequenceBuilder {
public:
  LaunchSequenceBuilder(func::FuncOp entry, const TaskSignature &task)
      : entry(entry), task(task) {}

  FailureOr<llvm::json::Array> buildBuffers(ModuleOp module);
  FailureOr<llvm::json::Array> buildLaunches(ModuleOp module);

private:
  /// Shape of a buffer as dim names, taken from the kernel argument it is
  /// passed to (kernels name every axis).
  FailureOr<SmallVector<std::string>> shapeOf(Value buffer, ModuleOp module);

  func::FuncOp entry;
  const TaskSignature &task;
  llvm::DenseMap<Value, std::string> names;
};

} // namespace

static std::optional<std::string> roleOf(unsigned argIndex,
                                         const TaskSignature &task) {
  if (argIndex < task.inputs.size())
    return std::string("input");
  if (argIndex < task.inputs.size() + task.outputs.size())
    return std::string("output");
  return std::nullopt;
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

FailureOr<llvm::json::Array> LaunchSequenceBuilder::buildBuffers(ModuleOp module) {
  llvm::json::Array buffers;
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
    llvm::json::Array shapeJson;
    for (const std::string &dim : *shape)
      shapeJson.push_back(dim);
    buffers.push_back(llvm::json::Object{
        {"name", name},
        {"dtype", getDtypeName(memref.getElementType())},
        {"shape", std::move(shapeJson)},
        {"role", positional ? std::string("input")
                            : roleOf(i, task).value_or("input")}});
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
    llvm::json::Array shapeJson;
    for (const std::string &dim : *shape)
      shapeJson.push_back(dim);
    buffers.push_back(llvm::json::Object{
        {"name", name},
        {"dtype", getDtypeName(alloc.getType().getElementType())},
        {"shape", std::move(shapeJson)},
        {"role", "temporary"}});
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return buffers;
}

FailureOr<llvm::json::Array> LaunchSequenceBuilder::buildLaunches(ModuleOp module) {
  llvm::json::Array launches;
  for (Operation &op : entry.getBody().front()) {
    if (isa<func::ReturnOp, memref::AllocOp, memref::DeallocOp,
            memref::DimOp, arith::ConstantOp>(op))
      continue;
    auto launch = dyn_cast<LaunchOp>(op);
    if (!launch)
      return op.emitOpError("is not supported in a task's entry function; it "
                            "may only allocate temporaries and launch kernels");
    auto kernel = module.lookupSymbol<KernelOp>(launch.getKernelAttr());
    llvm::json::Array args;
    for (const KernelParam &param : getKernelABI(kernel)) {
      if (param.kind == KernelParam::Kind::Dim) {
        args.push_back(param.name);
        continue;
      }
      Value operand = launch.getArgs()[param.argIndex];
      auto it = names.find(operand);
      if (it == names.end())
        return launch.emitOpError("argument #")
               << param.argIndex
               << " is neither an entry argument nor a temporary";
      args.push_back(it->second);
    }
    launches.push_back(llvm::json::Object{
        {"kernel", kernel.getSymName().str()}, {"args", std::move(args)}});
  }
  return launches;
}

static llvm::json::Object describeKernel(KernelOp kernel,
                                         const std::array<ShapeExpr, 3> &grid) {
  llvm::json::Array params;
  for (const KernelParam &param : getKernelABI(kernel)) {
    llvm::json::Object entry{{"name", param.name}};
    switch (param.kind) {
    case KernelParam::Kind::Memref: {
      entry["kind"] = "memref";
      entry["dtype"] = getDtypeName(param.type);
      llvm::json::Array dims;
      for (const std::string &dim : param.dims)
        dims.push_back(dim);
      entry["dims"] = std::move(dims);
      break;
    }
    case KernelParam::Kind::Dim:
      entry["kind"] = "dim";
      break;
    case KernelParam::Kind::Scalar:
      entry["kind"] = "scalar";
      entry["dtype"] = getDtypeName(param.type);
      break;
    }
    params.push_back(std::move(entry));
  }
  llvm::json::Array gridJson;
  for (const ShapeExpr &axis : grid)
    gridJson.push_back(axis.str());
  // Facts are stated over dims and params; the runner only knows dims.
  llvm::json::Array requires;
  for (const ShapeFact &fact : getBoundRequiresFacts(kernel))
    requires.push_back(fact.str());
  int64_t block = getBlockSize(kernel);
  return llvm::json::Object{
      {"name", kernel.getSymName().str()},
      {"symbol", kernel.getSymName().str()},
      {"params", std::move(params)},
      {"grid", std::move(gridJson)},
      {"block", llvm::json::Array{block, 1, 1}},
      {"dynamic_shared_memory", 0},
      {"requires", std::move(requires)}};
}

FailureOr<llvm::json::Object> buildManifest(ModuleOp module,
                                            const TaskSignature &task,
                                            StringRef target) {
  SmallVector<func::FuncOp> entries;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isDeclaration())
      entries.push_back(func);
  if (entries.size() != 1)
    return module.emitError("a task's kernel.mlir needs exactly one host "
                            "func.func that launches its kernels, found ")
           << entries.size();

  LaunchSequenceBuilder builder(entries.front(), task);
  FailureOr<llvm::json::Array> buffers = builder.buildBuffers(module);
  if (failed(buffers))
    return failure();
  FailureOr<llvm::json::Array> launches = builder.buildLaunches(module);
  if (failed(launches))
    return failure();

  llvm::json::Array kernels;
  for (KernelOp kernel : module.getOps<KernelOp>()) {
    FailureOr<std::array<ShapeExpr, 3>> grid = getLaunchGrid(kernel);
    if (failed(grid))
      return failure();
    kernels.push_back(describeKernel(kernel, *grid));
  }
  return llvm::json::Object{{"format", kBundleFormat},
                            {"target", target.str()},
                            {"task", task.name},
                            {"buffers", std::move(*buffers)},
                            {"kernels", std::move(kernels)},
                            {"launches", std::move(*launches)}};
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
