//===- InitAll.cpp - Register everything kbench's tools use ---------------===//

#include "kbench/InitAll.h"

#include "kbench/Dialect/Tile/IR/Tile.h"
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
}

void kbench::registerAllPasses() {
  mlir::registerAllPasses();
  registerKBenchTransformsPasses();
}
