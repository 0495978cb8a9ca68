//===- CompileDispatch.cpp - One bundle from a task's dispatch file -------===//
//
//   dispatch.json --for each variant--> kernel.mlir --its schedule-->
//     kernels renamed <kernel>__<variant> --tile-verify--> its manifest
//   --merge--> one module with every variant's kernels, one manifest whose
//     `dispatch` holds each variant's `when` facts and launch sequence
//   --lowerAndWriteBundle--> one kernel.ptx/cubin (or kernel.so)
//
// Each variant is proved on its own, for every shape its kernels' requires
// admit, not only where its `when` facts hold: whichever variant the runner
// picks is safe, and the facts only choose among safe programs. After the
// proof, a variant's `when` facts over its kernels' dims join their requires:
// the runner launches the variant only where they hold and checks a
// kernel's requires before it launches, so the lowering may use them (a
// `D % 8 == 0` drops the element-copy versions of 16-byte accesses).
//
//===----------------------------------------------------------------------===//

#include "Stages.h"
#include "kbench/Dialect/Tile/IR/KernelABI.h"
#include "kbench/Dialect/Tile/IR/Tile.h"
#include "kbench/Support/DispatchFile.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"

#include <set>

using namespace mlir;

namespace kbench::driver {

/// Renames every tile.kernel of `module` to `<name>__<variant>` and the
/// launches of it, so that the variants' kernels can share one module.
static LogicalResult renameKernels(ModuleOp module, StringRef variant) {
  for (tile::KernelOp kernel : llvm::make_early_inc_range(module.getOps<tile::KernelOp>())) {
    std::string renamed = (kernel.getSymName() + "__" + variant).str();
    if (SymbolTable::lookupSymbolIn(module, renamed))
      return kernel.emitOpError("cannot be renamed for dispatch variant '")
             << variant << "': the module already has a symbol '" << renamed << "'";
    StringAttr newName = StringAttr::get(module.getContext(), renamed);
    if (failed(SymbolTable::replaceAllSymbolUses(kernel, newName, module)))
      return kernel.emitOpError("cannot rename its uses for dispatch variant '")
             << variant << "'";
    kernel.setSymName(renamed);
  }
  return success();
}

/// Adds each of `variant`'s `when` facts to the requires of every kernel of
/// `module` whose dims name all of the fact's symbols (facts it already
/// states are kept once).
static void requireVariantFacts(ModuleOp module,
                                const DispatchVariant &variant) {
  for (tile::KernelOp kernel : module.getOps<tile::KernelOp>()) {
    std::set<std::string> dims;
    for (const tile::KernelParam &param : tile::getKernelABI(kernel))
      if (param.kind == tile::KernelParam::Kind::Dim)
        dims.insert(param.name);
    SmallVector<std::string> texts;
    if (tile::RequiresAttr requires = kernel.getRequiresAttr())
      texts.assign(requires.getTexts().begin(), requires.getTexts().end());
    size_t before = texts.size();
    for (const ShapeFact &fact : variant.when) {
      std::set<std::string> symbols;
      fact.collectSymbols(symbols);
      std::string text = fact.str();
      if (llvm::all_of(symbols,
                       [&](const std::string &s) { return dims.count(s); }) &&
          !llvm::is_contained(texts, text))
        texts.push_back(text);
    }
    if (texts.size() != before)
      kernel.setRequiresAttr(
          tile::RequiresAttr::get(module.getContext(), texts));
  }
}

/// Appends `variant`'s manifest to `merged`: kernels after the earlier
/// variants' (launch indices shifted), buffers once (a temporary two variants
/// declare alike is one buffer), launches tagged with the variant.
static LogicalResult mergeManifest(bundle::BundleManifest &merged,
                                   bundle::BundleManifest variant, size_t variantIndex,
                                   const DispatchVariant &spec, ModuleOp module) {
  if (variantIndex == 0) {
    merged.target = variant.target;
    merged.task = variant.task;
  }
  auto shapeText = [](const bundle::BufferSpec &b) {
    std::string text;
    for (const ShapeExpr &e : b.shape)
      text += e.str() + ";";
    return text;
  };
  auto alike = [&](const bundle::BufferSpec &a, const bundle::BufferSpec &b) {
    return a.dtype == b.dtype && a.role == b.role &&
           shapeText(a) == shapeText(b);
  };
  // Temporaries are named by their order in the entry function (tmp0,
  // tmp1, ...), so variants with kernels of their own can number unlike
  // buffers alike: such a temporary takes the variant's name as a suffix.
  for (bundle::BufferSpec &buffer : variant.buffers) {
    const bundle::BufferSpec *known = merged.findBuffer(buffer.name);
    if (known && !alike(*known, buffer) &&
        buffer.role == bundle::BufferSpec::Role::Temporary) {
      std::string renamed = buffer.name + "__" + spec.name;
      for (bundle::LaunchSpec &launch : variant.launches)
        for (std::string &arg : launch.args)
          if (arg == buffer.name)
            arg = renamed;
      buffer.name = renamed;
      known = merged.findBuffer(renamed);
    }
    if (!known) {
      merged.buffers.push_back(std::move(buffer));
      continue;
    }
    if (!alike(*known, buffer))
      return module.emitError("dispatch variant '")
             << spec.name << "' declares buffer '" << buffer.name
             << "' unlike an earlier variant (dtype, role or shape); the variants of one "
                "bundle share their buffers, so rename one";
  }
  size_t kernelOffset = merged.kernels.size();
  for (bundle::KernelSpec &kernel : variant.kernels)
    merged.kernels.push_back(std::move(kernel));
  for (bundle::LaunchSpec &launch : variant.launches) {
    launch.kernel += kernelOffset;
    launch.variant = variantIndex;
    merged.launches.push_back(std::move(launch));
  }
  merged.variants.push_back({spec.name, spec.when, ""});
  return success();
}

/// Warns about every variant of `merged` that no check shape of task.json
/// runs, by the runner's own rule (bundle::trySelectVariant: the first
/// variant whose `when` facts hold). The check shapes are the ones every
/// evaluation compares (the host target's, a search's screening), the tune
/// and heldout shapes only the full protocol on a GPU; a variant no check
/// shape reaches would go through those runs unexercised. A warning, not an
/// error: the proof makes the bundle safe, and a user trying a dispatch file
/// may not have chosen the shapes yet.
static void warnUncheckedVariants(const bundle::BundleManifest &merged,
                                  const TaskSignature &task,
                                  StringRef dispatchPath,
                                  DiagnosticCollector &diagnostics) {
  std::vector<bool> checked(merged.variants.size(), false);
  bool anyCheckShape = false;
  for (const auto &[label, dims] : task.shapes) {
    if (!StringRef(label).starts_with("check["))
      continue;
    anyCheckShape = true;
    std::string error;
    if (std::optional<size_t> variant =
            bundle::trySelectVariant(merged, dims, error))
      checked[*variant] = true;
  }
  if (!anyCheckShape)
    return;
  for (size_t v = 0; v < merged.variants.size(); ++v)
    if (!checked[v])
      diagnostics.add(
          "warning", dispatchPath,
          "dispatch variant '" + merged.variants[v].name +
              "' runs at none of the task's check shapes (the runner "
              "launches the first variant whose `when` facts hold), so "
              "evaluations of the check shapes alone (the host target, a "
              "search's screening) never run its kernels; add a check shape "
              "to task.json where its facts hold and no earlier variant's do");
}

LogicalResult compileDispatchTask(MLIRContext &context, const CompileOptions &options,
                                  const TaskSignature &task,
                                  DiagnosticCollector &diagnostics,
                                  CompileResult &result) {
  result.failedStage = CompileStage::Setup;
  std::string readError;
  std::optional<DispatchFile> dispatch =
      tryReadDispatchFile(options.dispatchPath, task.dims, readError);
  if (!dispatch) {
    diagnostics.add("error", "", readError);
    return failure();
  }

  std::vector<OwningOpRef<ModuleOp>> modules;
  bundle::BundleManifest merged;
  llvm::json::Array verifiedKernels;
  std::string verifiedStatus = "proved";
  auto recordVerification = [&] {
    result.verification = llvm::json::Object{{"status", verifiedStatus},
                                             {"kernels", std::move(verifiedKernels)}};
  };
  for (size_t v = 0; v < dispatch->variants.size(); ++v) {
    const DispatchVariant &variant = dispatch->variants[v];
    // A variant may bring its own kernels (another structure for its
    // shapes); the others schedule the task's kernel file.
    std::string kernelPath = options.kernelPath;
    if (!variant.kernel.empty())
      kernelPath =
          variant.kernel.is_absolute()
              ? variant.kernel.string()
              : (std::filesystem::path(options.taskDir) / variant.kernel)
                    .string();
    auto failVariant = [&] {
      std::string what = "schedule " + variant.schedule.string();
      if (!variant.kernel.empty())
        what += ", kernel " + kernelPath;
      diagnostics.add("note", options.dispatchPath,
                      "while compiling dispatch variant '" + variant.name +
                          "' (" + what + ")");
      return failure();
    };
    OwningOpRef<ModuleOp> module =
        parseAndScheduleKernel(context, kernelPath, variant.schedule.string(),
                               task, diagnostics, result);
    if (!module || failed(renameKernels(*module, variant.name)))
      return failVariant();

    result.failedStage = CompileStage::Verify;
    if (options.verify) {
      llvm::json::Value report = nullptr;
      LogicalResult proved = success();
      {
        StageTimer timer(result.times.verify);
        proved = verifyStage(*module, task, report);
      }
      if (llvm::json::Object *object = report.getAsObject()) {
        if (llvm::json::Array *kernels = object->getArray("kernels"))
          for (llvm::json::Value &kernel : *kernels)
            verifiedKernels.push_back(std::move(kernel));
        if (failed(proved))
          if (std::optional<StringRef> status = object->getString("status"))
            verifiedStatus = status->str();
      }
      if (failed(proved)) {
        recordVerification();
        return failVariant();
      }
    }
    if (options.stopAfterVerify)
      continue;
    requireVariantFacts(*module, variant);

    result.failedStage = CompileStage::Lower;
    FailureOr<bundle::BundleManifest> manifest =
        buildManifest(*module, task, options.target);
    if (failed(manifest) ||
        failed(mergeManifest(merged, std::move(*manifest), v, variant, *module)))
      return failVariant();
    modules.push_back(std::move(module));
  }
  if (options.verify)
    recordVerification();
  if (options.stopAfterVerify)
    return success();
  warnUncheckedVariants(merged, task, options.dispatchPath, diagnostics);

  // One module holds every variant's kernels; the backends lower all of them
  // and drop the host functions (each variant's @main, already described).
  ModuleOp combined = *modules.front();
  for (size_t v = 1; v < modules.size(); ++v)
    for (tile::KernelOp kernel :
         llvm::make_early_inc_range(modules[v]->getOps<tile::KernelOp>()))
      kernel->moveBefore(combined.getBody(), combined.getBody()->end());

  // What the IR does not say: which variant runs where.
  std::string salt = "dispatch";
  for (const bundle::VariantSpec &variant : merged.variants) {
    salt += "|" + variant.name;
    for (const ShapeFact &fact : variant.when)
      salt += ";" + fact.str();
  }
  return lowerAndWriteBundle(combined, std::move(merged), options, salt, diagnostics,
                             result);
}

} // namespace kbench::driver
