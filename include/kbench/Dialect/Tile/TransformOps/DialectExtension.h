//===- DialectExtension.h - Register the transform.tile ops -----*- C++ -*-===//
//
// Light header (no generated code) for tools and kbench/InitAll: registering
// the extension needs no op definitions, as with upstream's
// mlir/Dialect/*/TransformOps/DialectExtension.h.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DIALECT_TILE_TRANSFORMOPS_DIALECTEXTENSION_H
#define KBENCH_DIALECT_TILE_TRANSFORMOPS_DIALECTEXTENSION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace kbench::transform {

/// Adds the transform.tile.* ops to the transform dialect in `registry`.
void registerTileTransformExtension(mlir::DialectRegistry &registry);

} // namespace kbench::transform

#endif // KBENCH_DIALECT_TILE_TRANSFORMOPS_DIALECTEXTENSION_H
