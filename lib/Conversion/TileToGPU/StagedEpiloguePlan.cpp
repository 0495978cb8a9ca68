//===- StagedEpiloguePlan.cpp - The shape of a staged epilogue ------------===//

#include "StagedEpiloguePlan.h"

#include "KernelContext.h"
#include "kbench/Conversion/TileToGPU/MmaSyncRules.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

/// Whether every run of `layout` (a rank-2 tile layout) lies in one phase of
/// `phaseCols` columns whatever the thread, so that the runs a phase stores
/// are known statically.
static bool runsStayInPhases(const Layout &layout, int64_t phaseCols) {
  const DimLayout &cols = layout.dims[1];
  bool ok = true;
  layout.forEachChunk([&](int64_t, ArrayRef<int64_t> offsets) {
    int64_t first = offsets[1] / phaseCols;
    int64_t last = (offsets[1] + (cols.threads() - 1) * cols.perThread +
                    cols.perThread - 1) /
                   phaseCols;
    ok &= first == last;
  });
  return ok;
}

FailureOr<EpiloguePlan>
kbench::gpu_lowering::planEpilogue(int64_t rows, int64_t cols, Type outType,
                                   Type sourceType, const Layout &sourceLayout,
                                   int64_t numWarps, int64_t freeBytes,
                                   std::string &why) {
  EpiloguePlan plan;
  plan.rows = rows;
  plan.cols = cols;
  plan.runElems = getChunkElements(outType);
  int64_t threads = 32 * numWarps;
  int64_t sourceBytes = elementBytes(sourceType);
  for (int64_t phaseCols = cols; phaseCols >= plan.runElems; phaseCols /= 2) {
    if (cols % phaseCols != 0 || phaseCols % plan.runElems != 0 ||
        (threads * plan.runElems) % phaseCols != 0)
      continue;
    int64_t blockRows = threads * plan.runElems / phaseCols;
    if (blockRows > rows || rows % blockRows != 0 ||
        !runsStayInPhases(sourceLayout, phaseCols))
      continue;
    int64_t rowStride = phaseCols + 32 / sourceBytes;
    if (rows * rowStride * sourceBytes > freeBytes)
      continue;
    plan.phaseCols = phaseCols;
    plan.blockRows = blockRows;
    plan.iterations = rows / blockRows;
    plan.rowStride = rowStride;
    plan.block =
        getBlockedLayout({blockRows, phaseCols}, numWarps, plan.runElems);
    if (plan.block.numElements() != plan.runElems ||
        plan.block.innerPerThread() != plan.runElems)
      continue;
    return plan;
  }
  why = llvm::formatv("no split of the {0}x{1} tile into column phases gives "
                      "every one of the {2} threads one 16-byte run per row "
                      "block with a buffer that fits the {3} bytes of shared "
                      "memory left; use a smaller tile or fewer pipeline "
                      "stages, or leave the epilogue in registers",
                      rows, cols, threads, freeBytes)
            .str();
  return failure();
}
