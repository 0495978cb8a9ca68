//===- TileTransformOps.h - transform.tile.* knob ops -----------*- C++ -*-===//
//
// The transform dialect extension that edits tile kernels' knobs
// (TileTransformOps.td). Tools register it through kbench/InitAll.h
// (DialectExtension.h); run schedules with kbench/Dialect/Tile/TransformOps/
// Schedule.h or `--transform-interpreter`.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DIALECT_TILE_TRANSFORMOPS_TILETRANSFORMOPS_H
#define KBENCH_DIALECT_TILE_TRANSFORMOPS_TILETRANSFORMOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpImplementation.h"

#include "kbench/Dialect/Tile/IR/Tile.h"
#include "kbench/Dialect/Tile/TransformOps/DialectExtension.h"

#define GET_OP_CLASSES
#include "kbench/Dialect/Tile/TransformOps/TileTransformOps.h.inc"

#endif // KBENCH_DIALECT_TILE_TRANSFORMOPS_TILETRANSFORMOPS_H
