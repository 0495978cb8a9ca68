//===- Raster.h - Grouped block order of a 2-D grid -------------*- C++ -*-===//
//
// The block remap that `transform.tile.raster %k group_m G` asks for, stated
// once so that the transform op's bijectivity proof, the lowerings and their
// tests all use the same formula. Plain C++17 (no MLIR).
//
// A launched 2-D grid of gridM x gridN blocks numbers its blocks row-major,
// pid = m * gridN + n. The grouped order walks `G` rows of blocks column by
// column before moving to the next G rows (Triton's "grouped ordering"), so
// consecutive blocks share the same few A-row and B-column tiles in L2.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DIALECT_TILE_TRANSFORMOPS_RASTER_H
#define KBENCH_DIALECT_TILE_TRANSFORMOPS_RASTER_H

#include <cstdint>
#include <utility>

namespace kbench::tile {

/// Maps the linear block id `pid` in [0, gridM * gridN) to the (m, n) tile
/// coordinates it computes under grouped order with `groupM` rows per group:
///
///   blocksPerGroup = groupM * gridN
///   firstM         = (pid / blocksPerGroup) * groupM
///   rowsInGroup    = min(gridM - firstM, groupM)
///   m              = firstM + (pid % blocksPerGroup) % rowsInGroup
///   n              = (pid % blocksPerGroup) / rowsInGroup
///
/// All arguments must be positive and pid in range.
std::pair<int64_t, int64_t> groupedBlockRemap(int64_t pid, int64_t gridM,
                                              int64_t gridN, int64_t groupM);

/// A remap of linear block ids to tile coordinates, parameterized like
/// groupedBlockRemap.
using BlockRemap = std::pair<int64_t, int64_t> (*)(int64_t pid, int64_t gridM,
                                                   int64_t gridN,
                                                   int64_t groupM);

/// Checks that `remap` with `groupM` is a bijection from [0, gridM * gridN)
/// onto [0, gridM) x [0, gridN) for every grid of at most maxGrid x maxGrid
/// blocks. On failure returns false and sets the first grid and the pid that
/// collides with an earlier one or leaves the grid.
bool isBlockRemapBijective(BlockRemap remap, int64_t groupM, int64_t maxGrid,
                           int64_t &badGridM, int64_t &badGridN,
                           int64_t &badPid);

} // namespace kbench::tile

#endif // KBENCH_DIALECT_TILE_TRANSFORMOPS_RASTER_H
