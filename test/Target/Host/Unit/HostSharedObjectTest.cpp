//===- HostSharedObjectTest.cpp - kbench::buildHostSharedObject as an API -===//
//
// What the lit tests cannot reach through kbench-host-build: the caller's
// module is left unchanged, the stage timings are filled in, and a module
// that does not verify (the parser never hands the driver one) is refused.
//
//===----------------------------------------------------------------------===//

#include "kbench/Dialect/Tile/IR/Tile.h"
#include "kbench/InitAll.h"
#include "kbench/Target/Host/HostSharedObject.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {

constexpr const char *kKernel = R"mlir(
tile.kernel @copy(%X: memref<?xf32> {tile.dims = ["N"]},
                  %Y: memref<?xf32> {tile.dims = ["N"]}) {
  %Xv = tile.partition %X tile [8] pad(zero) : memref<?xf32> -> !tile.part<8xf32, pad = zero>
  %Yv = tile.partition %Y tile [8] : memref<?xf32> -> !tile.part<8xf32>
  %i = tile.grid %Yv : !tile.part<8xf32>
  %x = tile.load %Xv[%i] : !tile.part<8xf32, pad = zero> -> tensor<8xf32>
  tile.store %x, %Yv[%i] : tensor<8xf32>, !tile.part<8xf32>
  tile.return
}
)mlir";

class HostSharedObjectTest : public ::testing::Test {
protected:
  HostSharedObjectTest() {
    DialectRegistry registry;
    kbench::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    // Diagnostics are expected; keep them off the test output.
    context.getDiagEngine().registerHandler([](Diagnostic &) {});
    module = parseSourceString<ModuleOp>(kKernel, &context);
    llvm::sys::fs::createTemporaryFile("kbench-host-test", "so", output);
    llvm::sys::fs::remove(output);
  }
  ~HostSharedObjectTest() override { llvm::sys::fs::remove(output); }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  llvm::SmallString<128> output;
};

TEST_F(HostSharedObjectTest, BuildsWithoutChangingTheModule) {
  ASSERT_TRUE(module);
  std::string before, after, log;
  llvm::raw_string_ostream(before) << *module;
  kbench::HostBuildTimings timings;
  ASSERT_TRUE(succeeded(
      kbench::buildHostSharedObject(*module, output, log, {}, &timings)))
      << log;
  EXPECT_TRUE(llvm::sys::fs::exists(output));
  llvm::raw_string_ostream(after) << *module;
  EXPECT_EQ(before, after);
  EXPECT_GT(timings.lowering, 0);
  EXPECT_GT(timings.llvm, 0);
  EXPECT_GT(timings.link, 0);
}

TEST_F(HostSharedObjectTest, RefusesAModuleThatDoesNotVerify) {
  ASSERT_TRUE(module);
  module->walk([](kbench::tile::GridOp grid) {
    // Replace the block id by a constant so that only the grid is missing.
    OpBuilder builder(grid);
    Value zero = arith::ConstantIndexOp::create(builder, grid.getLoc(), 0);
    grid.getResult(0).replaceAllUsesWith(zero);
    grid.erase();
  });
  std::string log;
  EXPECT_TRUE(failed(kbench::buildHostSharedObject(*module, output, log)));
  EXPECT_NE(log.find("the module does not verify"), std::string::npos) << log;
  EXPECT_FALSE(llvm::sys::fs::exists(output));
}

} // namespace
