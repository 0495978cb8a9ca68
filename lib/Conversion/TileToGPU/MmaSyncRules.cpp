//===- MmaSyncRules.cpp - When and how tile.mma lowers to mma.sync --------===//
//
// The legality rules and the warp-grid and swizzle model of impl = mma_sync
// (MmaSyncRules.h), free of IR building so that the transform op, the
// lowering and the unit test read one definition.
//
//===----------------------------------------------------------------------===//

#include "kbench/Conversion/TileToGPU/MmaSyncRules.h"

#include "kbench/Conversion/TileToGPU/Pipelining.h"
#include "kbench/Support/KernelConfig.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

std::optional<MmaSyncWarpGrid>
kbench::gpu_lowering::getMmaSyncWarpGrid(int64_t m, int64_t n, int64_t numWarps,
                                         tile::MmaWarpSplit split) {
  if (split == tile::MmaWarpSplit::rows) {
    if (m % (kMmaSyncM * numWarps) != 0 || n % kMmaSyncN != 0)
      return std::nullopt;
    return MmaSyncWarpGrid{numWarps, 1, m / (kMmaSyncM * numWarps),
                           n / kMmaSyncN};
  }
  std::optional<MmaSyncWarpGrid> best;
  double bestRatio = 0;
  for (int64_t warpsM = 1; warpsM <= numWarps; ++warpsM) {
    if (numWarps % warpsM != 0)
      continue;
    int64_t warpsN = numWarps / warpsM;
    if (m % (kMmaSyncM * warpsM) != 0 || n % (kMmaSyncN * warpsN) != 0)
      continue;
    double rows = double(m) / warpsM, cols = double(n) / warpsN;
    double ratio = rows > cols ? rows / cols : cols / rows;
    if (best && ratio >= bestRatio)
      continue;
    bestRatio = ratio;
    best = MmaSyncWarpGrid{warpsM, warpsN, m / (kMmaSyncM * warpsM),
                           n / (kMmaSyncN * warpsN)};
  }
  return best;
}

int64_t kbench::gpu_lowering::getMmaSyncSharedBytes(tile::MmaOp op) {
  RankedTensorType a = op.getA().getType(), b = op.getB().getType();
  int64_t bytes = a.getElementTypeBitWidth() / 8;
  // A and B each get a 16-byte aligned buffer of their own.
  return llvm::alignTo(a.getNumElements() * bytes, 16) +
         llvm::alignTo(b.getNumElements() * bytes, 16);
}

std::optional<std::string>
kbench::gpu_lowering::whyNotCpAsyncPipelined(tile::MmaOp op,
                                             int64_t numWarps) {
  auto loop = op->getParentOfType<scf::ForOp>();
  if (!loop || getMmaLoopMma(loop) != op)
    return std::string("the cp.async pipeline of a tensor-core K loop needs a "
                       "loop whose body only loads the two operands of one "
                       "tile.mma accumulating into its single iter_arg");
  if (op.getTransposeA())
    return std::string("the cp.async pipeline copies operand rows as they "
                       "are in memory and stages A as rows of K, so A must "
                       "be MxK (no transpose_a)");
  // A KxN B is staged as its rows of N, which the swizzle needs in
  // multiples of 16 elements (wgmma's own rule asks for 64).
  int64_t n = op.getAcc().getType().getDimSize(1);
  if (!op.getTransposeB() && n % 16 != 0)
    return llvm::formatv("the cp.async pipeline stages a KxN B (no "
                         "transpose_b) as its rows of N, which must be a "
                         "multiple of 16 elements, got N = {0}; change BN",
                         n)
        .str();
  Type elementType = op.getA().getType().getElementType();
  if (elementType.isF32() && !op.getTransposeB())
    return std::string("the cp.async pipeline copies a KxN B as its rows of "
                       "N, and tf32 reads B as rows of K (ldmatrix cannot "
                       "transpose 32-bit elements); give B as NxK "
                       "(transpose_b)");
  for (Value operand : {op.getA(), op.getB()}) {
    tile::LoadOp load = getSqueezedLoad(operand);
    auto view = cast<tile::PartitionType>(load.getView().getType());
    if (view.getPad() != tile::PadKind::none &&
        view.getPad() != tile::PadKind::zero)
      return std::string("the cp.async pipeline fills the tile past the "
                         "memref with zeros, so the operand views must have "
                         "pad(zero) or no pad");
  }
  int64_t threads = 32 * numWarps;
  ArrayRef<int64_t> a = op.getA().getType().getShape(),
                    b = op.getB().getType().getShape();
  int64_t chunk = getChunkElements(elementType);
  if ((a[0] * a[1] / chunk) % threads != 0 ||
      (b[0] * b[1] / chunk) % threads != 0)
    return llvm::formatv("the cp.async pipeline copies 16-byte chunks, and "
                         "the {0}x{1} and {2}x{3} operand tiles do not split "
                         "evenly over {4} threads; raise BM, BN or BK, or "
                         "lower num_warps",
                         a[0], a[1], b[0], b[1], threads)
        .str();
  return std::nullopt;
}

std::optional<std::string>
kbench::gpu_lowering::whyNotTensorCoreTypes(tile::MmaOp op,
                                            tile::MmaImpl impl) {
  Type operand = op.getA().getType().getElementType();
  Type accType = op.getAcc().getType().getElementType();
  std::string name = ("impl = " + tile::stringifyMmaImpl(impl)).str();
  if (operand.isF32() && accType.isF32()) {
    if (!tile::allowsTf32(op))
      return name + " with f32 operands needs tf32 tensor cores, which round "
                    "the operands to 10 mantissa bits, and the task has not "
                    "opted into tf32 (\"allow_tf32\": true in task.json); "
                    "opt in, cast the operands to bf16, or use impl = simt";
    if (impl != tile::MmaImpl::mma_sync)
      return name + " does not lower f32 (tf32) operands; use impl = "
                    "mma_sync, or cast the operands to bf16";
    return std::nullopt;
  }
  if ((operand.isBF16() || operand.isF16()) && accType.isF32())
    return std::nullopt;
  std::string types;
  llvm::raw_string_ostream os(types);
  os << operand << " x " << operand << " -> " << accType;
  std::string lowered = impl == tile::MmaImpl::mma_sync
                            ? "bf16 x bf16 -> f32, f16 x f16 -> f32 and (as "
                              "tf32) f32 x f32 -> f32"
                            : "bf16 x bf16 -> f32 and f16 x f16 -> f32";
  return name + " lowers " + lowered + " only, got " + types +
         "; use an f32 accumulator, or impl = simt";
}

std::optional<std::string>
kbench::gpu_lowering::whyNotMmaSync(tile::MmaOp op, int64_t numWarps,
                                    int64_t stages) {
  RankedTensorType a = op.getA().getType(), acc = op.getAcc().getType();
  if (std::optional<std::string> why =
          whyNotTensorCoreTypes(op, tile::MmaImpl::mma_sync))
    return why;
  ArrayRef<int64_t> c = acc.getShape();
  int64_t m = c[0], n = c[1];
  int64_t k = op.getTransposeA() ? a.getDimSize(0) : a.getDimSize(1);
  int64_t stepK = getMmaSyncStepK(a.getElementType());
  if (m % kMmaSyncM != 0 || n % kMmaSyncN != 0 || k % stepK != 0)
    return llvm::formatv(
               "impl = mma_sync needs the tile sizes M, N, K to be "
               "multiples of the m16n8k{3} instruction, got {0}x{1}x{2}"
               "; change BM, BN or BK",
               m, n, k, stepK)
        .str();
  // ldmatrix.trans moves 16-bit elements, so a tf32 A is read as rows of K
  // only; a KxN B is transposed by the store from registers instead.
  if (a.getElementType().isF32() && op.getTransposeA())
    return std::string("impl = mma_sync with tf32 operands reads A as rows "
                       "of K (ldmatrix cannot transpose 32-bit elements), so "
                       "A must be MxK (no transpose_a)");
  if (op.getWarpSplitKind() == tile::MmaWarpSplit::rows &&
      !getMmaSyncWarpGrid(m, n, numWarps, tile::MmaWarpSplit::rows))
    return llvm::formatv("impl = mma_sync with warp_split(rows) gives every "
                         "warp a multiple of 16 whole rows, and the {0}x{1} "
                         "accumulator has {0} rows for num_warps = {2}; "
                         "lower num_warps, raise BM, or drop warp_split(rows)",
                         m, n, numWarps)
        .str();
  if (!getMmaSyncWarpGrid(m, n, numWarps))
    return llvm::formatv("impl = mma_sync cannot split the {0}x{1} accumulator "
                         "over num_warps = {2}: every warp needs a multiple "
                         "of 16 rows and 8 columns; lower num_warps or raise "
                         "BM/BN",
                         m, n, numWarps)
        .str();
  if (stages < 1 || stages > kMmaSyncMaxStages)
    return llvm::formatv("tile.pipeline_stages = {0} is out of range for "
                         "impl = mma_sync: use 1 to {1}",
                         stages, kMmaSyncMaxStages)
        .str();
  if (stages > 1) {
    if (std::optional<std::string> why = whyNotCpAsyncPipelined(op, numWarps))
      return llvm::formatv("tile.pipeline_stages = {0}: {1}; use stages 1",
                           stages, *why)
          .str();
  }
  // One set of buffers per stage.
  int64_t bytes = getMmaSyncSharedBytes(op) * stages;
  int64_t limit = kSm90aLimits.sharedMemoryPerBlock;
  if (bytes > limit)
    return llvm::formatv("impl = mma_sync stages its operands in {0} bytes of "
                         "shared memory, over the {1}-byte limit of one CTA; "
                         "lower BM, BN or BK",
                         bytes, limit)
        .str();
  return std::nullopt;
}

int64_t kbench::gpu_lowering::mmaSyncSwizzleKey(int64_t row,
                                                int64_t rowElems) {
  // 64 16-bit elements fill one 128-byte line (all 32 banks).
  if (rowElems >= 64)
    return row % 8;
  int64_t rowsPerLine = 64 / rowElems;
  return (row / rowsPerLine) % 8;
}

int64_t kbench::gpu_lowering::mmaSyncSwizzle(int64_t row, int64_t col,
                                             int64_t rowElems,
                                             int64_t elementBytes) {
  int64_t halves = elementBytes / 2; // 16-bit units per element
  int64_t rowUnits = rowElems * halves;
  int64_t unit =
      (row * rowUnits + col * halves) ^ (mmaSyncSwizzleKey(row, rowUnits) << 3);
  return unit / halves;
}
