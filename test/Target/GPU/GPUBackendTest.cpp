//===- GPUBackendTest.cpp - compileToPtx, ptxas log parsing ---------------===//
//
// The C++ entry points `kbench compile` uses for sm_90a: lowering a tile
// module to PTX with its launch facts, and reading ptxas's resource report.
//
//===----------------------------------------------------------------------===//

#include "kbench/Target/GPU/GPUBackend.h"

#include "kbench/InitAll.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

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

} // namespace
