//===- TmaRules.cpp - When a wgmma K loop copies its operands with TMA ----===//
//
// The rules and the descriptor requests of TmaRules.h, free of IR building.
//
//===----------------------------------------------------------------------===//

#include "kbench/Conversion/TileToGPU/TmaRules.h"

#include "kbench/Conversion/TileToGPU/EpilogueRules.h"
#include "kbench/Conversion/TileToGPU/MmaSyncRules.h"
#include "kbench/Conversion/TileToGPU/Pipelining.h"
#include "kbench/Conversion/TileToGPU/WgmmaRules.h"
#include "kbench/Dialect/Tile/IR/KernelABI.h"
#include "kbench/Support/KernelConfig.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

StringRef kbench::gpu_lowering::stringifyOperandCopies(OperandCopies copies) {
  return copies == OperandCopies::Tma ? "tma" : "cp_async";
}

std::optional<OperandCopies>
kbench::gpu_lowering::parseOperandCopies(StringRef spelling) {
  if (spelling == "tma")
    return OperandCopies::Tma;
  if (spelling == "cp_async")
    return OperandCopies::CpAsync;
  return std::nullopt;
}

OperandCopies kbench::gpu_lowering::getOperandCopies(scf::ForOp loop) {
  auto attr = loop->getAttrOfType<StringAttr>(kOperandCopiesAttrName);
  if (!attr)
    return OperandCopies::CpAsync;
  return parseOperandCopies(attr.getValue()).value_or(OperandCopies::CpAsync);
}

BlockArgument kbench::gpu_lowering::getPartitionedKernelArg(Value view) {
  auto partition = view.getDefiningOp<tile::PartitionOp>();
  if (!partition)
    return {};
  auto arg = dyn_cast<BlockArgument>(partition.getSource());
  if (!arg || !isa<tile::KernelOp>(arg.getOwner()->getParentOp()))
    return {};
  return arg;
}

/// The kernel argument an operand of `mma` is a partition of, or null.
static BlockArgument getOperandSource(Value operand) {
  tile::LoadOp load = getSqueezedLoad(operand);
  return load ? getPartitionedKernelArg(load.getView()) : BlockArgument();
}

std::optional<std::string>
kbench::gpu_lowering::whyNotTmaPipeline(scf::ForOp loop, int64_t numWarps,
                                        int64_t stages) {
  tile::MmaOp mma = getMmaLoopMma(loop);
  if (!mma)
    return std::string(
        "tile.operand_copies = tma needs a K loop whose body only loads the "
        "two operands of one tile.mma accumulating into its single iter_arg");
  if (mma.getImplKind() != tile::MmaImpl::wgmma)
    return llvm::formatv("tile.operand_copies = tma is lowered for impl = "
                         "wgmma K loops only, and this tile.mma has impl = "
                         "{0}; set transform.tile.mma_impl wgmma first",
                         tile::stringifyMmaImpl(mma.getImplKind()))
        .str();
  if (stages < 2)
    return llvm::formatv("tile.operand_copies = tma copies into pipeline "
                         "stages, and this loop has {0}; set "
                         "transform.tile.pipeline stages 2 to {1} first",
                         stages, kWgmmaMaxStages)
        .str();
  if (std::optional<std::string> why = whyNotWgmma(mma, numWarps, stages))
    return why;
  int64_t k = mma.getA().getType().getDimSize(1);
  if (k != kWgmmaRowElems)
    return llvm::formatv("tile.operand_copies = tma copies boxes of one "
                         "128-byte swizzle row, K tiles of {0} elements, and "
                         "this tile.mma's K tile is {1}; set BK to {0} or use "
                         "operand_copies cp_async",
                         kWgmmaRowElems, k)
        .str();
  if (!mma.getTransposeB())
    return std::string(
        "tile.operand_copies = tma copies B as NxK boxes (rows of K), and "
        "this tile.mma's B is KxN (no transpose_b); use operand_copies "
        "cp_async, whose copies stage a KxN B as rows of N");
  for (auto [operand, name] :
       {std::pair{mma.getA(), "A"}, std::pair{mma.getB(), "B"}}) {
    auto view =
        cast<tile::PartitionType>(getSqueezedLoad(operand).getView().getType());
    if (view.getRank() != 2)
      return llvm::formatv("tile.operand_copies = tma encodes rank-2 tensor "
                           "maps, and operand {0} partitions a rank-{1} "
                           "memref",
                           name, view.getRank())
          .str();
  }
  // The stage buffers (whyNotWgmma counted them) and 2 S mbarriers.
  int64_t bytes = getWgmmaSharedBytes(mma) * stages + kWgmmaBufferAlign +
                  2 * stages * kMbarrierBytes;
  if (bytes > kSm90aLimits.sharedMemoryPerBlock)
    return llvm::formatv("tile.operand_copies = tma needs {0} bytes of "
                         "shared memory (stage buffers and mbarriers), over "
                         "the {1}-byte limit of one CTA; lower BM, BN or the "
                         "pipeline stages",
                         bytes, kSm90aLimits.sharedMemoryPerBlock)
        .str();
  return std::nullopt;
}

std::optional<std::string>
kbench::gpu_lowering::whyNotTmaCopies(scf::ForOp loop, int64_t numWarps,
                                      int64_t stages) {
  if (std::optional<std::string> why =
          whyNotTmaPipeline(loop, numWarps, stages))
    return why;
  tile::MmaOp mma = getMmaLoopMma(loop);
  for (auto [operand, name] :
       {std::pair{mma.getA(), "A"}, std::pair{mma.getB(), "B"}}) {
    BlockArgument source = getOperandSource(operand);
    if (!source)
      return llvm::formatv("tile.operand_copies = tma reads operand {0} "
                           "through a tensor map of a kernel argument, but "
                           "its view is not a tile.partition of one",
                           name)
          .str();
  }
  return std::nullopt;
}

bool kbench::gpu_lowering::tmaCopiesFitSomeSizes(scf::ForOp loop) {
  tile::MmaOp mma = getMmaLoopMma(loop);
  if (!mma || whyNotTensorCoreTypes(mma, tile::MmaImpl::wgmma) ||
      !mma.getTransposeB())
    return false;
  return llvm::all_of(ValueRange{mma.getA(), mma.getB()}, [](Value operand) {
    BlockArgument source = getOperandSource(operand);
    return source && cast<MemRefType>(source.getType()).getRank() == 2;
  });
}

TmaOperandBoxes kbench::gpu_lowering::getTmaOperandBoxes(tile::MmaOp mma,
                                                         int64_t numWarps) {
  int64_t m = mma.getA().getType().getDimSize(0);
  int64_t k = mma.getA().getType().getDimSize(1);
  int64_t n = mma.getB().getType().getDimSize(0);
  // BM = 16 W T: T rows of 16 W in a full tile.
  int64_t rowBlocks = m / (16 * numWarps);
  return {{kTmaRowsPerABox, k}, {rowBlocks, 4, 2, 8, k}, {n, k}};
}

TmaOperandRequests
kbench::gpu_lowering::getTmaOperandRequests(tile::MmaOp mma,
                                            int64_t numWarps) {
  Type element = mma.getA().getType().getElementType();
  unsigned a = getOperandSource(mma.getA()).getArgNumber();
  unsigned b = getOperandSource(mma.getB()).getArgNumber();
  TmaOperandBoxes boxes = getTmaOperandBoxes(mma, numWarps);
  return {TmaDescriptorRequest{a, element, boxes.aRows},
          TmaDescriptorRequest{a, element, boxes.aStaged, numWarps},
          TmaDescriptorRequest{b, element, boxes.b}};
}

StagedRowsView kbench::gpu_lowering::getStagedRowsView(StringRef rows,
                                                       StringRef cols,
                                                       int64_t numWarps) {
  std::string c = cols.str();
  auto times = [&](int64_t factor) {
    return std::to_string(factor) + " * " + c;
  };
  StagedRowsView view;
  view.shape = {"floordiv(" + rows.str() + ", " +
                    std::to_string(16 * numWarps) + ")",
                std::to_string(numWarps), "2", "8", c};
  view.strides = {times(16 * numWarps), times(8), times(8 * numWarps), c,
                  "1"};
  return view;
}

SmallVector<TmaDescriptorRequest>
kbench::gpu_lowering::collectTmaDescriptors(tile::KernelOp kernel,
                                            int64_t numWarps) {
  SmallVector<TmaDescriptorRequest> requests;
  kernel.walk([&](scf::ForOp loop) {
    if (getOperandCopies(loop) != OperandCopies::Tma ||
        whyNotTmaCopies(loop, numWarps, getPipelineStages(loop)))
      return;
    TmaOperandRequests operands =
        getTmaOperandRequests(getMmaLoopMma(loop), numWarps);
    for (const TmaDescriptorRequest &request :
         {operands.aRows, operands.aStaged, operands.b})
      if (!llvm::is_contained(requests, request))
        requests.push_back(request);
  });
  // Staged epilogues written with TMA: one unswizzled map per output.
  kernel.walk([&](tile::StoreOp store) {
    if (!store->hasAttr(kTmaStoreAttrName) || whyNotTmaStore(store))
      return;
    TmaDescriptorRequest request{
        getPartitionedKernelArg(store.getView()).getArgNumber(),
        cast<tile::PartitionType>(store.getView().getType()).getElementType(),
        getTmaStoreBox(store)};
    request.swizzleBytes = 0;
    if (!llvm::is_contained(requests, request))
      requests.push_back(request);
  });
  return requests;
}

//===----------------------------------------------------------------------===//
// Warp specialization
//===----------------------------------------------------------------------===//

/// The K loops of `kernel` that copy their operands with TMA.
static SmallVector<scf::ForOp> getTmaLoops(tile::KernelOp kernel) {
  SmallVector<scf::ForOp> loops;
  kernel.walk([&](scf::ForOp loop) {
    if (getOperandCopies(loop) == OperandCopies::Tma)
      loops.push_back(loop);
  });
  return loops;
}

scf::ForOp kbench::gpu_lowering::getWarpSpecializedLoop(tile::KernelOp kernel) {
  SmallVector<scf::ForOp> loops = getTmaLoops(kernel);
  return loops.size() == 1 ? loops.front() : scf::ForOp();
}

/// Whether every thread, the producer warpgroup's too, may run `op` before
/// the producer exits: it reads and writes no memory and its lowering uses
/// no thread ids (no layout of a loaded or reduced tile: the producer's
/// threads have no place in the layouts).
static bool isScalarPrologueOp(Operation *op) {
  if (isa<arith::ConstantOp, tile::PartitionOp, tile::GridOp, tile::NumTilesOp,
          tile::ExtentOp, tile::TileSizeOp, tile::SplatOp>(op))
    return true;
  if (!isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
          op->getDialect()))
    return false;
  return llvm::none_of(op->getResultTypes(),
                       [](Type type) { return isa<ShapedType>(type); });
}

std::optional<std::string>
kbench::gpu_lowering::whyNotProducerLoop(tile::KernelOp kernel,
                                         scf::ForOp loop) {
  std::string name = ("@" + kernel.getSymName()).str();
  Block &body = kernel.getBody().front();
  if (loop->getBlock() != &body)
    return llvm::formatv("{0}'s TMA K loop sits inside a `{1}`; the producer "
                         "warpgroup exits after the loop, so the loop must be "
                         "at the top level of the kernel and run once per CTA",
                         name, loop->getParentOp()->getName())
        .str();
  for (Operation &op : body) {
    if (&op == loop.getOperation())
      break;
    if (!isScalarPrologueOp(&op))
      return llvm::formatv(
                 "{0} runs `{1}` before its TMA K loop; the producer "
                 "warpgroup runs the code before that loop and has no place "
                 "in the layouts, so only scalar code (index arithmetic, "
                 "constants, splats, views and the grid) may come before it; "
                 "move the op after the loop",
                 name, op.getName())
          .str();
  }
  return std::nullopt;
}

std::optional<std::string>
kbench::gpu_lowering::whyNotWarpSpecialized(tile::KernelOp kernel) {
  std::string name = ("@" + kernel.getSymName()).str();
  if (kernel->hasAttr(tile::kPersistentAttrName))
    return name + " runs persistent CTAs (tile.persistent): the producer "
                  "warpgroup exits after the K loop of the first tile, so the "
                  "next would have none; drop transform.tile.persistent or "
                  "transform.tile.warp_specialize";
  if (int64_t ctas = tile::getKernelConfig(kernel).minCtasPerSm; ctas > 1)
    return llvm::formatv("{0} sets min_ctas_per_sm = {1}: warp "
                         "specialization sets the kernel's register limit "
                         "itself (.maxnreg); drop one of the two",
                         name, ctas)
        .str();
  SmallVector<scf::ForOp> loops = getTmaLoops(kernel);
  int64_t tmaLoops = loops.size();
  if (tmaLoops == 0)
    return name + " has no K loop that copies its operands with TMA "
                  "(transform.tile.operand_copies tma); warp specialization "
                  "gives those copies a producer warpgroup";
  if (tmaLoops > 1)
    return llvm::formatv("{0} has {1} K loops that copy with TMA; the "
                         "producer warpgroup serves one loop and exits after "
                         "it",
                         name, tmaLoops)
        .str();
  if (std::optional<std::string> why =
          whyNotProducerLoop(kernel, loops.front()))
    return why;
  int64_t numWarps = tile::getKernelConfig(kernel).numWarps;
  int64_t maxWarps = kSm90aLimits.maxThreadsPerBlock / 32;
  if (numWarps + tile::kProducerWarps > maxWarps)
    return llvm::formatv("{0} has num_warps = {1}, which leaves no room for "
                         "the producer warpgroup ({2} warps at most with warp "
                         "specialization: {3} threads per CTA)",
                         name, numWarps, maxWarps - tile::kProducerWarps,
                         kSm90aLimits.maxThreadsPerBlock)
        .str();
  return std::nullopt;
}

WarpSpecializedRegisters
kbench::gpu_lowering::getWarpSpecializedRegisters(int64_t numWarps) {
  // setmaxnreg takes multiples of 8 from 24 to 256; a thread addresses at
  // most 255 registers.
  auto floor8 = [](int64_t v) { return v / 8 * 8; };
  // 32-bit registers of one SM of compute capability 9.0 (the CUDA
  // programming guide's table). Two CTAs of one consumer warpgroup share
  // an SM, as the kernel without a producer did (on the H200 machine a
  // 4-warp matmul with the register file to itself, one CTA per SM, was
  // 1.3x slower than without specialization); larger CTAs take it all.
  int64_t ctasPerSm = numWarps <= 4 ? 2 : 1;
  int64_t registers = 65536 / ctasPerSm;
  int64_t consumers = 32 * numWarps;
  int64_t launch = consumers + 32 * tile::kProducerWarps;
  // The producer only computes copy coordinates; 40 is what it needs with
  // room to spare (ptxas spills past its limit, and the tests check the
  // bundles for spills).
  int64_t producer = 40;
  int64_t kernelLimit = floor8(std::min<int64_t>(255, registers / launch));
  int64_t consumer = floor8(std::min<int64_t>(
      248, (registers - 32 * tile::kProducerWarps * producer) / consumers));
  return {kernelLimit, producer, std::max(consumer, kernelLimit)};
}
