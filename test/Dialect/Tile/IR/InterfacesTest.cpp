//===- InterfacesTest.cpp - The tile dialect's op interfaces --------------===//
//
// What each op answers through AxisMapOpInterface, ViewAccessOpInterface and
// ViewScalarOpInterface
// (TileInterfaces.td). tile-verify's dataflow, its access model, tile-mutate
// and set_params' retiler act on these answers alone, so a wrong axis map
// here is a wrong proof or a wrong retiling there.
//
//===----------------------------------------------------------------------===//

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace kbench::tile;

namespace {

constexpr int64_t kNew = AxisMapOpInterface::kNewAxis;

const char *const kKernel = R"mlir(
tile.kernel @k(%X: memref<?x?xf32> {tile.dims = ["M", "N"]},
               %Y: memref<?x?xf32> {tile.dims = ["M", "N"]})
    params {BM = 4, BN = 8} {
  %Xv = tile.partition %X tile [BM, BN] pad(zero) : memref<?x?xf32> -> !tile.part<4x8xf32, pad = zero>
  %Yv = tile.partition %Y tile [BM, BN] : memref<?x?xf32> -> !tile.part<4x8xf32>
  %m, %n = tile.grid %Yv : !tile.part<4x8xf32>
  %x = tile.load %Xv[%m, %n] : !tile.part<4x8xf32, pad = zero> -> tensor<4x8xf32>
  %r = tile.reduce add %x dim 0 : tensor<4x8xf32> -> tensor<8xf32>
  %b = tile.broadcast %r dims [0] : tensor<8xf32> -> tensor<4x8xf32>
  %e = tile.expand_dims %r dim 1 : tensor<8xf32> -> tensor<8x1xf32>
  %t = tile.transpose %x perm [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %s = tile.splat %m : index -> tensor<4x8xindex>
  %nt = tile.num_tiles %Xv[1] : !tile.part<4x8xf32, pad = zero>
  %ext = tile.extent %Xv[0] : !tile.part<4x8xf32, pad = zero>
  %ts = tile.tile_size %Yv[1] : !tile.part<4x8xf32>
  tile.store %b, %Yv[%m, %n] : tensor<4x8xf32>, !tile.part<4x8xf32>
  tile.atomic_add %x, %Yv[%n, %m] : tensor<4x8xf32>, !tile.part<4x8xf32>
}
)mlir";

class InterfacesTest : public ::testing::Test {
protected:
  InterfacesTest() {
    context.loadDialect<TileDialect>();
    module = parseSourceString<ModuleOp>(kKernel, &context);
  }

  /// The first op of class OpT in the kernel.
  template <typename OpT>
  OpT first() {
    OpT found;
    module->walk([&](OpT op) {
      if (!found)
        found = op;
    });
    return found;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(InterfacesTest, KernelParses) { ASSERT_TRUE(module); }

TEST_F(InterfacesTest, ReduceDropsItsAxisAndCombines) {
  ASSERT_TRUE(module);
  auto map = cast<AxisMapOpInterface>(first<ReduceOp>().getOperation());
  EXPECT_EQ(map.getResultAxisSources(), (SmallVector<int64_t>{1}));
  EXPECT_EQ(map.getMappedInput(), first<LoadOp>().getResult());
  EXPECT_FALSE(map.copiesElements());
  EXPECT_FALSE(map.insertsUnitAxes());
}

TEST_F(InterfacesTest, BroadcastAddsReplicatedAxes) {
  ASSERT_TRUE(module);
  auto map = cast<AxisMapOpInterface>(first<BroadcastOp>().getOperation());
  EXPECT_EQ(map.getResultAxisSources(), (SmallVector<int64_t>{kNew, 0}));
  EXPECT_EQ(map.getMappedInput(), first<ReduceOp>().getResult());
  EXPECT_TRUE(map.copiesElements());
  EXPECT_FALSE(map.insertsUnitAxes());
}

TEST_F(InterfacesTest, ExpandDimsAddsAUnitAxis) {
  ASSERT_TRUE(module);
  auto map = cast<AxisMapOpInterface>(first<ExpandDimsOp>().getOperation());
  EXPECT_EQ(map.getResultAxisSources(), (SmallVector<int64_t>{0, kNew}));
  EXPECT_TRUE(map.copiesElements());
  EXPECT_TRUE(map.insertsUnitAxes());
}

TEST_F(InterfacesTest, TransposePermutes) {
  ASSERT_TRUE(module);
  auto map = cast<AxisMapOpInterface>(first<TransposeOp>().getOperation());
  EXPECT_EQ(map.getResultAxisSources(), (SmallVector<int64_t>{1, 0}));
  EXPECT_TRUE(map.copiesElements());
}

TEST_F(InterfacesTest, OtherOpsMapNoAxes) {
  ASSERT_TRUE(module);
  EXPECT_FALSE(isa<AxisMapOpInterface>(first<SplatOp>().getOperation()));
  EXPECT_FALSE(isa<AxisMapOpInterface>(first<LoadOp>().getOperation()));
  EXPECT_FALSE(isa<ViewAccessOpInterface>(first<GridOp>().getOperation()));
  EXPECT_FALSE(isa<ViewAccessOpInterface>(first<PartitionOp>().getOperation()));
}

TEST_F(InterfacesTest, LoadReadsItsResult) {
  ASSERT_TRUE(module);
  LoadOp load = first<LoadOp>();
  auto access = cast<ViewAccessOpInterface>(load.getOperation());
  EXPECT_EQ(access.getView(), load.getView());
  EXPECT_EQ(access.getTile(), load.getResult());
  EXPECT_EQ(access.getIndices().getBeginOperandIndex(), 1u);
  EXPECT_EQ(access.getIndices().size(), 2u);
  EXPECT_FALSE(access.writesView());
  EXPECT_FALSE(access.accumulates());
}

TEST_F(InterfacesTest, StoreAndAtomicAddWriteTheirOperand) {
  ASSERT_TRUE(module);
  StoreOp store = first<StoreOp>();
  auto storeAccess = cast<ViewAccessOpInterface>(store.getOperation());
  EXPECT_EQ(storeAccess.getTile(), store.getValue());
  EXPECT_EQ(storeAccess.getIndices().getBeginOperandIndex(), 2u);
  EXPECT_TRUE(storeAccess.writesView());
  EXPECT_FALSE(storeAccess.accumulates());

  AtomicAddOp atomic = first<AtomicAddOp>();
  auto atomicAccess = cast<ViewAccessOpInterface>(atomic.getOperation());
  EXPECT_EQ(atomicAccess.getTile(), atomic.getValue());
  EXPECT_EQ(atomicAccess.getIndices()[0], atomic.getIndices()[0]);
  EXPECT_TRUE(atomicAccess.writesView());
  EXPECT_TRUE(atomicAccess.accumulates());
}

TEST_F(InterfacesTest, ViewScalarsAreFunctionsOfExtentAndTileSize) {
  ASSERT_TRUE(module);
  AffineExpr extent = getAffineSymbolExpr(0, &context);
  auto numTiles = cast<ViewScalarOpInterface>(first<NumTilesOp>().getOperation());
  EXPECT_EQ(numTiles.getView(), first<NumTilesOp>().getView());
  EXPECT_EQ(numTiles.getViewDim(), 1);
  EXPECT_EQ(numTiles.getValueExpr(extent, 8), extent.ceilDiv(8));

  auto ext = cast<ViewScalarOpInterface>(first<ExtentOp>().getOperation());
  EXPECT_EQ(ext.getViewDim(), 0);
  EXPECT_EQ(ext.getValueExpr(extent, 4), extent);

  auto size = cast<ViewScalarOpInterface>(first<TileSizeOp>().getOperation());
  EXPECT_EQ(size.getViewDim(), 1);
  EXPECT_EQ(size.getValueExpr(extent, 8), getAffineConstantExpr(8, &context));

  EXPECT_FALSE(isa<ViewScalarOpInterface>(first<GridOp>().getOperation()));
  EXPECT_FALSE(isa<ViewScalarOpInterface>(first<LoadOp>().getOperation()));
}

} // namespace
