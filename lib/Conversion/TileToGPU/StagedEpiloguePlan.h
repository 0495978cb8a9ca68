//===- StagedEpiloguePlan.h - The shape of a staged epilogue ----*- C++ -*-===//
//
// Private to lib/Conversion/TileToGPU (and its unit test): how a staged
// epilogue (StagedEpilogue.cpp) splits a BM x BN tile into column phases and
// row blocks, free of IR building.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_CONVERSION_TILETOGPU_STAGEDEPILOGUEPLAN_H
#define KBENCH_LIB_CONVERSION_TILETOGPU_STAGEDEPILOGUEPLAN_H

#include "Layout.h"

#include "mlir/IR/Types.h"
#include "mlir/Support/LogicalResult.h"

#include <string>

namespace kbench::gpu_lowering {

/// The static shape of one staged epilogue.
struct EpiloguePlan {
  int64_t rows = 0, cols = 0; // BM, BN
  int64_t runElems = 0;       // C: output elements in 16 bytes
  int64_t phaseCols = 0;      // BNp
  int64_t blockRows = 0;      // R
  int64_t iterations = 0;     // row blocks per phase
  int64_t rowStride = 0;      // BNp + 32 bytes of padding, in source elements
  Layout block;               // the R x BNp sub-tile, one run per thread
};

/// The plan for storing a `rows` x `cols` tile of `outType` from a source
/// tile in `sourceLayout` of `sourceType` with `freeBytes` of shared memory
/// for the buffer: the widest phase (halving from `cols`) in which every
/// thread of `numWarps` warps takes one 16-byte run per row block, every
/// run of the source lies in one phase whatever the thread, and the padded
/// buffer fits. Failure, with the reason in `why`, when none does.
mlir::FailureOr<EpiloguePlan>
planEpilogue(int64_t rows, int64_t cols, mlir::Type outType,
             mlir::Type sourceType, const Layout &sourceLayout,
             int64_t numWarps, int64_t freeBytes, std::string &why);

} // namespace kbench::gpu_lowering

#endif // KBENCH_LIB_CONVERSION_TILETOGPU_STAGEDEPILOGUEPLAN_H
