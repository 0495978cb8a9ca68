//===- KernelConfig.cpp - Kernel knobs and the sm_90a limits --------------===//
//
// The knob table, its range checks and its rendering for docs/schedules.md.
// No LLVM: the runner links this file too.
//
//===----------------------------------------------------------------------===//

#include "kbench/Support/KernelConfig.h"

#include <algorithm>
#include <sstream>
#include <tuple>

namespace kbench {

const std::vector<KnobSpec> &getKnobTable() {
  static const std::vector<KnobSpec> table = {
      {Knob::NumWarps, "num_warps", "transform.tile.set_num_warps",
       /*defaultValue=*/4, /*min=*/1,
       /*max=*/kSm90aLimits.maxThreadsPerBlock / kSm90aLimits.warpSize,
       /*powerOfTwo=*/true, "warps per CTA; the CTA has 32 x num_warps threads",
       "the SIMT lowering splits tiles over warps in powers of two, and a CTA "
       "has at most 1024 threads"},
      {Knob::VectorWidth, "vector_width", "transform.tile.vector_width",
       /*defaultValue=*/1, /*min=*/1, /*max=*/kSm90aLimits.maxAccessBytes,
       /*powerOfTwo=*/true,
       "contiguous elements one thread loads or stores at once",
       "one access moves at most 16 bytes, so also vector_width x element "
       "bytes <= 16"},
      {Knob::GroupM, "group_m", "transform.tile.raster", /*defaultValue=*/1,
       /*min=*/1, /*max=*/kSm90aLimits.maxKnobValue, /*powerOfTwo=*/false,
       "rows of blocks per group of the grouped (L2-friendly) block order; 1 "
       "is row-major",
       "a group holds at least one row of blocks"},
      {Knob::MinCtasPerSm, "min_ctas_per_sm", "transform.tile.min_ctas_per_sm",
       /*defaultValue=*/1, /*min=*/1, /*max=*/kSm90aLimits.maxBlocksPerSm,
       /*powerOfTwo=*/false,
       "CTAs one SM must hold at once (PTX .minnctapersm): ptxas keeps the "
       "registers per thread within 65536 / (min_ctas_per_sm x threads); 1 "
       "leaves them to ptxas",
       "an SM holds at most 32 CTAs and 2048 threads, so also "
       "min_ctas_per_sm x 32 x num_warps <= 2048"},
      {Knob::ScalarUnalignedRows, "scalar_unaligned_rows",
       "transform.tile.scalar_unaligned_rows", /*defaultValue=*/0, /*min=*/0,
       /*max=*/1, /*powerOfTwo=*/false,
       "1: where rows turn out not aligned for vector_width at run time, "
       "interior tiles load and store plain scalars and boundary tiles test "
       "each run once; 0 masks every element of such tiles",
       "it is a switch"},
      {Knob::CacheHints, "cache_hints", "transform.tile.cache_hints",
       /*defaultValue=*/0, /*min=*/0, /*max=*/1, /*powerOfTwo=*/false,
       "1: interior global loads of a tensor a later pass reads again keep "
       "their lines in L2 (evict_last) and the last pass's loads of it let "
       "them go first (evict_first); 0 gives no hints",
       "it is a switch"},
      {Knob::FastMath, "fast_math", "transform.tile.fast_math",
       /*defaultValue=*/0, /*min=*/0, /*max=*/1, /*powerOfTwo=*/false,
       "1: f32 multiplies and adds may fuse into fma, and f32 math.exp2 is "
       "one ex2.approx.ftz (results below 2^-126 flush to 0); 0 rounds every "
       "operation on its own and keeps denormal results",
       "it is a switch"},
      {Knob::MmaOverlap, "mma_overlap", "transform.tile.mma_overlap",
       /*defaultValue=*/0, /*min=*/0, /*max=*/1, /*powerOfTwo=*/false,
       "1: a loop of two tile.mma (attention's scores and output) issues the "
       "next step's first mma before the second mma of the step before, so "
       "the softmax between them runs while the tensor cores work; 0 runs "
       "each step in program order",
       "it is a switch"},
      {Knob::OverlapCopies, "overlap_copies", "transform.tile.overlap_copies",
       /*defaultValue=*/0, /*min=*/0, /*max=*/1, /*powerOfTwo=*/false,
       "1: a loop's operand prefetch on wgmma issues the next stage's copies "
       "while the body's first wgmma group runs (after its commit, before "
       "its wait); 0 issues them at the loop head, before that group",
       "it is a switch"},
      {Knob::StageBarriers, "stage_barriers", "transform.tile.stage_barriers",
       /*defaultValue=*/0, /*min=*/0, /*max=*/1, /*powerOfTwo=*/false,
       "1: a loop's operand prefetch paces its stages with two mbarriers "
       "each (copies landed, stage read) instead of a CTA barrier per step, "
       "so warps wait only for the data they read; 0 uses the CTA barrier",
       "it is a switch"},
      {Knob::PingPong, "ping_pong", "transform.tile.ping_pong",
       /*defaultValue=*/0, /*min=*/0, /*max=*/1, /*powerOfTwo=*/false,
       "1: the two warpgroups of a loop paced by stage_barriers take turns "
       "to issue the body's first wgmma group (named barriers), so one's "
       "softmax runs while the other's group does; 0 lets them issue freely",
       "it is a switch"},
      {Knob::PipelineStages, "tile.pipeline_stages", "transform.tile.pipeline",
       /*defaultValue=*/2, /*min=*/1, /*max=*/4, /*powerOfTwo=*/false,
       "software-pipeline depth of a K loop (an attribute of its scf.for, "
       "not a param): 1 is off, 2 double-buffers the mma operands, 3 and 4 "
       "are cp.async stages of an mma_sync or wgmma loop; the default 2 "
       "applies only "
       "to SIMT loops tile-to-gpu can pipeline",
       "a tensor-core (mma_sync, wgmma) K loop runs at most 4 cp.async stages "
       "and a SIMT K loop double-buffers with synchronous loads"},
      {Knob::TileSize, "", "transform.tile.set_params", /*defaultValue=*/0,
       /*min=*/1, /*max=*/kSm90aLimits.maxKnobValue, /*powerOfTwo=*/false,
       "a tile size declared in the kernel's params (BM, BN, BK, ...)",
       "tile sizes are positive"},
  };
  return table;
}

const KnobSpec &getKnobSpec(Knob knob) {
  for (const KnobSpec &spec : getKnobTable())
    if (spec.knob == knob)
      return spec;
  return getKnobTable().back(); // Unreachable: every Knob has a row.
}

const KnobSpec *lookupKnob(const std::string &name) {
  for (const KnobSpec &spec : getKnobTable())
    if (*spec.param && name == spec.param)
      return &spec;
  return nullptr;
}

static bool isPowerOfTwo(int64_t value) {
  return value > 0 && (value & (value - 1)) == 0;
}

std::string describeLegalValues(Knob knob, int64_t multiple) {
  const KnobSpec &spec = getKnobSpec(knob);
  if (!spec.powerOfTwo)
    return std::to_string(spec.min) + ".." + std::to_string(spec.max);
  std::vector<int64_t> values;
  for (int64_t v = 1; v <= spec.max; v *= 2)
    if (v >= spec.min && v % multiple == 0)
      values.push_back(v);
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0)
      text += i + 1 == values.size() ? " or " : ", ";
    text += std::to_string(values[i]);
  }
  return text;
}

std::optional<std::string> checkKnobValue(Knob knob, int64_t value,
                                          const std::string &name) {
  const KnobSpec &spec = getKnobSpec(knob);
  std::string prefix =
      (name.empty() ? std::string(spec.param) : name) + " = " +
      std::to_string(value);
  if (spec.powerOfTwo) {
    if (isPowerOfTwo(value) && value >= spec.min && value <= spec.max)
      return std::nullopt;
    return prefix + " is not a power of two from " + std::to_string(spec.min) +
           " to " + std::to_string(spec.max) + " (" + spec.why + ")";
  }
  if (value >= spec.min && value <= spec.max)
    return std::nullopt;
  return prefix + " is outside " + std::to_string(spec.min) + ".." +
         std::to_string(spec.max) + "; " + spec.why;
}

int64_t residentCtasPerSm(const TargetLimits &limits, int64_t threads,
                          int64_t registers, int64_t sharedBytes) {
  auto roundUp = [](int64_t v, int64_t unit) {
    return (v + unit - 1) / unit * unit;
  };
  threads = std::max<int64_t>(threads, 1);
  int64_t warps = (threads + limits.warpSize - 1) / limits.warpSize;
  int64_t ctas = std::min(limits.maxBlocksPerSm,
                          limits.maxThreadsPerSm / (warps * limits.warpSize));
  int64_t warpRegisters =
      roundUp(std::max<int64_t>(registers, 1) * limits.warpSize,
              limits.registerAllocationUnit);
  ctas = std::min(ctas, limits.registersPerSm / (warps * warpRegisters));
  ctas =
      std::min(ctas, limits.sharedMemoryPerSm /
                         (sharedBytes + limits.sharedMemoryReservedPerBlock));
  return std::max<int64_t>(ctas, 1);
}

int64_t maxVectorWidth(int64_t elementBytes) {
  int64_t width = getKnobSpec(Knob::VectorWidth).max;
  while (width > 1 && width * elementBytes > kSm90aLimits.maxAccessBytes)
    width /= 2;
  return width;
}

int64_t getBlockSize(int64_t numWarps) {
  return kSm90aLimits.warpSize * numWarps;
}

KernelConfig KernelConfig::fromParams(const SymbolValues &params) {
  KernelConfig config;
  config.numWarps = getKnobSpec(Knob::NumWarps).defaultValue;
  config.vectorWidth = getKnobSpec(Knob::VectorWidth).defaultValue;
  config.groupM = getKnobSpec(Knob::GroupM).defaultValue;
  config.minCtasPerSm = getKnobSpec(Knob::MinCtasPerSm).defaultValue;
  config.scalarUnalignedRows =
      getKnobSpec(Knob::ScalarUnalignedRows).defaultValue;
  config.cacheHints = getKnobSpec(Knob::CacheHints).defaultValue;
  config.fastMath = getKnobSpec(Knob::FastMath).defaultValue;
  config.mmaOverlap = getKnobSpec(Knob::MmaOverlap).defaultValue;
  config.overlapCopies = getKnobSpec(Knob::OverlapCopies).defaultValue;
  config.stageBarriers = getKnobSpec(Knob::StageBarriers).defaultValue;
  config.pingPong = getKnobSpec(Knob::PingPong).defaultValue;
  for (const auto &[name, value] : params) {
    const KnobSpec *spec = lookupKnob(name);
    if (!spec)
      config.tileSizes[name] = value;
    else if (spec->knob == Knob::NumWarps)
      config.numWarps = value;
    else if (spec->knob == Knob::VectorWidth)
      config.vectorWidth = value;
    else if (spec->knob == Knob::GroupM)
      config.groupM = value;
    else if (spec->knob == Knob::MinCtasPerSm)
      config.minCtasPerSm = value;
    else if (spec->knob == Knob::ScalarUnalignedRows)
      config.scalarUnalignedRows = value;
    else if (spec->knob == Knob::CacheHints)
      config.cacheHints = value;
    else if (spec->knob == Knob::FastMath)
      config.fastMath = value;
    else if (spec->knob == Knob::MmaOverlap)
      config.mmaOverlap = value;
    else if (spec->knob == Knob::OverlapCopies)
      config.overlapCopies = value;
    else if (spec->knob == Knob::StageBarriers)
      config.stageBarriers = value;
    else if (spec->knob == Knob::PingPong)
      config.pingPong = value;
  }
  return config;
}

std::optional<std::string> KernelConfig::whyNotPingPong() const {
  if (pingPong == 0)
    return std::nullopt;
  // The CTA barrier at every step would keep the warpgroups in step.
  if (stageBarriers == 0)
    return std::string("ping_pong = 1 needs stage_barriers = 1 (set it "
                       "first): with a CTA barrier at every step the "
                       "warpgroups cannot take turns");
  if (numWarps != 8)
    return "ping_pong = 1 needs exactly two warpgroups (num_warps = 8), not "
           "num_warps = " +
           std::to_string(numWarps);
  return std::nullopt;
}

std::optional<std::string> KernelConfig::verify() const {
  if (auto failure = checkKnobValue(Knob::NumWarps, numWarps))
    return failure;
  if (auto failure = checkKnobValue(Knob::VectorWidth, vectorWidth))
    return failure;
  if (auto failure = checkKnobValue(Knob::GroupM, groupM))
    return failure;
  if (auto failure = checkKnobValue(Knob::MinCtasPerSm, minCtasPerSm))
    return failure;
  if (auto failure =
          checkKnobValue(Knob::ScalarUnalignedRows, scalarUnalignedRows))
    return failure;
  if (auto failure = checkKnobValue(Knob::CacheHints, cacheHints))
    return failure;
  if (auto failure = checkKnobValue(Knob::FastMath, fastMath))
    return failure;
  if (auto failure = checkKnobValue(Knob::MmaOverlap, mmaOverlap))
    return failure;
  if (auto failure = checkKnobValue(Knob::OverlapCopies, overlapCopies))
    return failure;
  if (auto failure = checkKnobValue(Knob::StageBarriers, stageBarriers))
    return failure;
  if (auto failure = checkKnobValue(Knob::PingPong, pingPong))
    return failure;
  if (auto failure = whyNotPingPong())
    return failure;
  for (const auto &[name, value] : tileSizes)
    if (auto failure = checkKnobValue(Knob::TileSize, value, name))
      return failure;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Rendering
//===----------------------------------------------------------------------===//

static std::string range(const KnobSpec &spec) {
  if (spec.powerOfTwo)
    return "power of two, " + std::to_string(spec.min) + ".." +
           std::to_string(spec.max);
  return std::to_string(spec.min) + ".." + std::to_string(spec.max);
}

/// The limits in documentation order: name, value, meaning.
static std::vector<std::tuple<const char *, int64_t, const char *>> limits() {
  const TargetLimits &l = kSm90aLimits;
  return {
      {"threads per CTA", l.maxThreadsPerBlock, "num_warps x 32 at most"},
      {"warps per warpgroup", l.warpgroupWarps,
       "tile.mma with impl = wgmma needs num_warps a multiple of it"},
      {"shared memory per CTA (bytes)", l.sharedMemoryPerBlock,
       "227 KB: the lowering refuses more; the mma staging estimate of "
       "set_params too"},
      {"static shared memory (bytes)", l.staticSharedMemoryPerBlock,
       "above it the lowering uses dynamic shared memory and the runner "
       "opts the kernel in to more before launching"},
      {"bytes per access", l.maxAccessBytes, "vector_width x element bytes"},
      {"accumulator registers per thread", l.accumulatorRegisterLimit,
       "the tile.mma accumulator estimate of set_params / set_num_warps"},
      {"held-tile registers per thread", l.heldTileRegisterLimit,
       "tiles a tile.single_pass fast path keeps live across its passes"},
      {"elements per thread per tile value", l.maxElementsPerThread,
       "the SIMT lowering refuses larger tiles"},
      {"grid x", l.maxGridX, "blocks; the runner refuses larger grids"},
      {"grid y, z", l.maxGridYZ, "blocks; the runner refuses larger grids"},
  };
}

std::string renderKnobTableMarkdown() {
  std::ostringstream os;
  os << kKnobTableBegin << "\n\n";
  os << "| knob (param) | set by | default | legal values | meaning |\n";
  os << "|---|---|---|---|---|\n";
  for (const KnobSpec &spec : getKnobTable())
    os << "| "
       << (*spec.param ? "`" + std::string(spec.param) + "`"
                       : std::string("tile sizes"))
       << " | `" << spec.op << "` | "
       << (spec.defaultValue >= spec.min ? std::to_string(spec.defaultValue)
                                         : std::string("required"))
       << " | " << range(spec) << " | " << spec.meaning << " |\n";
  os << "\nLimits of " << kSm90aLimits.target << " the knobs are checked "
     << "against:\n\n";
  os << "| limit | value | used for |\n";
  os << "|---|---|---|\n";
  for (const auto &[name, value, use] : limits())
    os << "| " << name << " | " << value << " | " << use << " |\n";
  os << "\n" << kKnobTableEnd << "\n";
  return os.str();
}

std::string renderKnobTableJson() {
  std::ostringstream os;
  os << "{\n  \"target\": \"" << kSm90aLimits.target << "\",\n  \"knobs\": [";
  const std::vector<KnobSpec> &table = getKnobTable();
  for (size_t i = 0; i < table.size(); ++i) {
    const KnobSpec &spec = table[i];
    os << (i ? ",\n" : "\n") << "    {\"param\": \"" << spec.param
       << "\", \"op\": \"" << spec.op << "\", \"default\": "
       << spec.defaultValue << ", \"min\": " << spec.min
       << ", \"max\": " << spec.max << ", \"power_of_two\": "
       << (spec.powerOfTwo ? "true" : "false") << "}";
  }
  os << "\n  ],\n  \"limits\": {";
  std::vector<std::tuple<const char *, int64_t, const char *>> rows = limits();
  for (size_t i = 0; i < rows.size(); ++i)
    os << (i ? ",\n" : "\n") << "    \"" << std::get<0>(rows[i])
       << "\": " << std::get<1>(rows[i]);
  os << "\n  }\n}\n";
  return os.str();
}

} // namespace kbench
