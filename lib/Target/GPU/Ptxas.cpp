//===- Ptxas.cpp - Run ptxas and read its resource report -----------------===//
//
// ptxas turns the PTX into the cubin the runner loads; its `-v` report
// (registers, spills, shared memory per kernel) is the feedback an agent gets
// about a schedule, and goes into the bundle manifest's `resources`.
//
//===----------------------------------------------------------------------===//

#include "kbench/Target/GPU/GPUBackend.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>

using namespace mlir;
using namespace kbench;

std::optional<std::string> kbench::findPtxas(llvm::StringRef explicitPath) {
  auto executable = [](llvm::StringRef path) {
    return !path.empty() && llvm::sys::fs::can_execute(path);
  };
  if (!explicitPath.empty())
    return executable(explicitPath) ? std::optional(explicitPath.str())
                                    : std::nullopt;
  if (const char *env = std::getenv("KBENCH_PTXAS"); env && executable(env))
    return std::string(env);
  if (executable("/usr/local/cuda/bin/ptxas"))
    return std::string("/usr/local/cuda/bin/ptxas");
  if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName("ptxas"))
    return *found;
  return std::nullopt;
}

FailureOr<PtxasReport> kbench::parsePtxasLog(llvm::StringRef log,
                                             std::string &error) {
  PtxasReport report;
  report.log = log.str();
  llvm::Regex entry("Compiling entry function '([^']+)'");
  llvm::Regex frame("([0-9]+) bytes stack frame, ([0-9]+) bytes spill "
                    "stores, ([0-9]+) bytes spill loads");
  llvm::Regex used("Used ([0-9]+) registers");
  llvm::Regex barriers("used ([0-9]+) barriers");
  llvm::Regex smem("([0-9]+) bytes smem");
  // "(C7517) warpgroup.wait is injected in around line N by compiler ...
  // in function 'K'": printed before K's "Compiling entry function" line.
  llvm::Regex injectedWait("\\(C7517\\).* in function '([^']+)'");
  llvm::StringMap<int64_t> injectedWaits;
  std::vector<bool> sawRegisters;
  auto number = [](llvm::StringRef text) {
    int64_t value = 0;
    text.getAsInteger(10, value);
    return value;
  };
  SmallVector<llvm::StringRef> lines;
  log.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    // ptxas falls back to serialized wgmma (C7515/C7520: a call, too few
    // registers, ...) with only a warning; the kernel then runs at a fraction
    // of tensor-core speed, which a compile must not hide.
    if (line.contains("wgmma") && line.contains("serialized")) {
      error = "ptxas serialized the wgmma instructions, so the kernel would "
              "run far below tensor-core speed: " +
              line.trim().str() +
              "; lower the accumulator tile or remove calls from the kernel";
      return failure();
    }
    SmallVector<llvm::StringRef> m;
    if (injectedWait.match(line, &m)) {
      ++injectedWaits[m[1]];
      continue;
    }
    if (entry.match(line, &m)) {
      PtxasKernelReport kernel;
      kernel.symbol = m[1].str();
      report.kernels.push_back(kernel);
      sawRegisters.push_back(false);
      continue;
    }
    if (report.kernels.empty())
      continue;
    PtxasKernelReport &kernel = report.kernels.back();
    if (frame.match(line, &m)) {
      kernel.stackFrame = number(m[1]);
      kernel.spillStores = number(m[2]);
      kernel.spillLoads = number(m[3]);
    }
    if (used.match(line, &m)) {
      kernel.registers = number(m[1]);
      sawRegisters.back() = true;
      if (barriers.match(line, &m))
        kernel.barriers = number(m[1]);
      if (smem.match(line, &m))
        kernel.sharedMemory = number(m[1]);
    }
  }
  if (report.kernels.empty()) {
    error = "ptxas -v reported no entry function (no \"Compiling entry "
            "function\" line); the PTX has no kernel";
    return failure();
  }
  for (PtxasKernelReport &kernel : report.kernels)
    kernel.injectedWgmmaWaits = injectedWaits.lookup(kernel.symbol);
  for (auto [kernel, saw] : llvm::zip(report.kernels, sawRegisters))
    if (!saw) {
      error = "ptxas -v output has no \"Used N registers\" line for kernel '" +
              kernel.symbol + "'";
      return failure();
    }
  return report;
}

unsigned kbench::countPtxEntries(llvm::StringRef ptx) {
  unsigned entries = 0;
  llvm::SmallVector<llvm::StringRef> lines;
  ptx.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    line = line.trim();
    if (line.consume_front(".visible") || line.consume_front(".weak"))
      line = line.ltrim();
    if (line.starts_with(".entry ") || line.starts_with(".entry\t"))
      ++entries;
  }
  return entries;
}

bool kbench::ptxasHasSplitCompile(llvm::StringRef ptxas) {
  static std::mutex mutex;
  static llvm::StringMap<bool> known;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, added] = known.try_emplace(ptxas, false);
  if (!added)
    return it->second;
  SmallString<128> helpPath;
  if (llvm::sys::fs::createTemporaryFile("kbench-ptxas-help", "txt", helpPath))
    return false;
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, helpPath.str(),
                                                helpPath.str()};
  llvm::StringRef args[] = {ptxas, "--help"};
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, /*Env=*/std::nullopt, redirects);
  if (auto buffer = llvm::MemoryBuffer::getFile(helpPath))
    it->second = rc == 0 && (*buffer)->getBuffer().contains("--split-compile");
  llvm::sys::fs::remove(helpPath);
  return it->second;
}

FailureOr<PtxasReport> kbench::runPtxas(llvm::StringRef ptx,
                                        llvm::StringRef cubinPath,
                                        const PtxasOptions &options,
                                        std::string &error) {
  std::optional<std::string> ptxas = findPtxas(options.ptxasPath);
  if (!ptxas) {
    error = options.ptxasPath.empty()
                ? "ptxas not found: set KBENCH_PTXAS or install the CUDA "
                  "toolkit under /usr/local/cuda"
                : "ptxas '" + options.ptxasPath + "' is not executable";
    return failure();
  }
  SmallString<128> input, logPath;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("kbench", "ptx", input)) {
    error = "cannot create a temporary PTX file: " + ec.message();
    return failure();
  }
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("kbench-ptxas", "log", logPath)) {
    llvm::sys::fs::remove(input);
    error = "cannot create a temporary log file: " + ec.message();
    return failure();
  }
  auto cleanup = [&] {
    llvm::sys::fs::remove(input);
    llvm::sys::fs::remove(logPath);
  };
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(input, ec);
    if (ec) {
      cleanup();
      error = "cannot write '" + input.str().str() + "': " + ec.message();
      return failure();
    }
    os << ptx;
  }
  std::string arch = "-arch=" + options.arch;
  std::string opt = "-O" + std::to_string(options.optLevel);
  SmallVector<llvm::StringRef> args = {*ptxas, arch, opt, "-v",
                                       input,  "-o", cubinPath};
  // A dispatch bundle's variants are independent kernels: ptxas assembles
  // them side by side into the same machine code (compared section by
  // section on the linear_bias_gelu_bf16 and matmul_bf16 bundles).
  unsigned kernels = countPtxEntries(ptx);
  unsigned threads = std::min(kernels, std::max(1u, std::thread::hardware_concurrency()));
  std::string splitCompile = std::to_string(threads);
  if (threads > 1 && ptxasHasSplitCompile(*ptxas)) {
    args.push_back("--split-compile");
    args.push_back(splitCompile);
  }
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, logPath.str(),
                                                logPath.str()};
  std::string message;
  auto start = std::chrono::steady_clock::now();
  int rc = llvm::sys::ExecuteAndWait(*ptxas, args, /*Env=*/std::nullopt,
                                     redirects, /*SecondsToWait=*/0,
                                     /*MemoryLimit=*/0, &message);
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  std::string log;
  if (auto buffer = llvm::MemoryBuffer::getFile(logPath))
    log = (*buffer)->getBuffer().str();
  cleanup();
  if (rc != 0) {
    llvm::StringRef hint;
    if (llvm::StringRef(log).contains("Unresolved extern function '__nv_"))
      hint = "(libdevice was not linked into the PTX: point CUDA_HOME or the "
             "cuda-path option at a CUDA toolkit)\n";
    error = "ptxas " + arch + " failed" +
            (rc < 0 ? " to run (" + message + ")"
                    : " with exit code " + std::to_string(rc)) +
            ":\n" + log + hint.str();
    return failure();
  }
  FailureOr<PtxasReport> report = parsePtxasLog(log, error);
  if (succeeded(report))
    report->seconds = seconds;
  return report;
}
