//===- InitAll.cpp - Register everything kbench's tools use ---------------===//

#include "kbench/InitAll.h"

#include "kbench/Conversion/TileToGPU/Passes.h"
#include "kbench/Conversion/TileToHost/TileToHost.h"
#include "kbench/Dialect/Tile/IR/Tile.h"
#include "kbench/Dialect/Tile/TransformOps/DialectExtension.h"
#include "kbench/Target/GPU/Passes.h"
#include "kbench/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void kbench::registerAllDialects(mlir::DialectRegistry &registry) {
  // registerAllDialects also attaches interface models (linalg's
  // TilingInterface, ...); the extensions add transform ops and the
  // convert-to-LLVM interfaces that convert-gpu-to-nvvm needs.
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<tile::TileDialect>();
  transform::registerTileTransformExtension(registry);
}

void kbench::registerAllPasses() {
  mlir::registerAllPasses();
  registerTileToHostPasses();
  kbench::registerTileToGPUPasses();
  kbench::registerGPUTargetPasses();
  registerKBenchTransformsPasses();
}
