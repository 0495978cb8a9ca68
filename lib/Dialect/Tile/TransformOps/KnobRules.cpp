//===- KnobRules.cpp - Legality of tile kernel knobs ----------------------===//
//
// The rules a kernel's stored knobs must satisfy, checked after every
// transform.tile.* edit (so set_params also re-checks a stored vector_width,
// and set_num_warps the register estimate), and the undo log that lets a
// failing op restore the kernel. Messages name the knob, its value and the
// limit; the transform op prepends its own name.
//
//===----------------------------------------------------------------------===//

#include "KnobRules.h"
#include "Persistent.h"
#include "RowsPerCta.h"
#include "SinglePass.h"
#include "SplitReduction.h"
#include "TmaStore.h"
#include "WarpSpecialize.h"

#include "kbench/Conversion/TileToGPU/MmaOverlapRules.h"
#include "kbench/Conversion/TileToGPU/Pipelining.h"
#include "kbench/Conversion/TileToGPU/PrefetchRules.h"
#include "kbench/Conversion/TileToGPU/SharedBudget.h"
#include "kbench/Conversion/TileToGPU/TmaRules.h"
#include "kbench/Conversion/TileToGPU/WgmmaRules.h"
#include "kbench/Dialect/Tile/IR/KernelABI.h"
#include "kbench/Dialect/Tile/TransformOps/Raster.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/FormatVariadic.h"

#include <numeric>
#include <thread>

using namespace mlir;
using namespace kbench;
using namespace kbench::tile;
using namespace kbench::transform;

//===----------------------------------------------------------------------===//
// PayloadEdits, setParam, verifyKernel
//===----------------------------------------------------------------------===//

void PayloadEdits::setType(Value value, Type type) {
  log.push_back({value, value.getType(), nullptr, {}, {}});
  value.setType(type);
}

void PayloadEdits::setAttr(Operation *op, StringAttr name, Attribute value) {
  log.push_back({Value(), Type(), op, name, op->getAttr(name)});
  op->setAttr(name, value);
}

void PayloadEdits::removeAttr(Operation *op, StringAttr name) {
  if (Attribute old = op->getAttr(name)) {
    log.push_back({Value(), Type(), op, name, old});
    op->removeAttr(name);
  }
}

void PayloadEdits::undo() {
  for (Edit &edit : llvm::reverse(log)) {
    if (!edit.op)
      edit.value.setType(edit.oldType);
    else if (edit.old)
      edit.op->setAttr(edit.name, edit.old);
    else
      edit.op->removeAttr(edit.name);
  }
  log.clear();
}

void kbench::transform::setParam(KernelOp kernel, StringRef name, int64_t value,
                                 PayloadEdits &edits) {
  MLIRContext *context = kernel.getContext();
  NamedAttrList params;
  if (DictionaryAttr old = kernel.getParamsAttr())
    params.assign(old.begin(), old.end());
  params.set(name, IntegerAttr::get(IntegerType::get(context, 64), value));
  edits.setAttr(kernel, kernel.getParamsAttrName(),
                params.getDictionary(context));
}

std::optional<KnobFailure> kbench::transform::checkOnOff(KernelOp kernel,
                                                         StringRef knob,
                                                         int64_t value,
                                                         StringRef what) {
  if (value == 0 || value == 1)
    return std::nullopt;
  return KnobFailure{(knob + " = " + Twine(value) +
                      " is neither 0 (leave the kernel as is) nor 1 (" + what +
                      ")")
                         .str(),
                     kernel.getLoc(), "in this kernel"};
}

std::optional<KnobFailure> kbench::transform::verifyKernel(KernelOp kernel) {
  std::optional<KnobFailure> failure;
  {
    // Only this thread's diagnostics: kbench search applies schedules on
    // several threads of one context, and another thread's error must
    // neither be swallowed here nor fail this kernel.
    std::thread::id self = std::this_thread::get_id();
    ScopedDiagnosticHandler capture(kernel.getContext(), [&](Diagnostic &diag) {
      if (std::this_thread::get_id() != self)
        return mlir::failure(); // not ours: the next handler takes it
      if (diag.getSeverity() == DiagnosticSeverity::Error && !failure)
        failure = KnobFailure{
            "the edited kernel does not verify: " + diag.str(),
            diag.getLocation(), "this op does not verify after the edit"};
      return success();
    });
    if (succeeded(mlir::verify(kernel)))
      return std::nullopt;
  }
  if (!failure)
    failure = KnobFailure{"the edited kernel does not verify", kernel.getLoc(),
                          "this kernel"};
  return failure;
}

/// Whether `mma` passes its own verifier (shapes and types per impl), with
/// no diagnostic: one that does not is left to verifyKernel, whose message
/// (the verifier's) names the more basic fault.
static bool mmaVerifies(MmaOp mma) {
  std::thread::id self = std::this_thread::get_id();
  ScopedDiagnosticHandler quiet(mma.getContext(), [&](Diagnostic &) {
    return success(std::this_thread::get_id() == self);
  });
  return succeeded(mlir::verify(mma, /*verifyRecursively=*/false));
}

//===----------------------------------------------------------------------===//
// Descriptions
//===----------------------------------------------------------------------===//

static int64_t byteWidth(Type type) {
  return std::max<int64_t>(1, (type.getIntOrFloatBitWidth() + 7) / 8);
}

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(shape, os, "x");
  return text;
}

/// "argument #1 'W' (dims [N, K])" for a partition of a kernel argument.
static std::string describeSource(KernelOp kernel, PartitionOp partition) {
  auto arg = dyn_cast<BlockArgument>(partition.getSource());
  if (!arg || arg.getOwner()->getParentOp() != kernel.getOperation())
    return "a memref";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "argument #" << arg.getArgNumber() << " '"
     << getArgName(kernel, arg.getArgNumber()) << "' (dims [";
  llvm::interleaveComma(kernel.getArgDimNames(arg.getArgNumber()), os);
  os << "])";
  return text;
}

/// "tile [BM, BK] = 64x32".
static std::string describeTile(PartitionOp partition) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "tile [";
  llvm::interleaveComma(partition.getTileSizes(), os, [&](Attribute size) {
    if (auto name = dyn_cast<StringAttr>(size))
      os << name.getValue();
    else
      os << cast<IntegerAttr>(size).getInt();
  });
  os << "] = " << shapeString(partition.getType().getShape());
  return text;
}

//===----------------------------------------------------------------------===//
// Knob rules
//===----------------------------------------------------------------------===//

static std::optional<KnobFailure> checkNumWarps(KernelOp kernel) {
  int64_t numWarps = getKernelConfig(kernel).numWarps;
  if (std::optional<std::string> range =
          checkKnobValue(Knob::NumWarps, numWarps))
    return KnobFailure{*range, kernel.getLoc(), "in this kernel"};
  std::optional<KnobFailure> failure;
  kernel.walk([&](MmaOp mma) {
    int64_t warpgroup = kSm90aLimits.warpgroupWarps;
    if (!failure && mma.getImplKind() == MmaImpl::wgmma &&
        numWarps % warpgroup != 0)
      failure = KnobFailure{
          llvm::formatv("num_warps = {0} is not a multiple of {1}, which "
                        "tile.mma with impl = wgmma needs (a warpgroup is {1} "
                        "warps); use {2}",
                        numWarps, warpgroup,
                        describeLegalValues(Knob::NumWarps, warpgroup)),
          mma.getLoc(), "tile.mma with impl = wgmma"};
  });
  return failure;
}

/// The knob table's range check of param knob `knob`, when the kernel sets it.
static std::optional<KnobFailure> checkKnobRange(KernelOp kernel, Knob knob) {
  std::optional<int64_t> value = kernel.getParamValue(knobParam(knob));
  if (!value)
    return std::nullopt;
  if (std::optional<std::string> range = checkKnobValue(knob, *value))
    return KnobFailure{*range, kernel.getLoc(), "in this kernel"};
  return std::nullopt;
}

/// Row alignment is not a rule: when the innermost dim of a rank >= 2
/// partition is not provably a multiple of the width, tile-to-gpu versions
/// each access on `dim % width == 0` at run time (the aligned vector path or
/// the masked one), so any width that fits 16 bytes and divides the innermost
/// tile size is legal.
static std::optional<KnobFailure> checkVectorWidth(KernelOp kernel) {
  if (std::optional<KnobFailure> failure =
          checkKnobRange(kernel, Knob::VectorWidth))
    return failure;
  std::optional<int64_t> width =
      kernel.getParamValue(knobParam(Knob::VectorWidth));
  if (!width)
    return std::nullopt;
  std::optional<KnobFailure> failure;
  kernel.walk([&](PartitionOp partition) {
    if (failure)
      return;
    PartitionType type = partition.getType();
    if (type.getRank() == 0)
      return;
    int64_t bytes = byteWidth(type.getElementType());
    int64_t maxBytes = kSm90aLimits.maxAccessBytes;
    if (*width * bytes > maxBytes) {
      failure = KnobFailure{
          llvm::formatv("vector_width = {0} makes {1}-byte accesses to the "
                        "{2} elements of {3}; the limit is {4} bytes, so at "
                        "most {5} for this element type",
                        *width, *width * bytes, type.getElementType(),
                        describeSource(kernel, partition), maxBytes,
                        maxVectorWidth(bytes)),
          partition.getLoc(), "this partition"};
      return;
    }
    // A partition gathered along its innermost dim has tile size 1 there;
    // the tiles it gives are as wide as their index tiles (every one of
    // them must take the width).
    int64_t innerDim = type.getRank() - 1;
    auto gathersInner = [&](Operation *user) {
      auto gather = dyn_cast<GatherOp>(user);
      return gather && static_cast<int64_t>(gather.getDim()) == innerDim;
    };
    int64_t inner = type.getShape().back();
    bool gathered = !partition->use_empty() &&
                    llvm::all_of(partition->getUsers(), gathersInner);
    if (gathered) {
      inner = 0;
      for (Operation *user : partition->getUsers())
        inner =
            std::gcd(inner, cast<GatherOp>(user).getType().getShape().back());
    }
    if (inner % *width != 0) {
      failure = KnobFailure{
          llvm::formatv("vector_width = {0} does not divide the innermost "
                        "{1} {2} of {3}the partition of {4} ({5}); use a "
                        "width that divides it or retile",
                        *width, gathered ? "size" : "tile size", inner,
                        gathered ? "the tiles tile.gather reads from " : "",
                        describeSource(kernel, partition),
                        describeTile(partition)),
          partition.getLoc(), "this partition"};
    }
  });
  return failure;
}

static std::optional<KnobFailure> checkRaster(KernelOp kernel) {
  if (std::optional<KnobFailure> failure = checkKnobRange(kernel, Knob::GroupM))
    return failure;
  std::optional<int64_t> groupM = kernel.getParamValue(knobParam(Knob::GroupM));
  if (!groupM)
    return std::nullopt;
  GridOp grid;
  kernel.walk([&](GridOp op) { grid = op; });
  size_t rank = grid ? grid.getGridDims().size() : 0;
  if (rank != 2)
    return KnobFailure{
        llvm::formatv(
            "group_m = {0} needs a 2-D grid but the tile.grid of @{1} "
            "spans {2} dim{3}; grouped order only applies to 2-D "
            "grids, so drop the raster op for this kernel",
            *groupM, kernel.getSymName(), rank, rank == 1 ? "" : "s"),
        grid ? grid.getLoc() : kernel.getLoc(), "the launch grid"};
  int64_t badM = 0, badN = 0, badPid = 0;
  if (!isBlockRemapBijective(groupedBlockRemap, *groupM, kRasterProofGrid, badM,
                             badN, badPid))
    return KnobFailure{
        llvm::formatv("group_m = {0}: the grouped remap is not a bijection on "
                      "a {1}x{2} grid (block {3} collides or leaves the grid)",
                      *groupM, badM, badN, badPid),
        grid.getLoc(), "the launch grid"};
  return std::nullopt;
}

/// min_ctas_per_sm: in range, that many CTAs of the kernel's threads fit the
/// SM's threads, and no warp specialization, whose .maxnreg already decides
/// the registers (two register limits would contradict each other).
static std::optional<KnobFailure> checkMinCtasPerSm(KernelOp kernel) {
  if (std::optional<KnobFailure> failure =
          checkKnobRange(kernel, Knob::MinCtasPerSm))
    return failure;
  std::optional<int64_t> ctas =
      kernel.getParamValue(knobParam(Knob::MinCtasPerSm));
  if (!ctas)
    return std::nullopt;
  if (*ctas == 1)
    return std::nullopt;
  int64_t threads = getLaunchBlockSize(kernel);
  if (*ctas * threads > kSm90aLimits.maxThreadsPerSm)
    return KnobFailure{
        llvm::formatv("min_ctas_per_sm = {0}: {0} CTAs of {1} threads are "
                      "{2} threads, more than the {3} an SM holds; use "
                      "min_ctas_per_sm <= {4} or fewer warps",
                      *ctas, threads, *ctas * threads,
                      kSm90aLimits.maxThreadsPerSm,
                      kSm90aLimits.maxThreadsPerSm / threads),
        kernel.getLoc(), "in this kernel"};
  if (kernel->hasAttr(kWarpSpecializedAttrName))
    return KnobFailure{
        llvm::formatv("min_ctas_per_sm = {0} on warp-specialized @{1}: "
                      "transform.tile.warp_specialize sets the kernel's "
                      "register limit itself (.maxnreg); drop one of the two",
                      *ctas, kernel.getSymName()),
        kernel.getLoc(), "in this kernel"};
  return std::nullopt;
}

/// Shared memory for staging mma operands (SharedBudget.h: the buffers the
/// lowering allocates, with the pipeline stages set so far) and accumulator
/// registers per thread; the lowering keeps both per CTA.
static std::optional<KnobFailure> checkBudgets(KernelOp kernel) {
  int64_t threads = getBlockSize(kernel);
  int64_t sharedBytes = 0, largestBytes = 0, mmaCount = 0;
  MmaOp largestMma;
  std::optional<KnobFailure> failure;
  kernel.walk([&](MmaOp mma) {
    if (failure)
      return;
    int64_t bytes = gpu_lowering::getMmaOperandSharedBytes(mma);
    sharedBytes += bytes;
    ++mmaCount;
    if (!largestMma || bytes > largestBytes) {
      largestMma = mma;
      largestBytes = bytes;
    }
    // 32-bit registers: two f16 accumulators share one, an f64 takes two.
    RankedTensorType acc = mma.getAcc().getType();
    int64_t accBits = acc.getNumElements() * acc.getElementTypeBitWidth();
    int64_t registers = llvm::divideCeil(accBits, 32 * threads);
    if (registers > kSm90aLimits.accumulatorRegisterLimit)
      failure = KnobFailure{
          llvm::formatv("the tile.mma accumulator {0} {1} needs {2} registers "
                        "per thread over {3} threads (num_warps = {4}); the "
                        "limit is {5}: lower the M or N tile sizes or raise "
                        "num_warps",
                        shapeString(acc.getShape()), acc.getElementType(),
                        registers, threads, threads / kSm90aLimits.warpSize,
                        kSm90aLimits.accumulatorRegisterLimit),
          mma.getLoc(), "this tile.mma"};
  });
  if (failure)
    return failure;
  if (sharedBytes > kSm90aLimits.sharedMemoryPerBlock) {
    // impl = simt stages 16-bit operands widened: the order of the script
    // matters when a later op switches to tensor cores.
    std::string simtHint;
    Type operandType = largestMma.getA().getType().getElementType();
    Type accType = largestMma.getAcc().getType().getElementType();
    if (largestMma.getImplKind() == MmaImpl::simt && operandType != accType)
      simtHint = llvm::formatv("; impl = simt stages {0} operands as {1}, so "
                               "a schedule that switches to tensor cores runs "
                               "transform.tile.mma_impl before it sets tile "
                               "sizes",
                               operandType, accType);
    return KnobFailure{
        llvm::formatv(
            "the shared-memory estimate {0} bytes (the operand buffers of {1} "
            "tile.mma op{2} as tile-to-gpu stages them; the largest {3} "
            "bytes, operands {4} and {5} {6}) exceeds the {7}-byte ({8} "
            "KB) limit of one CTA; lower the mma tile sizes or the pipeline "
            "stages{9}",
            sharedBytes, mmaCount, mmaCount == 1 ? "" : "s", largestBytes,
            shapeString(largestMma.getA().getType().getShape()),
            shapeString(largestMma.getB().getType().getShape()), operandType,
            kSm90aLimits.sharedMemoryPerBlock,
            kSm90aLimits.sharedMemoryPerBlock / 1024, simtHint),
        largestMma.getLoc(), "operands of this tile.mma are staged"};
  }
  return std::nullopt;
}

bool kbench::transform::isPipelineTarget(scf::ForOp loop) {
  if (gpu_lowering::getPipelinableMma(loop))
    return true;
  MmaOp mma = gpu_lowering::getMmaLoopMma(loop);
  if (mma)
    return gpu_lowering::isTensorCoreImpl(mma.getImplKind());
  return !gpu_lowering::getPrefetchedOperands(loop).empty();
}

std::optional<KnobFailure>
kbench::transform::checkPipelinableLoop(scf::ForOp loop, StringRef what) {
  if (isPipelineTarget(loop))
    return std::nullopt;
  return KnobFailure{
      (what + ": this scf.for is not a loop tile-to-gpu can pipeline; a K "
              "loop's body only loads the two operands of one tile.mma "
              "that accumulates into the loop's single iter_arg, and an "
              "operand prefetch needs an mma_sync or wgmma tile.mma with an "
              "operand loaded in the loop body (match that loop, or the "
              "kernel to set every such loop)")
          .str(),
      loop.getLoc(), "this scf.for"};
}

std::optional<KnobFailure>
kbench::transform::checkPipelineStages(scf::ForOp loop, int64_t stages,
                                       int64_t numWarps) {
  if (std::optional<std::string> range =
          checkKnobValue(Knob::PipelineStages, stages))
    return KnobFailure{*range + "; use 1 (off) to 4", loop.getLoc(),
                       "this scf.for"};
  if (stages == 1)
    return std::nullopt;
  // A tensor-core K loop has its impl's depth rule (MmaSyncRules.h,
  // WgmmaRules.h).
  MmaOp tensorCoreMma;
  loop.getBody()->walk([&](MmaOp mma) {
    if (gpu_lowering::isTensorCoreImpl(mma.getImplKind()))
      tensorCoreMma = mma;
  });
  if (tensorCoreMma) {
    if (!mmaVerifies(tensorCoreMma))
      return std::nullopt; // verifyKernel reports it
    // A K loop pipelines its one mma; another loop prefetches its mma
    // operands (PrefetchRules.h).
    MmaOp kLoopMma = gpu_lowering::getMmaLoopMma(loop);
    std::optional<std::string> why =
        kLoopMma ? gpu_lowering::whyNotTensorCore(
                       kLoopMma, kLoopMma.getImplKind(), numWarps, stages)
                 : gpu_lowering::whyNotOperandPrefetch(loop, numWarps, stages);
    if (why)
      return KnobFailure{*why, loop.getLoc(), "this scf.for"};
    return std::nullopt;
  }
  std::string what = llvm::formatv("tile.pipeline_stages = {0}", stages);
  if (std::optional<KnobFailure> failure = checkPipelinableLoop(loop, what))
    return failure;
  if (stages > 2)
    return KnobFailure{
        what + ": the SIMT K loop double-buffers with synchronous loads, so "
               "it takes 1 or 2 stages; deeper pipelines are cp.async stages "
               "of impl = mma_sync or wgmma K loops (transform.tile.mma_impl)",
        loop.getLoc(), "this scf.for"};
  if (gpu_lowering::isPipelinableMmaLoop(loop, numWarps))
    return std::nullopt;
  ArrayRef<int64_t> acc = gpu_lowering::getPipelinableMma(loop)
                              .getAcc()
                              .getType()
                              .getShape();
  return KnobFailure{
      llvm::formatv("{0}: the tile.mma accumulator {1} does not split into "
                    "micro-tiles over num_warps = {2}, which the pipelined "
                    "loop needs; use stages 1, or change num_warps or the M "
                    "and N tile sizes",
                    what, shapeString(acc), numWarps),
      loop.getLoc(), "this scf.for"};
}

/// Every recorded depth must still be one the lowering accepts: set_num_warps
/// and set_params change what isPipelinableMmaLoop says after
/// transform.tile.pipeline has run.
static std::optional<KnobFailure> checkPipelining(KernelOp kernel) {
  int64_t numWarps = getKernelConfig(kernel).numWarps;
  std::optional<KnobFailure> failure;
  kernel.walk([&](scf::ForOp loop) {
    auto stages =
        loop->getAttrOfType<IntegerAttr>(gpu_lowering::kPipelineStagesAttrName);
    if (!failure && stages)
      failure = checkPipelineStages(loop, stages.getInt(), numWarps);
  });
  return failure;
}

/// Every impl = mma_sync or wgmma tile.mma must still be one the lowering
/// accepts: set_num_warps and set_params change what the rules say after
/// transform.tile.mma_impl has run.
static std::optional<KnobFailure> checkTensorCoreMmas(KernelOp kernel) {
  int64_t numWarps = getKernelConfig(kernel).numWarps;
  std::optional<KnobFailure> failure;
  kernel.walk([&](MmaOp mma) {
    if (failure || !gpu_lowering::isTensorCoreImpl(mma.getImplKind()) ||
        !mmaVerifies(mma))
      return;
    // The depth of its K loop (a loop that only prefetches its operands
    // leaves the mma's own rules at one stage).
    auto loop = mma->getParentOfType<scf::ForOp>();
    int64_t stages = loop && gpu_lowering::getMmaLoopMma(loop) == mma
                         ? gpu_lowering::getPipelineStages(loop)
                         : 1;
    if (std::optional<std::string> why = gpu_lowering::whyNotTensorCore(
            mma, mma.getImplKind(), numWarps, stages))
      failure = KnobFailure{*why, mma.getLoc(), "this tile.mma"};
  });
  return failure;
}

/// Every K loop that copies its operands with TMA must still be one the
/// lowering accepts (TmaRules.h) after any edit.
static std::optional<KnobFailure> checkOperandCopies(KernelOp kernel) {
  int64_t numWarps = getKernelConfig(kernel).numWarps;
  std::optional<KnobFailure> failure;
  kernel.walk([&](scf::ForOp loop) {
    if (failure ||
        gpu_lowering::getOperandCopies(loop) != gpu_lowering::OperandCopies::Tma)
      return;
    MmaOp mma = gpu_lowering::getMmaLoopMma(loop);
    if (mma && !mmaVerifies(mma))
      return; // verifyKernel reports it
    if (std::optional<std::string> why = gpu_lowering::whyNotTmaCopies(
            loop, numWarps, gpu_lowering::getPipelineStages(loop)))
      failure = KnobFailure{*why, loop.getLoc(), "this scf.for"};
  });
  return failure;
}

/// mma_overlap = 1 needs a loop the rotation accepts (MmaOverlapRules.h).
static std::optional<KnobFailure> checkMmaOverlap(KernelOp kernel) {
  if (std::optional<KnobFailure> failure =
          checkKnobRange(kernel, Knob::MmaOverlap))
    return failure;
  std::optional<int64_t> value =
      kernel.getParamValue(knobParam(Knob::MmaOverlap));
  if (!value || *value == 0)
    return std::nullopt;
  if (std::optional<gpu_lowering::MmaOverlapRefusal> refusal =
          gpu_lowering::whyNotMmaOverlap(kernel))
    return KnobFailure{refusal->reason, refusal->at->getLoc(),
                       isa<KernelOp>(refusal->at) ? "this kernel"
                                                  : "this scf.for"};
  return std::nullopt;
}

static std::optional<KnobFailure> checkPingPong(KernelOp kernel) {
  if (std::optional<KnobFailure> failure =
          checkKnobRange(kernel, Knob::PingPong))
    return failure;
  if (std::optional<std::string> why =
          kbench::tile::getKernelConfig(kernel).whyNotPingPong())
    return KnobFailure{*why, kernel.getLoc(), "in this kernel"};
  return std::nullopt;
}

std::optional<KnobFailure> kbench::transform::checkKnobs(KernelOp kernel) {
  if (std::optional<KnobFailure> failure = checkNumWarps(kernel))
    return failure;
  if (std::optional<KnobFailure> failure = checkVectorWidth(kernel))
    return failure;
  if (std::optional<KnobFailure> failure = checkRaster(kernel))
    return failure;
  if (std::optional<KnobFailure> failure = checkMinCtasPerSm(kernel))
    return failure;
  // scalar_unaligned_rows, cache_hints, fast_math, overlap_copies and
  // stage_barriers have no rule beyond their range (0 or 1).
  if (std::optional<KnobFailure> failure =
          checkKnobRange(kernel, Knob::ScalarUnalignedRows))
    return failure;
  if (std::optional<KnobFailure> failure =
          checkKnobRange(kernel, Knob::CacheHints))
    return failure;
  if (std::optional<KnobFailure> failure =
          checkKnobRange(kernel, Knob::FastMath))
    return failure;
  if (std::optional<KnobFailure> failure =
          checkKnobRange(kernel, Knob::OverlapCopies))
    return failure;
  if (std::optional<KnobFailure> failure =
          checkKnobRange(kernel, Knob::StageBarriers))
    return failure;
  if (std::optional<KnobFailure> failure = checkMmaOverlap(kernel))
    return failure;
  if (std::optional<KnobFailure> failure = checkPingPong(kernel))
    return failure;
  if (std::optional<KnobFailure> failure = checkPipelining(kernel))
    return failure;
  if (std::optional<KnobFailure> failure = checkTensorCoreMmas(kernel))
    return failure;
  if (std::optional<KnobFailure> failure = checkOperandCopies(kernel))
    return failure;
  if (std::optional<KnobFailure> failure = checkWarpSpecialization(kernel))
    return failure;
  if (std::optional<KnobFailure> failure = checkTmaStores(kernel))
    return failure;
  if (std::optional<KnobFailure> failure = checkPersistent(kernel))
    return failure;
  if (std::optional<KnobFailure> failure = checkSinglePass(kernel))
    return failure;
  if (std::optional<KnobFailure> failure = checkSplitReduction(kernel))
    return failure;
  if (std::optional<KnobFailure> failure = checkRowsPerCta(kernel))
    return failure;
  return checkBudgets(kernel);
}
