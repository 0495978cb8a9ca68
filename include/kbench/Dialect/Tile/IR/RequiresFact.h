//===- RequiresFact.h - One `requires` fact of a kernel ---------*- C++ -*-===//
//
// A fact of a tile.kernel's `requires` list as the `#tile.requires`
// attribute holds it: parsed once, when the attribute is created, so that
// the verifier, the kernel model, the lowering and the bundle writer read
// the parse instead of parsing the text again.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DIALECT_TILE_IR_REQUIRESFACT_H
#define KBENCH_DIALECT_TILE_IR_REQUIRESFACT_H

#include "kbench/Support/ShapeExpr.h"

#include <optional>
#include <string>

namespace kbench::tile {

/// One `requires` fact of a kernel: its text and its parse, or the parse
/// error (the kernel verifier rejects such a kernel).
struct RequiresFact {
  std::string text;
  std::optional<ShapeFact> fact;
  std::string error;
};

namespace detail {
/// The storage of #tile.requires (lib/Dialect/Tile/IR/RequiresAttrStorage.h).
struct RequiresAttrStorage;
} // namespace detail

} // namespace kbench::tile

#endif // KBENCH_DIALECT_TILE_IR_REQUIRESFACT_H
