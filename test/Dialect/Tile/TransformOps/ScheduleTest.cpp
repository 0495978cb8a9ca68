//===- ScheduleTest.cpp - kbench::applySchedule ---------------------------===//
//
// The C++ entry behind `kbench compile --schedule FILE`: success on a task's
// default schedule, and a located error (never a crash, never a half-edited
// kernel) for every way a schedule file can be wrong.
//
//===----------------------------------------------------------------------===//

#include "kbench/Dialect/Tile/TransformOps/Schedule.h"

#include "kbench/Dialect/Tile/IR/Tile.h"
#include "kbench/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

const std::string kTasks = std::string(KBENCH_SOURCE_DIR) + "/tasks/";

/// One reported diagnostic, flattened for assertions.
struct Reported {
  std::string message;
  std::string file;
  unsigned line = 0, column = 0;
};

class ApplyScheduleTest : public ::testing::Test {
protected:
  ApplyScheduleTest() {
    DialectRegistry registry;
    kbench::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  ~ApplyScheduleTest() override {
    for (const std::string &path : tempFiles)
      llvm::sys::fs::remove(path);
  }

  OwningOpRef<ModuleOp> parseKernel(const std::string &path) {
    return parseSourceFile<ModuleOp>(path, &context);
  }

  std::string writeSchedule(StringRef text) {
    SmallString<128> path;
    int fd;
    EXPECT_FALSE(
        llvm::sys::fs::createTemporaryFile("schedule", "mlir", fd, path));
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << text;
    tempFiles.push_back(path.str().str());
    return path.str().str();
  }

  /// applySchedule with every diagnostic captured in `reported`.
  LogicalResult apply(ModuleOp module, const std::string &schedulePath) {
    ScopedDiagnosticHandler capture(&context, [&](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Error)
        return success();
      Reported entry{diag.str(), "", 0, 0};
      if (auto loc = dyn_cast<FileLineColLoc>(diag.getLocation())) {
        entry.file = loc.getFilename().str();
        entry.line = loc.getLine();
        entry.column = loc.getColumn();
      }
      reported.push_back(entry);
      return success();
    });
    return kbench::applySchedule(module, schedulePath);
  }

  int64_t param(ModuleOp module, StringRef name) {
    kbench::tile::KernelOp kernel;
    module.walk([&](kbench::tile::KernelOp op) { kernel = op; });
    return kernel.getParamValue(name).value_or(-1);
  }

  MLIRContext context;
  std::vector<Reported> reported;
  std::vector<std::string> tempFiles;
};

constexpr const char *kHeader =
    R"(module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["tile.kernel"]} in %root : (!transform.any_op) -> !transform.any_op
)";
constexpr const char *kFooter = R"(    transform.yield
  }
}
)";

TEST_F(ApplyScheduleTest, AppliesTheDefaultSchedule) {
  OwningOpRef<ModuleOp> module =
      parseKernel(kTasks + "linear_bias_relu/kernel.mlir");
  ASSERT_TRUE(module);
  ASSERT_TRUE(succeeded(
      apply(*module, kTasks + "linear_bias_relu/schedules/default.mlir")));
  EXPECT_TRUE(reported.empty());
  EXPECT_EQ(param(*module, "BM"), 128);
  EXPECT_EQ(param(*module, "BK"), 8);
  EXPECT_EQ(param(*module, "num_warps"), 8);
  EXPECT_EQ(param(*module, "group_m"), 8);
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(ApplyScheduleTest, ReportsAMissingFile) {
  OwningOpRef<ModuleOp> module =
      parseKernel(kTasks + "row_softmax/kernel.mlir");
  ASSERT_TRUE(module);
  EXPECT_TRUE(failed(apply(*module, "/nonexistent/schedule.mlir")));
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_NE(reported[0].message.find("does not exist"), std::string::npos);
  EXPECT_EQ(reported[0].file, "/nonexistent/schedule.mlir");
}

TEST_F(ApplyScheduleTest, ReportsAParseErrorWithItsLine) {
  OwningOpRef<ModuleOp> module =
      parseKernel(kTasks + "row_softmax/kernel.mlir");
  ASSERT_TRUE(module);
  std::string path = writeSchedule(
      std::string(kHeader) +
      "    transform.tile.set_parms %k {BR = 8} : !transform.any_op\n" +
      kFooter);
  EXPECT_TRUE(failed(apply(*module, path)));
  ASSERT_GE(reported.size(), 1u);
  EXPECT_EQ(reported[0].file, path);
  EXPECT_EQ(reported[0].line, 4u);
  EXPECT_NE(reported[0].message.find("'transform.tile.set_parms' is unknown"),
            std::string::npos)
      << reported[0].message;
  EXPECT_EQ(param(*module, "BR"), 4);
}

TEST_F(ApplyScheduleTest, ReportsAMissingEntryPoint) {
  OwningOpRef<ModuleOp> module =
      parseKernel(kTasks + "row_softmax/kernel.mlir");
  ASSERT_TRUE(module);
  std::string path =
      writeSchedule("module attributes {transform.with_named_sequence} {\n"
                    "  transform.named_sequence @main(%root: !transform.any_op "
                    "{transform.readonly}) {\n    transform.yield\n  }\n}\n");
  EXPECT_TRUE(failed(apply(*module, path)));
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_NE(reported[0].message.find(
                "has no transform.named_sequence @__transform_main"),
            std::string::npos)
      << reported[0].message;
  EXPECT_EQ(reported[0].file, path);
}

TEST_F(ApplyScheduleTest, ReportsAnEntryPointWithTheWrongArguments) {
  OwningOpRef<ModuleOp> module =
      parseKernel(kTasks + "row_softmax/kernel.mlir");
  ASSERT_TRUE(module);
  std::string path = writeSchedule(
      "module attributes {transform.with_named_sequence} {\n"
      "  transform.named_sequence @__transform_main(%a: !transform.any_op "
      "{transform.readonly}, %b: !transform.any_op {transform.readonly}) "
      "{\n    transform.yield\n  }\n}\n");
  EXPECT_TRUE(failed(apply(*module, path)));
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_NE(reported[0].message.find("@__transform_main takes 2 arguments"),
            std::string::npos)
      << reported[0].message;
  EXPECT_EQ(reported[0].line, 2u);
}

TEST_F(ApplyScheduleTest, ReportsAScheduleThatMatchesNothing) {
  OwningOpRef<ModuleOp> module =
      parseKernel(kTasks + "row_softmax/kernel.mlir");
  ASSERT_TRUE(module);
  std::string path = writeSchedule(
      "module attributes {transform.with_named_sequence} {\n"
      "  transform.named_sequence @__transform_main(%root: !transform.any_op "
      "{transform.readonly}) {\n"
      "    %k = transform.structured.match attributes{tile.tag = \"x\"} in "
      "%root : (!transform.any_op) -> !transform.any_op\n"
      "    transform.tile.set_num_warps %k 8 : !transform.any_op\n"
      "    transform.yield\n  }\n}\n");
  EXPECT_TRUE(failed(apply(*module, path)));
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_NE(reported[0].message.find("matched no tile.kernel"),
            std::string::npos)
      << reported[0].message;
  EXPECT_EQ(reported[0].file, path);
  EXPECT_EQ(reported[0].line, 4u);
}

TEST_F(ApplyScheduleTest, ReportsAnIllegalKnobAndKeepsTheKernel) {
  OwningOpRef<ModuleOp> module =
      parseKernel(kTasks + "linear_bias_relu/kernel.mlir");
  ASSERT_TRUE(module);
  std::string path = writeSchedule(
      std::string(kHeader) +
      "    transform.tile.set_params %k {BM = 256, BN = 256, BK = 32} : "
      "!transform.any_op\n" +
      kFooter);
  EXPECT_TRUE(failed(apply(*module, path)));
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_NE(reported[0].message.find("needs 512 registers per thread"),
            std::string::npos)
      << reported[0].message;
  EXPECT_EQ(param(*module, "BM"), 64);
  EXPECT_TRUE(succeeded(verify(*module)));
}

} // namespace
