//===- TileMutate.cpp - The tile-mutate pass ------------------------------===//
#include "kbench/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
namespace kbench {
#define GEN_PASS_DEF_TILEMUTATE
#include "kbench/Transforms/Passes.h.inc"
} // namespace kbench
namespace {
struct TileMutatePass : kbench::impl::TileMutateBase<TileMutatePass> {
  using TileMutateBase::TileMutateBase;
  void runOnOperation() override {}
};
} // namespace
