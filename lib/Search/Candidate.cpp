//===- Candidate.cpp - Compile, filter and describe one candidate ---------===//
//
// The cheap checks run first so that a rejected candidate costs little:
// transform legality (the tile.* ops refuse illegal knobs), the IR-hash
// dedupe (a schedule whose IR equals an earlier one is not compiled again),
// then tile-verify and the backend through compileScheduledModule, then the
// ptxas resources (a spilling kernel never reaches a GPU) and the requires
// facts at every task shape (a bundle the runner would refuse at one).
//
//===----------------------------------------------------------------------===//

#include "kbench/Search/Candidate.h"

#include "kbench/Dialect/Tile/IR/KernelABI.h"
#include "kbench/Dialect/Tile/IR/Tile.h"
#include "kbench/Dialect/Tile/TransformOps/Schedule.h"
#include "kbench/Support/KernelConfig.h"
#include "kbench/Target/Bundle/Manifest.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>

using namespace mlir;
namespace path = llvm::sys::path;

namespace kbench::search {

llvm::json::Object Descriptors::toJSON() const {
  llvm::json::Object object{{"num_warps", numWarps},
                            {"vector_width", vectorWidth},
                            {"bytes_per_thread", bytesPerThread},
                            {"access_bytes", accessBytes}};
  if (registers >= 0) {
    object["registers"] = registers;
    object["spills"] = spills;
  }
  if (pipelineStages > 1)
    object["pipeline_stages"] = pipelineStages;
  return object;
}

llvm::json::Object toFeedbackJSON(const CompiledCandidate &candidate) {
  llvm::json::Array diagnostics;
  for (const driver::CollectedDiagnostic &d : candidate.diagnostics)
    diagnostics.push_back(llvm::json::Object{{"severity", d.severity},
                                             {"location", d.location},
                                             {"message", d.message}});
  llvm::json::Object object{{"schema", kCandidateSchema},
                            {"stage", candidate.stage},
                            {"ok", candidate.ok()},
                            {"diagnostics", std::move(diagnostics)},
                            {"descriptors", candidate.descriptors.toJSON()},
                            {"times_ms", candidate.times.toJSON()},
                            {"total_ms", candidate.totalMs}};
  if (!candidate.irHash.empty())
    object["ir_hash"] = candidate.irHash;
  if (!candidate.ptxHash.empty())
    object["ptx_hash"] = candidate.ptxHash;
  if (!candidate.duplicateOf.empty())
    object["duplicate_of"] = candidate.duplicateOf;
  if (candidate.verification.kind() != llvm::json::Value::Null)
    object["verification"] = llvm::json::Value(candidate.verification);
  return object;
}

std::unique_ptr<TaskCompiler> TaskCompiler::create(MLIRContext &context,
                                                   StringRef taskDir,
                                                   StringRef kernelPath,
                                                   StringRef target,
                                                   std::string &error) {
  if (target != "sm_90a" && target != "host") {
    error = "unknown target '" + target.str() + "'; expected sm_90a or host";
    return nullptr;
  }
  std::unique_ptr<TaskCompiler> compiler(new TaskCompiler(context));
  compiler->taskDir = taskDir.str();
  compiler->target = target.str();
  FailureOr<TaskSignature> task = readTaskSignature(taskDir, error);
  if (failed(task))
    return nullptr;
  compiler->task = std::move(*task);
  SmallString<256> kernel(kernelPath);
  if (kernel.empty()) {
    kernel = taskDir;
    path::append(kernel, "kernel.mlir");
  }
  if (!llvm::sys::fs::exists(kernel)) {
    error = "no kernel file " + kernel.str().str();
    return nullptr;
  }
  llvm::SourceMgr sourceMgr;
  compiler->kernel =
      parseSourceFile<ModuleOp>(kernel, sourceMgr, ParserConfig(&context));
  if (!compiler->kernel) {
    error = "the kernel " + kernel.str().str() + " does not parse";
    return nullptr;
  }
  if (failed(applyTaskOptIns(*compiler->kernel, compiler->task, error)))
    return nullptr;
  return compiler;
}

std::vector<ShapeFact> TaskCompiler::getRequiresFacts() const {
  std::vector<ShapeFact> facts;
  getKernelModule().walk([&](tile::KernelOp op) {
    for (ShapeFact &fact : tile::getBoundRequiresFacts(op))
      facts.push_back(std::move(fact));
  });
  return facts;
}

bool TaskCompiler::addScoringShapes(StringRef evalTaskDir, std::string &error) {
  FailureOr<TaskSignature> evaluation = readTaskSignature(evalTaskDir, error);
  if (failed(evaluation))
    return false;
  for (auto &[label, dims] : evaluation->shapes)
    if (StringRef(label).starts_with("heldout"))
      scoringShapes.push_back({label + " (a derived scoring shape)", dims});
  return true;
}

/// Reads the descriptors the IR gives (warps, widths, bytes per thread).
static Descriptors describeModule(ModuleOp module) {
  Descriptors d;
  module.walk([&](tile::KernelOp kernel) {
    d.numWarps = std::max<int64_t>(d.numWarps, kernel.getParamValue("num_warps").value_or(1));
    d.vectorWidth = std::max<int64_t>(d.vectorWidth, kernel.getParamValue("vector_width").value_or(1));
    int64_t threads = 32 * kernel.getParamValue("num_warps").value_or(1);
    int64_t bytes = 0, widest = 0;
    kernel.walk([&](tile::PartitionOp partition) {
      auto type = cast<tile::PartitionType>(partition.getType());
      int64_t elementBytes =
          std::max<int64_t>(1, type.getElementType().getIntOrFloatBitWidth() / 8);
      int64_t elements = 1;
      for (int64_t size : type.getShape())
        elements *= size;
      bytes += elements * elementBytes;
      widest = std::max(widest, elementBytes);
    });
    d.bytesPerThread = std::max(d.bytesPerThread, bytes / threads);
    d.accessBytes = std::max(d.accessBytes, widest * d.vectorWidth);
    kernel.walk([&](scf::ForOp loop) {
      if (auto stages = loop->getAttrOfType<IntegerAttr>(
              getKnobSpec(Knob::PipelineStages).param))
        d.pipelineStages = std::max<int64_t>(d.pipelineStages, stages.getInt());
    });
  });
  return d;
}

static std::string hashFile(StringRef file) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(file);
  if (!buffer)
    return "";
  StringRef bytes = (*buffer)->getBuffer();
  return llvm::toHex(llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(
                         reinterpret_cast<const uint8_t *>(bytes.data()),
                         bytes.size())),
                     /*LowerCase=*/true);
}

/// Sums ptxas registers (max) and spills over the manifest's kernels.
static void readResources(const bundle::BundleManifest &manifest, Descriptors &d) {
  for (const bundle::KernelSpec &kernel : manifest.kernels) {
    if (!kernel.resources)
      continue;
    d.registers = std::max(d.registers, kernel.resources->registers);
    d.spills = std::max<int64_t>(d.spills, 0) + kernel.resources->spillStores +
               kernel.resources->spillLoads;
  }
}

/// The IR hash of a scheduled module: the manifest's ir_hash of a verified
/// bundle.
static std::string scheduledIrHash(ModuleOp module, StringRef target) {
  return hashModule(module, std::string(driver::compilerVersion()) + "|" +
                                target.str() + "|verified");
}

std::optional<TaskCompiler::Scheduled>
TaskCompiler::schedule(ModuleOp schedule, StringRef scheduleName) {
  driver::DiagnosticCollector diagnostics(context, /*echo=*/false);
  Scheduled result;
  result.module = kernel->clone();
  if (failed(applyScheduleModule(*result.module, schedule, scheduleName)))
    return std::nullopt;
  result.irHash = scheduledIrHash(*result.module, target);
  return result;
}

CompiledCandidate TaskCompiler::compile(
    ModuleOp schedule, StringRef scheduleName, StringRef bundleDir,
    llvm::function_ref<std::optional<std::string>(StringRef)> findDuplicate) {
  auto start = std::chrono::steady_clock::now();
  CompiledCandidate result;
  driver::DiagnosticCollector diagnostics(context, /*echo=*/false);
  auto finish = [&](StringRef stage) {
    result.stage = stage.str();
    result.diagnostics = diagnostics.diagnostics();
    result.totalMs = std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - start)
                         .count();
    return std::move(result);
  };

  OwningOpRef<ModuleOp> module = kernel->clone();
  {
    auto scheduleStart = std::chrono::steady_clock::now();
    LogicalResult applied = applyScheduleModule(*module, schedule, scheduleName);
    result.times.schedule = std::chrono::duration<double, std::milli>(
                                std::chrono::steady_clock::now() - scheduleStart)
                                .count();
    if (failed(applied))
      return finish("schedule");
  }
  result.descriptors = describeModule(*module);
  // The same hash as the manifest's ir_hash of a verified bundle.
  result.irHash = scheduledIrHash(*module, target);
  if (std::optional<std::string> earlier = findDuplicate(result.irHash)) {
    result.duplicateOf = *earlier;
    return finish("duplicate");
  }

  driver::CompileOptions options;
  options.taskDir = taskDir;
  options.target = target;
  options.outputDir = bundleDir.str();
  // The bundle cache of docs/compile.md, only when asked for: searches that
  // revisit the same kernels (replays under several seeds) then skip the
  // backend and ptxas; tile-verify still runs on every candidate.
  if (std::optional<std::string> cache =
          llvm::sys::Process::GetEnv("KBENCH_CACHE_DIR"))
    options.cacheDir = *cache;
  driver::CompileResult compiled;
  LogicalResult ok = driver::compileScheduledModule(*module, task, options,
                                                    diagnostics, compiled);
  compiled.times.schedule = result.times.schedule;
  result.times = compiled.times;
  result.verification = std::move(compiled.verification);
  if (failed(ok)) {
    bool refuted = result.verification.kind() != llvm::json::Value::Null &&
                   result.times.lower == 0;
    return finish(refuted ? "verify" : "lower");
  }
  result.bundleDir = bundleDir.str();
  readResources(compiled.manifest, result.descriptors);
  if (target == "sm_90a") {
    SmallString<256> ptx(bundleDir);
    path::append(ptx, "kernel.ptx");
    result.ptxHash = hashFile(ptx);
  }
  if (result.descriptors.spills > 0) {
    diagnostics.add("error", bundleDir,
                    "ptxas spills " + std::to_string(result.descriptors.spills) +
                        " bytes of registers to local memory (" +
                        std::to_string(result.descriptors.registers) +
                        " registers per thread); the candidate is not "
                        "evaluated: lower the tile sizes or raise num_warps");
    llvm::sys::fs::remove_directories(bundleDir);
    result.bundleDir.clear();
    return finish("resources");
  }
  // A requires fact a knob broke (a chunk size tied to a derived dim of
  // task.json, an alignment the tiles no longer give) fails at some task
  // shape, where the runner would refuse the bundle: refuse it here, before
  // it costs GPU time.
  for (const auto &[label, dims] :
       llvm::concat<const std::pair<std::string, SymbolValues>>(
           task.shapes, scoringShapes)) {
    std::optional<std::string> why =
        bundle::whyNotRunnableAt(compiled.manifest, dims);
    if (!why)
      continue;
    diagnostics.add("error", bundleDir,
                    *why + "; at " + label +
                        " the runner would refuse the bundle, so the "
                        "candidate is not evaluated");
    llvm::sys::fs::remove_directories(bundleDir);
    result.bundleDir.clear();
    return finish("shapes");
  }
  return finish("compiled");
}

} // namespace kbench::search
