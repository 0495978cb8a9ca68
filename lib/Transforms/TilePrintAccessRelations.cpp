//===- TilePrintAccessRelations.cpp - Print the verifier's model ----------===//
//
// Prints kbench::KernelModel::print for every tile.kernel to stdout.
//
//===----------------------------------------------------------------------===//

#include "kbench/Transforms/Passes.h"

#include "kbench/Analysis/KernelModel.h"

#include "llvm/Support/raw_ostream.h"

namespace kbench {
#define GEN_PASS_DEF_TILEPRINTACCESSRELATIONS
#include "kbench/Transforms/Passes.h.inc"
} // namespace kbench

namespace {

struct TilePrintAccessRelationsPass
    : kbench::impl::TilePrintAccessRelationsBase<TilePrintAccessRelationsPass> {
  void runOnOperation() override {
    getOperation().walk([](kbench::tile::KernelOp kernel) {
      kbench::KernelModel(kernel).print(llvm::outs());
    });
    markAllAnalysesPreserved();
  }
};

} // namespace
