//===- GPUBackendTest.cpp - compileToPtx, ptxas log parsing ---------------===//
//
// The C++ entry points `kbench compile` uses for sm_90a: lowering a tile
// module to PTX with its launch facts, and reading ptxas's resource report.
//
//===----------------------------------------------------------------------===//

#include "kbench/Target/GPU/GPUBackend.h"
#include "kbench/Target/GPU/PtxMerge.h"

#include "kbench/InitAll.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <thread>

using namespace mlir;
using namespace kbench;

namespace {

constexpr const char *kCopyKernel = R"mlir(
tile.kernel @copy(%X: memref<?xf32> {tile.dims = ["N"]}, %Y: memref<?xf32> {tile.dims = ["N"]})
    params {BN = 256, num_warps = 2, vector_width = 4} {
  %Xv = tile.partition %X tile [BN] pad(zero) : memref<?xf32> -> !tile.part<256xf32, pad = zero>
  %Yv = tile.partition %Y tile [BN] : memref<?xf32> -> !tile.part<256xf32>
  %n = tile.grid %Yv : !tile.part<256xf32>
  %x = tile.load %Xv[%n] : !tile.part<256xf32, pad = zero> -> tensor<256xf32>
  tile.store %x, %Yv[%n] : tensor<256xf32>, !tile.part<256xf32>
  tile.return
}
func.func @main(%x: memref<?xf32>, %y: memref<?xf32>) {
  tile.launch @copy(%x, %y) : (memref<?xf32>, memref<?xf32>) -> ()
  return
}
)mlir";

class CompileToPtxTest : public ::testing::Test {
protected:
  CompileToPtxTest() {
    DialectRegistry registry;
    kbench::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  OwningOpRef<ModuleOp> parse(const char *text) {
    return parseSourceString<ModuleOp>(text, &context);
  }

  MLIRContext context;
};

TEST_F(CompileToPtxTest, LowersKernelsAndReportsLaunchFacts) {
  OwningOpRef<ModuleOp> module = parse(kCopyKernel);
  ASSERT_TRUE(module);
  FailureOr<GpuCompileResult> result = compileToPtx(*module);
  ASSERT_TRUE(succeeded(result));
  EXPECT_NE(result->ptx.find(".visible .entry copy("), std::string::npos);
  EXPECT_NE(result->ptx.find("ld.global.v4.b32"), std::string::npos);
  EXPECT_NE(result->ptx.find(".target sm_90a"), std::string::npos);
  ASSERT_EQ(result->kernels.size(), 1u);
  EXPECT_EQ(result->kernels[0].symbol, "copy");
  EXPECT_EQ(result->kernels[0].block, (std::array<int64_t, 3>{64, 1, 1}));
  EXPECT_EQ(result->kernels[0].dynamicSharedMemory, 0);
  EXPECT_GT(result->ptxSeconds, 0.0);
  // The input keeps its kernels and host code.
  std::vector<std::string> names;
  for (Operation &op : module->getBody()->getOperations())
    names.push_back(op.getName().getStringRef().str());
  EXPECT_EQ(names, (std::vector<std::string>{"tile.kernel", "func.func"}));
}

TEST_F(CompileToPtxTest, FailsWithoutKernels) {
  OwningOpRef<ModuleOp> module = parse("func.func @f() { return }");
  ASSERT_TRUE(module);
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(compileToPtx(*module)));
  EXPECT_EQ(message, "no tile.kernel to compile for sm_90a");
}

TEST_F(CompileToPtxTest, ReportsLoweringErrors) {
  std::string text = kCopyKernel;
  text.replace(text.find("num_warps = 2"), 13, "num_warps = 3");
  OwningOpRef<ModuleOp> module = parse(text.c_str());
  ASSERT_TRUE(module);
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(compileToPtx(*module)));
  EXPECT_NE(message.find("cannot be lowered by tile-to-gpu: num_warps = 3 is "
                         "not a power of two from 1 to 32"),
            std::string::npos)
      << message;
}

TEST(PtxasLog, ReadsEveryKernel) {
  const char *log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'a' for 'sm_90a'\n"
      "ptxas info    : Function properties for a\n"
      "    8 bytes stack frame, 16 bytes spill stores, 12 bytes spill loads\n"
      "ptxas info    : Used 114 registers, used 1 barriers, 16896 bytes smem, "
      "400 bytes cmem[0]\n"
      "ptxas info    : Compile time = 80.1 ms\n"
      "ptxas info    : Compiling entry function 'b' for 'sm_90a'\n"
      "ptxas info    : Function properties for b\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 18 registers, 368 bytes cmem[0]\n";
  std::string error;
  FailureOr<PtxasReport> report = parsePtxasLog(log, error);
  ASSERT_TRUE(succeeded(report)) << error;
  ASSERT_EQ(report->kernels.size(), 2u);
  const PtxasKernelReport &a = report->kernels[0];
  EXPECT_EQ(a.symbol, "a");
  EXPECT_EQ(a.registers, 114);
  EXPECT_EQ(a.stackFrame, 8);
  EXPECT_EQ(a.spillStores, 16);
  EXPECT_EQ(a.spillLoads, 12);
  EXPECT_EQ(a.sharedMemory, 16896);
  EXPECT_EQ(a.barriers, 1);
  const PtxasKernelReport &b = report->kernels[1];
  EXPECT_EQ(b.symbol, "b");
  EXPECT_EQ(b.registers, 18);
  EXPECT_EQ(b.sharedMemory, 0);
  EXPECT_EQ(b.barriers, 0);
}

TEST(PtxasLog, CountsTheWgmmaWaitsPtxasInjectedPerKernel) {
  // ptxas names the kernel in the C7517 line, before its entry line.
  const char *log =
      "ptxas info    : (C7517) warpgroup.wait is injected in around line 1301 "
      "by compiler to allow use of registers defined by GMMA in function "
      "'late'\n"
      "ptxas info    : (C7517) warpgroup.wait is injected in around line 1410 "
      "by compiler to allow use of registers defined by GMMA in function "
      "'late'\n"
      "ptxas info    : Compiling entry function 'clean' for 'sm_90a'\n"
      "ptxas info    : Used 184 registers, used 1 barriers\n"
      "ptxas info    : Compiling entry function 'late' for 'sm_90a'\n"
      "ptxas info    : Used 217 registers, used 1 barriers\n";
  std::string error;
  FailureOr<PtxasReport> report = parsePtxasLog(log, error);
  ASSERT_TRUE(succeeded(report)) << error;
  ASSERT_EQ(report->kernels.size(), 2u);
  EXPECT_EQ(report->kernels[0].injectedWgmmaWaits, 0);
  EXPECT_EQ(report->kernels[1].injectedWgmmaWaits, 2);
}

TEST(PtxasLog, RejectsALogWithoutKernels) {
  std::string error;
  EXPECT_TRUE(failed(parsePtxasLog("ptxas info    : 0 bytes gmem\n", error)));
  EXPECT_EQ(error, "ptxas -v reported no entry function (no \"Compiling entry "
                   "function\" line); the PTX has no kernel");
}

TEST(PtxasLog, RejectsAKernelWithoutRegisterCount) {
  std::string error;
  EXPECT_TRUE(failed(parsePtxasLog(
      "ptxas info    : Compiling entry function 'k' for 'sm_90a'\n", error)));
  EXPECT_EQ(error,
            "ptxas -v output has no \"Used N registers\" line for kernel 'k'");
}

TEST(PtxasLog, RejectsSerializedWgmma) {
  std::string error;
  EXPECT_TRUE(failed(parsePtxasLog(
      "ptxas info    : Compiling entry function 'k' for 'sm_90a'\n"
      "ptxas warning : (C7515) Potential Performance Loss: wgmma.mma_async "
      "instructions are serialized due to the presence of Extern calls in "
      "the function 'k'.\n"
      "ptxas info    : Used 90 registers\n",
      error)));
  EXPECT_EQ(error,
            "ptxas serialized the wgmma instructions, so the kernel would run "
            "far below tensor-core speed: ptxas warning : (C7515) Potential "
            "Performance Loss: wgmma.mma_async instructions are serialized "
            "due to the presence of Extern calls in the function 'k'.; lower "
            "the accumulator tile or remove calls from the kernel");
}

TEST(Ptxas, ReportsAMissingExecutable) {
  PtxasOptions options;
  options.ptxasPath = "/nonexistent/ptxas";
  std::string error;
  EXPECT_TRUE(failed(runPtxas(".version 8.0", "/dev/null", options, error)));
  EXPECT_EQ(error, "ptxas '/nonexistent/ptxas' is not executable");
}

TEST_F(CompileToPtxTest, TranslatesSeveralKernelsSideBySideIntoOneModule) {
  // Two kernels, as a dispatch bundle has: each is translated in its own
  // LLVM module, and the PTX is one module with one header.
  std::string text = kCopyKernel;
  std::string second = text.substr(0, text.find("func.func"));
  second.replace(second.find("@copy"), 5, "@copy2");
  second.replace(second.find("num_warps = 2"), 13, "num_warps = 4");
  OwningOpRef<ModuleOp> module = parse((second + text).c_str());
  ASSERT_TRUE(module);
  FailureOr<GpuCompileResult> result = compileToPtx(*module);
  ASSERT_TRUE(succeeded(result));
  const std::string &ptx = result->ptx;
  size_t first = ptx.find(".visible .entry copy2(");
  size_t other = ptx.find(".visible .entry copy(");
  ASSERT_NE(first, std::string::npos) << ptx;
  ASSERT_NE(other, std::string::npos) << ptx;
  EXPECT_LT(first, other);
  EXPECT_EQ(ptx.find(".version"), ptx.rfind(".version"));
  EXPECT_EQ(countPtxEntries(ptx), 2u);
  ASSERT_EQ(result->kernels.size(), 2u);
  EXPECT_EQ(result->kernels[0].symbol, "copy2");
  EXPECT_EQ(result->kernels[0].block, (std::array<int64_t, 3>{128, 1, 1}));
  EXPECT_EQ(result->kernels[1].symbol, "copy");
}

TEST(PtxMerge, KeepsOneHeaderAndEveryStatementOnce) {
  std::string a = "//\n// Generated\n//\n\n.version 8.0\n.target sm_90a\n"
                  ".address_size 64\n\n\t// .globl\ta\n"
                  ".extern .shared .align 16 .b8 shm[];\n\n"
                  ".func  (.param .b32 r) helper(\n\t.param .b32 x\n)\n;\n"
                  ".visible .entry a(\n\t.param .u64 p\n)\n{\n\tret; // }\n}\n";
  std::string b = "//\n// Generated\n//\n\n.version 8.0\n.target sm_90a\n"
                  ".address_size 64\n\n\t// .globl\tb\n"
                  ".extern .shared .align 16 .b8 shm[];\n\n"
                  ".func  (.param .b32 r) helper(\n\t.param .b32 x\n)\n;\n"
                  ".visible .entry b(\n)\n{\n\t{\n\tret;\n\t}\n}\n";
  std::string error;
  std::optional<std::string> merged = mergePtxModules({a, b}, error);
  ASSERT_TRUE(merged) << error;
  llvm::StringRef text(*merged);
  EXPECT_TRUE(text.starts_with("//\n// Generated\n//\n\n.version 8.0\n"))
      << *merged;
  EXPECT_EQ(text.count(".version"), 1u);
  EXPECT_EQ(text.count(".extern .shared"), 1u);
  EXPECT_EQ(text.count(") helper("), 1u);
  EXPECT_EQ(text.count("// .globl"), 2u); // comments stay
  size_t entryA = text.find(".visible .entry a("),
         entryB = text.find(".visible .entry b(");
  ASSERT_NE(entryA, llvm::StringRef::npos);
  ASSERT_NE(entryB, llvm::StringRef::npos);
  EXPECT_LT(entryA, entryB);
  EXPECT_TRUE(text.ends_with("\tret;\n\t}\n}\n")) << *merged;
  // One module comes back as it is.
  merged = mergePtxModules({a}, error);
  ASSERT_TRUE(merged);
  EXPECT_EQ(*merged, a);
}

TEST(PtxMerge, RefusesOtherHeadersAndUnbalancedModules) {
  std::string a = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                  ".visible .entry a()\n{\n}\n";
  std::string b = ".version 8.0\n.target sm_80\n.address_size 64\n"
                  ".visible .entry b()\n{\n}\n";
  std::string error;
  EXPECT_FALSE(mergePtxModules({a, b}, error));
  EXPECT_NE(error.find("PTX module 1 has another header"), std::string::npos)
      << error;
  std::string open = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                     ".visible .entry c()\n{\n";
  EXPECT_FALSE(mergePtxModules({a, open}, error));
  EXPECT_EQ(error, "PTX module 1 ends inside a statement (unbalanced braces "
                   "or parentheses)");
}

TEST(Ptxas, CountsEntryFunctions) {
  EXPECT_EQ(countPtxEntries(".version 8.0\n.target sm_90a\n"
                            ".visible .entry k__tma(\n\t.param .u64 a\n)\n{\n}\n"
                            "\t.entry k__cp_async(\n)\n{\n}\n"
                            ".func helper()\n{\n}\n"
                            "// .entry in a comment\n"),
            2u);
  EXPECT_EQ(countPtxEntries(".version 8.0\n.func f()\n{\n}\n"), 0u);
}

/// A stand-in ptxas (a shell script) in a fresh folder: `--help` prints
/// `help`; any other call records its arguments in args.txt, writes the
/// output file and prints a -v report for one kernel `k`.
class FakePtxas {
public:
  explicit FakePtxas(llvm::StringRef help) {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("fake-ptxas", dir));
    path = (dir + "/ptxas").str();
    argsFile = (dir + "/args.txt").str();
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    EXPECT_FALSE(ec);
    os << "#!/bin/sh\n"
       << "if [ \"$1\" = --help ]; then echo '" << help << "'; exit 0; fi\n"
       << "echo \"$@\" > '" << argsFile << "'\n"
       << "while [ $# -gt 0 ]; do [ \"$1\" = -o ] && : > \"$2\"; shift; done\n"
       << "echo \"ptxas info    : Compiling entry function 'k' for 'sm_90a'\"\n"
       << "echo \"    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\"\n"
       << "echo \"ptxas info    : Used 32 registers\"\n";
    os.close();
    llvm::sys::fs::setPermissions(path, llvm::sys::fs::all_read | llvm::sys::fs::all_exe |
                                            llvm::sys::fs::owner_write);
  }
  ~FakePtxas() { llvm::sys::fs::remove_directories(dir); }

  /// runPtxas with this ptxas, into a cubin in its folder.
  bool assemble(llvm::StringRef ptx, std::string &error) const {
    PtxasOptions options;
    options.ptxasPath = path;
    return succeeded(runPtxas(ptx, dir.str().str() + "/k.cubin", options, error));
  }

  std::string recordedArgs() const {
    auto buffer = llvm::MemoryBuffer::getFile(argsFile);
    return buffer ? (*buffer)->getBuffer().trim().str() : "";
  }

  llvm::SmallString<128> dir;
  std::string path, argsFile;
};

constexpr llvm::StringLiteral kTwoKernels =
    ".version 8.0\n.visible .entry a()\n{\n}\n.visible .entry b()\n{\n}\n";

TEST(Ptxas, AssemblesSeveralKernelsSideBySide) {
  FakePtxas ptxas("  --split-compile <N>   (-split-compile)");
  EXPECT_TRUE(ptxasHasSplitCompile(ptxas.path));
  std::string error;
  ASSERT_TRUE(ptxas.assemble(kTwoKernels, error)) << error;
  if (std::thread::hardware_concurrency() >= 2) {
    EXPECT_NE(ptxas.recordedArgs().find("--split-compile 2"), std::string::npos)
        << ptxas.recordedArgs();
  } else { // one hardware thread: one kernel at a time
    EXPECT_EQ(ptxas.recordedArgs().find("--split-compile"), std::string::npos)
        << ptxas.recordedArgs();
  }
  // One kernel: nothing to split.
  ASSERT_TRUE(ptxas.assemble(".version 8.0\n.visible .entry a()\n{\n}\n", error)) << error;
  EXPECT_EQ(ptxas.recordedArgs().find("--split-compile"), std::string::npos)
      << ptxas.recordedArgs();
}

TEST(Ptxas, LeavesSplitCompileOffWhenPtxasLacksIt) {
  FakePtxas ptxas("  --opt-level <N>");
  EXPECT_FALSE(ptxasHasSplitCompile(ptxas.path));
  std::string error;
  ASSERT_TRUE(ptxas.assemble(kTwoKernels, error)) << error;
  EXPECT_EQ(ptxas.recordedArgs().find("--split-compile"), std::string::npos)
      << ptxas.recordedArgs();
}

} // namespace
