//===- HostSharedObject.cpp - kernel.so for the host target ---------------===//
//
// The stages after the MLIR pipeline, all in process except the final link:
// translation to LLVM IR, LLVM's O2 pipeline, and object emission with the
// host TargetMachine; then `cc -shared` writes the shared object (the system
// driver knows where libc, libm and the linker live).
//
//===----------------------------------------------------------------------===//

#include "kbench/Target/Host/HostSharedObject.h"

#include "kbench/Conversion/TileToGPU/Passes.h"
#include "kbench/Conversion/TileToHost/TileToHost.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

#include <chrono>

using namespace mlir;

namespace {
/// Seconds since construction.
class Stopwatch {
public:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  }

private:
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();
};
} // namespace

/// Defines `__truncsfbf2` (float to bf16, round to nearest even, NaN stays a
/// quiet NaN) in `module`, hidden: LLVM's x86 backend calls it for some bf16
/// operations, and libgcc before GCC 13 does not have it. Added after the IR
/// optimizer ran, so that nothing folds it back into an fptrunc that would
/// call itself.
static void defineBF16Truncation(llvm::Module &module) {
  if (module.getFunction("__truncsfbf2"))
    return;
  llvm::LLVMContext &ctx = module.getContext();
  auto *type = llvm::FunctionType::get(llvm::Type::getBFloatTy(ctx),
                                       {llvm::Type::getFloatTy(ctx)}, false);
  auto *fn = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                    "__truncsfbf2", module);
  fn->setVisibility(llvm::GlobalValue::HiddenVisibility);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", fn));
  llvm::Value *value = fn->getArg(0);
  llvm::Value *bits = b.CreateBitCast(value, b.getInt32Ty());
  llvm::Value *high = b.CreateLShr(bits, 16);
  llvm::Value *bias = b.CreateAdd(b.CreateAnd(high, 1), b.getInt32(0x7FFF));
  llvm::Value *rounded = b.CreateLShr(b.CreateAdd(bits, bias), 16);
  llvm::Value *quietNaN = b.CreateOr(high, b.getInt32(0x40));
  llvm::Value *isNaN = b.CreateFCmpUNO(value, value);
  llvm::Value *result =
      b.CreateTrunc(b.CreateSelect(isNaN, quietNaN, rounded), b.getInt16Ty());
  b.CreateRet(b.CreateBitCast(result, llvm::Type::getBFloatTy(ctx)));
}

/// Compiles `llvmModule` to a relocatable object at `objectPath`.
static LogicalResult emitObject(llvm::Module &llvmModule, unsigned optLevel,
                                StringRef objectPath, std::string &error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return failure();
  // The baseline CPU of the architecture: kernel.so may run on another
  // machine than the one that built it.
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, "generic", "", llvm::TargetOptions(), llvm::Reloc::PIC_,
      std::nullopt,
      optLevel == 0 ? llvm::CodeGenOptLevel::None
                    : llvm::CodeGenOptLevel::Default));
  if (!machine) {
    error = "LLVM has no target machine for " + triple.str();
    return failure();
  }
  llvmModule.setDataLayout(machine->createDataLayout());
  llvmModule.setTargetTriple(triple);

  auto optimize = makeOptimizingTransformer(optLevel, /*sizeLevel=*/0,
                                            machine.get());
  if (llvm::Error err = optimize(&llvmModule)) {
    error = "LLVM optimization failed: " + llvm::toString(std::move(err));
    return failure();
  }
  defineBF16Truncation(llvmModule);

  std::error_code ec;
  llvm::raw_fd_ostream os(objectPath, ec, llvm::sys::fs::OF_None);
  if (ec) {
    error = "cannot write " + objectPath.str() + ": " + ec.message();
    return failure();
  }
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, os, nullptr,
                                   llvm::CodeGenFileType::ObjectFile)) {
    error = "the " + triple.str() + " target cannot emit object files";
    return failure();
  }
  codegen.run(llvmModule);
  os.flush();
  return success();
}

/// Links `objectPath` into the shared object `outputPath` with `linker`. On
/// success the linker's output goes to `log`, on failure into `error`.
static LogicalResult linkSharedObject(StringRef linker, StringRef objectPath,
                                      StringRef outputPath, std::string &log,
                                      std::string &error) {
  llvm::ErrorOr<std::string> program = llvm::sys::findProgramByName(linker);
  if (!program) {
    error = "cannot link " + outputPath.str() + ": no C compiler '" +
            linker.str() +
            "' on PATH; install one (Debian: apt-get install gcc) or put it "
            "on PATH";
    return failure();
  }
  llvm::SmallString<128> outputLog;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "kbench-host-link", "log", outputLog)) {
    error = "cannot create a temporary file: " + ec.message();
    return failure();
  }
  llvm::FileRemover removeLog(outputLog);
  // -z defs: a symbol nothing provides (a runtime helper the lowering should
  // not have called) fails the link instead of the runner's dlopen.
  SmallVector<StringRef> args = {*program, "-shared",    "-o",
                                 outputPath, objectPath, "-Wl,-z,defs",
                                 "-lm"};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(outputLog),
                                          StringRef(outputLog)};
  std::string execError;
  int status = llvm::sys::ExecuteAndWait(*program, args, std::nullopt,
                                         redirects, 0, 0, &execError);
  std::string output;
  if (auto text = llvm::MemoryBuffer::getFile(outputLog))
    output = (*text)->getBuffer().str();
  if (status == 0) {
    log += output;
    return success();
  }
  error = "linking " + outputPath.str() + " with " + *program + " failed" +
          (execError.empty() ? " (exit code " + std::to_string(status) + ")"
                             : ": " + execError) +
          "; the linker said:\n" + output;
  return failure();
}

LogicalResult kbench::buildHostSharedObject(ModuleOp module,
                                            StringRef outputPath,
                                            std::string &log,
                                            const HostBuildOptions &options,
                                            HostBuildTimings *timings) {
  HostBuildTimings local;
  HostBuildTimings &time = timings ? *timings : local;
  auto fail = [&](const std::string &message) {
    log += message + "\n";
    emitError(module.getLoc()) << message;
    return failure();
  };

  // The lowering assumes verified tile IR (one tile.grid, tile.dims on every
  // memref argument, ...).
  if (failed(verify(module)))
    return fail("the module does not verify (see the errors above)");

  // Lower a copy: the caller may still need the tile module (manifest, hash).
  Stopwatch lowering;
  OwningOpRef<ModuleOp> lowered(module.clone());
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  // The mma_overlap rotation computes what the loop computed, so the host
  // runs it too: its checks then cover the rotated loop's arithmetic.
  pm.addPass(createTileOverlapMma());
  buildTileToHostLLVMPipeline(pm);
  if (failed(pm.run(*lowered)))
    return fail("the host target could not lower the module to the LLVM "
                "dialect (see the errors above)");
  time.lowering = lowering.seconds();

  Stopwatch llvmStages;
  MLIRContext *context = module.getContext();
  registerBuiltinDialectTranslation(*context);
  registerLLVMDialectTranslation(*context);
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*lowered, llvmContext, "kbench-host");
  if (!llvmModule)
    return fail("translation of the host code to LLVM IR failed");

  llvm::SmallString<128> objectPath;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "kbench-host", "o", objectPath))
    return fail("cannot create a temporary object file: " + ec.message());
  llvm::FileRemover removeObject(objectPath);
  std::string error;
  if (failed(emitObject(*llvmModule, options.optLevel, objectPath, error)))
    return fail(error);
  time.llvm = llvmStages.seconds();

  Stopwatch link;
  if (failed(linkSharedObject(options.linker, objectPath, outputPath, log,
                              error)))
    return fail(error);
  time.link = link.seconds();
  return success();
}
