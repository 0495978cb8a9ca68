//===- PersistentRules.h - Which kernels may run persistent CTAs -*- C++
//-*-===//
//
// Shared by transform.tile.persistent (which marks the kernel) and
// tile-to-gpu (which wraps the kernel body in the loop over tiles), so that
// both apply one rule. A persistent CTA runs everything from the kernel's
// tile.grid to its end once per tile it takes (docs/gpu-lowering.md,
// "Persistent CTAs").
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_CONVERSION_TILETOGPU_PERSISTENTRULES_H
#define KBENCH_CONVERSION_TILETOGPU_PERSISTENTRULES_H

#include "kbench/Dialect/Tile/IR/Tile.h"

#include <optional>
#include <string>

namespace kbench::gpu_lowering {

/// Why `kernel` cannot run persistent CTAs, or nullopt: its tile.grid must
/// lie at the top level of the kernel body (the loop over tiles starts
/// there) and it must not be warp-specialized (the producer warpgroup exits
/// after the first tile's K loop). The text names what and the fix.
std::optional<std::string> whyNotPersistent(tile::KernelOp kernel);

} // namespace kbench::gpu_lowering

#endif // KBENCH_CONVERSION_TILETOGPU_PERSISTENTRULES_H
