//===- CompilePipeline.cpp - From a task folder to a bundle ---------------===//
//
//   kernel.mlir --parse--> tile IR --schedule--> scheduled tile IR
//     --tile-verify--> proved | refuted(witness) | unsupported
//     (`kbench verify` stops here)
//     --hash--> cache hit? copy the cached bundle
//     --backend--> kernel.so (host) | kernel.ptx + kernel.cubin (sm_90a)
//     --manifest--> manifest.json
//
// The bundle is assembled in a temporary folder next to the output and moved
// into place only when every stage succeeded, so a failed compile never
// leaves a partial bundle behind.
//
//===----------------------------------------------------------------------===//

#include "kbench/Driver/CompilePipeline.h"

#include "Stages.h"
#include "kbench/Dialect/Tile/IR/Tile.h"
#include "kbench/InitAll.h"
#include "kbench/Support/Task.h"
#include "kbench/Target/Bundle/Manifest.h"

#include "mlir/IR/DialectRegistry.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace kbench::driver {

const char *compilerVersion() { return "0.1.0 (MLIR " LLVM_VERSION_STRING ")"; }

const std::string &compilerBuildId() {
  static const std::string id = [] {
    std::string exe = fs::getMainExecutable(
        nullptr, reinterpret_cast<void *>(&compilerVersion));
    fs::file_status status;
    if (exe.empty() || fs::status(exe, status))
      return std::string("unknown");
    return llvm::formatv(
               "{0:x}", llvm::xxh3_64bits(llvm::formatv(
                            "{0}|{1}|{2}", exe, status.getSize(),
                            status.getLastModificationTime()
                                .time_since_epoch()
                                .count())
                                              .str()))
        .str();
  }();
  return id;
}

std::string defaultCacheDir() {
  if (std::optional<std::string> dir = llvm::sys::Process::GetEnv("KBENCH_CACHE_DIR"))
    return *dir;
  SmallString<256> dir;
  if (std::optional<std::string> xdg = llvm::sys::Process::GetEnv("XDG_CACHE_HOME"))
    dir = *xdg;
  else if (!path::home_directory(dir))
    return "";
  else
    path::append(dir, ".cache");
  path::append(dir, "kbench");
  return dir.str().str();
}

void resolveTaskPaths(CompileOptions &options) {
  if (options.kernelPath.empty()) {
    SmallString<256> p(options.taskDir);
    path::append(p, "kernel.mlir");
    options.kernelPath = p.str().str();
  }
  if (options.schedulePath == "none") {
    options.schedulePath.clear();
    options.dispatchPath.clear();
  } else if (options.schedulePath.empty() && options.dispatchPath.empty()) {
    // A task's dispatch file, when it has one, is its default.
    SmallString<256> dispatch(options.taskDir), schedule(options.taskDir);
    path::append(dispatch, "schedules", "dispatch.json");
    path::append(schedule, "schedules", "default.mlir");
    if (fs::exists(dispatch))
      options.dispatchPath = dispatch.str().str();
    else if (fs::exists(schedule))
      options.schedulePath = schedule.str().str();
  }
}

std::unique_ptr<MLIRContext> createCompilerContext() {
  DialectRegistry registry;
  registerAllDialects(registry);
  auto context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  return context;
}

const char *getStageName(CompileStage stage) {
  switch (stage) {
  case CompileStage::Setup:
    return "setup";
  case CompileStage::Parse:
    return "parse";
  case CompileStage::Schedule:
    return "schedule";
  case CompileStage::Verify:
    return "verify";
  case CompileStage::Lower:
    return "lower";
  case CompileStage::Bundle:
    return "bundle";
  }
  return "unknown";
}

llvm::json::Object StageTimes::toJSON() const {
  return llvm::json::Object{{"parse", parse},   {"schedule", schedule},
                            {"verify", verify}, {"lower", lower},
                            {"assemble", assemble}};
}


static LogicalResult copyFolder(StringRef from, StringRef to) {
  if (fs::create_directories(to))
    return failure();
  std::error_code ec;
  for (fs::directory_iterator it(from, ec), end; it != end && !ec;
       it.increment(ec)) {
    SmallString<256> target(to);
    path::append(target, path::filename(it->path()));
    if (fs::copy_file(it->path(), target))
      return failure();
  }
  return failure(bool(ec));
}

/// Reads a cached bundle's manifest through the schema; a stale or damaged
/// entry is a miss, not an error.
static FailureOr<bundle::BundleManifest> readCachedManifest(StringRef dir) {
  std::string error;
  std::optional<bundle::BundleManifest> manifest =
      bundle::tryParseManifestFile(dir.str(), error);
  if (!manifest)
    return failure();
  return std::move(*manifest);
}

/// The key of a bundle in the cache: everything the bundle depends on. The IR
/// hash covers the kernel after its schedule (and the compiler version,
/// target and verify flag, salted in); the manifest and the raw task.json
/// cover the task (its name, buffers, shapes: a renamed task must miss); the
/// build id, which compiler binary lowered it.
static std::string cacheKey(StringRef irHash, const bundle::BundleManifest &manifest,
                            StringRef taskDir) {
  SmallString<256> taskJson(taskDir);
  path::append(taskJson, "task.json");
  std::string task;
  if (auto buffer = llvm::MemoryBuffer::getFile(taskJson))
    task = (*buffer)->getBuffer().str();
  std::string key = llvm::formatv("{0}|{1}|{2}|{3}", irHash,
                                  bundle::renderManifest(manifest), task,
                                  compilerBuildId());
  return llvm::formatv("{0:x}", llvm::xxh3_64bits(key)).str();
}

int failureExitCode(const CompileResult &result) {
  return result.invalidTask ? kInvalidTaskExitCode : 1;
}

OwningOpRef<ModuleOp> parseAndScheduleKernel(MLIRContext &context,
                                             StringRef kernelPath,
                                             StringRef schedulePath,
                                             const TaskSignature &task,
                                             DiagnosticCollector &diagnostics,
                                             CompileResult &result) {
  auto error = [&](const Twine &where, const Twine &message) {
    diagnostics.add("error", where.str(), message.str());
    return OwningOpRef<ModuleOp>();
  };
  // Parse.
  result.failedStage = CompileStage::Parse;
  OwningOpRef<ModuleOp> module;
  {
    StageTimer timer(result.times.parse);
    if (!fs::exists(kernelPath))
      return error(kernelPath, "no such kernel file");
    llvm::SourceMgr sourceMgr;
    module = parseSourceFile<ModuleOp>(kernelPath, sourceMgr,
                                       ParserConfig(&context));
    if (!module)
      return nullptr;
    // An empty module verifies vacuously; there is nothing to prove or run.
    if (module->getOps<tile::KernelOp>().empty())
      return error(kernelPath,
                   "no tile.kernel in this file: a kernel file defines the "
                   "task's tile.kernel ops and a func.func @main that "
                   "launches them (docs/README.md, \"Writing a task\")");
    std::string optInError;
    if (failed(applyTaskOptIns(*module, task, optInError)))
      return error(kernelPath, optInError);
  }

  // Schedule.
  result.failedStage = CompileStage::Schedule;
  if (!schedulePath.empty()) {
    StageTimer timer(result.times.schedule);
    if (!fs::exists(schedulePath))
      return error(schedulePath, "no such schedule file");
    if (failed(applyScheduleStage(*module, schedulePath)))
      return nullptr;
    if (failed(mlir::verify(*module)))
      return error(schedulePath, "the schedule left invalid IR");
  }
  return module;
}

LogicalResult compileTask(MLIRContext &context, const CompileOptions &options,
                          DiagnosticCollector &diagnostics,
                          CompileResult &result) {
  result.failedStage = CompileStage::Setup;
  auto error = [&](const Twine &where, const Twine &message) {
    diagnostics.add("error", where.str(), message.str());
    return failure();
  };
  if (options.target != "sm_90a" && options.target != "host")
    return error("", "unknown target '" + options.target +
                         "'; expected sm_90a or host");
  if (options.outputDir.empty() && !options.stopAfterVerify)
    return error("", "no output folder; pass -o DIR");

  CompileOptions resolved = options;
  resolveTaskPaths(resolved);
  const std::string &kernelPath = resolved.kernelPath;
  const std::string &schedulePath = resolved.schedulePath;

  std::string taskError;
  FailureOr<TaskSignature> task = readTaskSignature(options.taskDir, taskError);
  if (failed(task)) {
    result.invalidTask = true;
    return error("", taskError);
  }
  if (!schedulePath.empty() && !resolved.dispatchPath.empty())
    return error("", "a schedule and a dispatch file exclude each other; pass one");
  if (!resolved.dispatchPath.empty())
    return compileDispatchTask(context, resolved, *task, diagnostics, result);

  OwningOpRef<ModuleOp> module = parseAndScheduleKernel(
      context, kernelPath, schedulePath, *task, diagnostics, result);
  if (!module)
    return failure();
  return compileScheduledModule(*module, *task, options, diagnostics, result);
}

LogicalResult compileScheduledModule(ModuleOp module, const TaskSignature &task,
                                     const CompileOptions &options,
                                     DiagnosticCollector &diagnostics,
                                     CompileResult &result) {
  // Verify.
  result.failedStage = CompileStage::Verify;
  if (options.verify) {
    StageTimer timer(result.times.verify);
    if (failed(verifyStage(module, task, result.verification)))
      return failure();
  }
  if (options.stopAfterVerify)
    return success();

  result.failedStage = CompileStage::Lower;
  FailureOr<bundle::BundleManifest> manifest =
      buildManifest(module, task, options.target);
  if (failed(manifest))
    return failure();
  return lowerAndWriteBundle(module, std::move(*manifest), options, "",
                             diagnostics, result);
}

LogicalResult lowerAndWriteBundle(ModuleOp module, bundle::BundleManifest built,
                                  const CompileOptions &options, StringRef salt,
                                  DiagnosticCollector &diagnostics,
                                  CompileResult &result) {
  auto error = [&](const Twine &where, const Twine &message) {
    diagnostics.add("error", where.str(), message.str());
    return failure();
  };
  result.failedStage = CompileStage::Lower;
  bundle::BundleManifest *manifest = &built;
  std::string fullSalt = std::string(compilerVersion()) + "|" + options.target +
                         (options.verify ? "|verified" : "|unverified");
  if (!salt.empty())
    fullSalt += "|" + salt.str();
  std::string hash = hashModule(module, fullSalt);
  manifest->compiler = bundle::CompilerInfo{"kbench", compilerVersion()};
  manifest->irHash = hash;
  manifest->verification = options.verify ? "proved" : "skipped";

  // Assemble the bundle next to its destination, then move it into place.
  SmallString<256> staging(options.outputDir);
  staging += ".partial-" + std::to_string(llvm::sys::Process::getProcessId());
  fs::remove_directories(staging);
  llvm::scope_exit cleanup([&] { fs::remove_directories(staging); });

  SmallString<256> cached;
  if (!options.cacheDir.empty()) {
    cached = options.cacheDir;
    path::append(cached, cacheKey(hash, *manifest, options.taskDir));
  }
  if (!cached.empty() && fs::exists(cached)) {
    FailureOr<bundle::BundleManifest> cachedManifest =
        readCachedManifest(cached);
    if (succeeded(cachedManifest) && succeeded(copyFolder(cached, staging))) {
      result.cacheHit = true;
      *manifest = std::move(*cachedManifest);
    } else {
      fs::remove_directories(staging);
    }
  }

  if (!result.cacheHit) {
    if (fs::create_directories(staging))
      return error(staging, "cannot create the bundle folder");
    LogicalResult lowered =
        options.target == "host"
            ? hostBackendStage(module, staging, *manifest, result.times)
            : gpuBackendStage(module, staging, *manifest, result.times);
    if (failed(lowered))
      return failure();
    result.failedStage = CompileStage::Bundle;
    std::string writeError;
    if (!bundle::tryWriteManifestFile(staging.str().str(), *manifest,
                                      writeError))
      return error(staging, writeError);
    if (!cached.empty()) {
      // A cache that cannot be written is not an error; the bundle is.
      SmallString<256> cacheStaging(cached);
      cacheStaging += ".partial";
      fs::remove_directories(cacheStaging);
      if (succeeded(copyFolder(staging, cacheStaging)) &&
          fs::rename(cacheStaging, cached))
        fs::remove_directories(cacheStaging);
    }
  }

  // Replace an earlier bundle, never a folder that holds something else.
  result.failedStage = CompileStage::Bundle;
  if (fs::exists(options.outputDir)) {
    SmallString<256> oldManifest(options.outputDir);
    path::append(oldManifest, "manifest.json");
    std::error_code ec;
    bool empty = fs::directory_iterator(options.outputDir, ec) ==
                 fs::directory_iterator();
    if (!empty && !fs::exists(oldManifest))
      return error(options.outputDir,
                   "output folder exists and is not a bundle; choose another -o");
    fs::remove_directories(options.outputDir);
  }
  if (std::error_code ec = fs::rename(staging, options.outputDir))
    return error(options.outputDir, "cannot move the bundle into place: " +
                                        ec.message());
  result.manifest = std::move(*manifest);
  return success();
}

} // namespace kbench::driver
