//===- KernelConfig.h - Kernel knobs and the sm_90a limits ------*- C++ -*-===//
//
// The one owner of every knob a schedule sets and every limit of the target
// those knobs are checked against. The transform ops' legality rules, the
// tile-to-gpu lowering, the bundle writer and the runner all read this table,
// so a limit is stated once and they cannot disagree; the knob table in
// docs/schedules.md is generated from it (kbench-knob-table).
//
// Plain C++17: the runner links this library without LLVM or MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SUPPORT_KERNELCONFIG_H
#define KBENCH_SUPPORT_KERNELCONFIG_H

#include "kbench/Support/ShapeExpr.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kbench {

/// Limits of one target: what the hardware allows and what the SIMT lowering
/// can keep per thread. Values come from the CUDA programming guide's table
/// of compute capability 9.0 and from the lowering's own design.
struct TargetLimits {
  const char *target;
  int64_t warpSize;
  int64_t maxThreadsPerBlock;
  /// Warps of one warpgroup (what wgmma issues over).
  int64_t warpgroupWarps;
  /// Shared memory one CTA may use (opt-in maximum) and the most it may
  /// declare statically; beyond that the launch requests dynamic memory.
  int64_t sharedMemoryPerBlock;
  int64_t staticSharedMemoryPerBlock;
  /// Widest global access one thread makes (ld.global.v4.b32).
  int64_t maxAccessBytes;
  /// 32-bit accumulator registers per thread before ptxas would spill.
  int64_t accumulatorRegisterLimit;
  /// 32-bit registers per thread that the tiles a single-pass fast path keeps
  /// live across its passes may take (transform.tile.single_pass). Half the
  /// accumulator limit: the passes need registers of their own, and on sm_90a
  /// every row_sum candidate with 128 f32 elements per thread spilled in
  /// ptxas while none with 64 did (docs/search.md).
  int64_t heldTileRegisterLimit;
  /// Elements one thread may own for one tile value in the SIMT lowering.
  int64_t maxElementsPerThread;
  /// Grid extents: x, and y or z.
  int64_t maxGridX;
  int64_t maxGridYZ;
  /// Largest tile size or knob value; keeps every estimate far from int64
  /// overflow.
  int64_t maxKnobValue;
  /// Tensor maps (TMA, cuTensorMapEncodeTiled): at most this many axes and
  /// this many elements per box axis; TMA moves data in units of
  /// tensorMapUnitBytes, so the global address, the global strides and the
  /// box's innermost extent must be multiples of it.
  int64_t maxTensorMapRank;
  int64_t maxTensorMapBoxExtent;
  int64_t tensorMapUnitBytes;
  /// What one SM holds at once (residentCtasPerSm), and the SMs of the
  /// GPU a persistent kernel sizes its launch for (the H100 SXM and the
  /// H200 both have 132; a GPU with fewer runs the same launch in a few
  /// more rounds). Registers are allocated per warp in units of
  /// registerAllocationUnit; each CTA's shared memory carries
  /// sharedMemoryReservedPerBlock bytes of the system's.
  int64_t multiprocessors;
  int64_t registersPerSm;
  int64_t registerAllocationUnit;
  int64_t sharedMemoryPerSm;
  int64_t sharedMemoryReservedPerBlock;
  int64_t maxThreadsPerSm;
  int64_t maxBlocksPerSm;
};

/// The H200's target, the only one the GPU lowering emits.
inline constexpr TargetLimits kSm90aLimits = {
    /*target=*/"sm_90a",
    /*warpSize=*/32,
    /*maxThreadsPerBlock=*/1024,
    /*warpgroupWarps=*/4,
    /*sharedMemoryPerBlock=*/232448,
    /*staticSharedMemoryPerBlock=*/49152,
    /*maxAccessBytes=*/16,
    /*accumulatorRegisterLimit=*/128,
    /*heldTileRegisterLimit=*/64,
    /*maxElementsPerThread=*/1024,
    /*maxGridX=*/2147483647,
    /*maxGridYZ=*/65535,
    /*maxKnobValue=*/65536,
    /*maxTensorMapRank=*/5,
    /*maxTensorMapBoxExtent=*/256,
    /*tensorMapUnitBytes=*/16,
    /*multiprocessors=*/132,
    /*registersPerSm=*/65536,
    /*registerAllocationUnit=*/256,
    /*sharedMemoryPerSm=*/233472,
    /*sharedMemoryReservedPerBlock=*/1024,
    /*maxThreadsPerSm=*/2048,
    /*maxBlocksPerSm=*/32,
};

/// CTAs of `threads` threads, each using `registers` registers, with
/// `sharedBytes` of shared memory (static and dynamic) that one SM of
/// `limits` holds at once: the least of what its threads, registers
/// (rounded up per warp), shared memory and block slots allow; at least 1.
int64_t residentCtasPerSm(const TargetLimits &limits, int64_t threads,
                          int64_t registers, int64_t sharedBytes);

/// The knobs a schedule sets, each stored as a param of the tile.kernel,
/// except PipelineStages, an attribute of the K loop it concerns.
enum class Knob {
  NumWarps,
  VectorWidth,
  GroupM,
  MinCtasPerSm,
  ScalarUnalignedRows,
  CacheHints,
  FastMath,
  MmaOverlap,
  OverlapCopies,
  StageBarriers,
  PingPong,
  PipelineStages,
  TileSize
};

/// One row of the knob table.
struct KnobSpec {
  Knob knob;
  /// The kernel param that stores it ("" for tile sizes, which have names of
  /// their own: BM, BN, ...), or for a per-loop knob the loop's attribute.
  const char *param;
  /// The transform op that sets it.
  const char *op;
  /// Value when the kernel does not set it (below `min`: none, the knob is
  /// required).
  int64_t defaultValue;
  int64_t min;
  int64_t max;
  /// Only powers of two in [min, max] are legal.
  bool powerOfTwo;
  /// What it means, one line.
  const char *meaning;
  /// Why the range is what it is; ends every range message.
  const char *why;
};

/// The knob table, in documentation order.
const std::vector<KnobSpec> &getKnobTable();
const KnobSpec &getKnobSpec(Knob knob);
/// The knob stored as param `name`, or null for a tile-size param.
const KnobSpec *lookupKnob(const std::string &name);

/// Checks `value` against the knob's range. Returns nullopt when legal, else
/// a one-line message naming the knob, the value, the legal values and why:
/// "num_warps = 12 is not a power of two from 1 to 32 (...)". Tile sizes are
/// named `name` in the message.
std::optional<std::string> checkKnobValue(Knob knob, int64_t value,
                                          const std::string &name = "");

/// The legal values of a power-of-two knob that are multiples of `multiple`,
/// in words: "4, 8, 16 or 32".
std::string describeLegalValues(Knob knob, int64_t multiple = 1);

/// The widest vector_width whose accesses of `elementBytes`-byte elements fit
/// the target's widest access.
int64_t maxVectorWidth(int64_t elementBytes);

/// Threads per CTA of a kernel with `numWarps` warps.
int64_t getBlockSize(int64_t numWarps);

/// A kernel's knobs, typed: the knob params with the table's defaults for the
/// absent ones, and every other integer param as a tile size.
struct KernelConfig {
  int64_t numWarps = 0;
  int64_t vectorWidth = 0;
  int64_t groupM = 0;
  int64_t minCtasPerSm = 0;
  int64_t scalarUnalignedRows = 0;
  int64_t cacheHints = 0;
  int64_t fastMath = 0;
  int64_t mmaOverlap = 0;
  int64_t overlapCopies = 0;
  int64_t stageBarriers = 0;
  int64_t pingPong = 0;
  SymbolValues tileSizes;

  /// Reads a kernel's `params {...}` (name -> value).
  static KernelConfig fromParams(const SymbolValues &params);

  int64_t getBlockSize() const { return kbench::getBlockSize(numWarps); }

  /// Checks every knob and tile size against the table; the first failure's
  /// message, or nullopt.
  std::optional<std::string> verify() const;
  /// Why ping_pong = 1 cannot apply to this config (it needs the stage
  /// barriers and exactly two warpgroups), or nullopt.
  std::optional<std::string> whyNotPingPong() const;
};

/// The knob table and the limits as Markdown (docs/schedules.md embeds it
/// between the markers below), or as JSON.
std::string renderKnobTableMarkdown();
std::string renderKnobTableJson();
inline constexpr const char *kKnobTableBegin =
    "<!-- BEGIN knob table: generated by kbench-knob-table; do not edit -->";
inline constexpr const char *kKnobTableEnd = "<!-- END knob table -->";

} // namespace kbench

#endif // KBENCH_SUPPORT_KERNELCONFIG_H
