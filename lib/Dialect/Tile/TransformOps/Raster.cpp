//===- Raster.cpp - Grouped block order of a 2-D grid ---------------------===//
//
// The remap and its exhaustive bijectivity check (see Raster.h). The check is
// what `transform.tile.raster` runs before storing `group_m`; docs/schedules.md
// gives the argument that it holds for every grid, not just the checked ones.
//
//===----------------------------------------------------------------------===//

#include "kbench/Dialect/Tile/TransformOps/Raster.h"

#include <algorithm>
#include <vector>

std::pair<int64_t, int64_t> kbench::tile::groupedBlockRemap(int64_t pid,
                                                            int64_t gridM,
                                                            int64_t gridN,
                                                            int64_t groupM) {
  int64_t blocksPerGroup = groupM * gridN;
  int64_t firstM = (pid / blocksPerGroup) * groupM;
  int64_t rowsInGroup = std::min(gridM - firstM, groupM);
  int64_t inGroup = pid % blocksPerGroup;
  return {firstM + inGroup % rowsInGroup, inGroup / rowsInGroup};
}

bool kbench::tile::isBlockRemapBijective(BlockRemap remap, int64_t groupM,
                                         int64_t maxGrid, int64_t &badGridM,
                                         int64_t &badGridN, int64_t &badPid) {
  std::vector<bool> seen;
  for (int64_t gridM = 1; gridM <= maxGrid; ++gridM) {
    for (int64_t gridN = 1; gridN <= maxGrid; ++gridN) {
      seen.assign(gridM * gridN, false);
      for (int64_t pid = 0; pid < gridM * gridN; ++pid) {
        auto [m, n] = remap(pid, gridM, gridN, groupM);
        bool inRange = m >= 0 && m < gridM && n >= 0 && n < gridN;
        // A map between finite sets of equal size is a bijection iff it is
        // injective, so checking for collisions is enough.
        if (!inRange || seen[m * gridN + n]) {
          badGridM = gridM;
          badGridN = gridN;
          badPid = pid;
          return false;
        }
        seen[m * gridN + n] = true;
      }
    }
  }
  return true;
}
