//===- PadLattice.h - Abstract values of padded lanes ------------*- C++ -*-===//
//
// Private to lib/Analysis: the value domain of C10 (PadCheck.cpp). A Lane is
// the set of value classes (zero, -inf, +inf, nan, finite) a tile lane may
// hold; arithmetic on sets applies the IEEE rules to every combination.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_ANALYSIS_PADLATTICE_H
#define KBENCH_LIB_ANALYSIS_PADLATTICE_H

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "llvm/ADT/APFloat.h"

#include <cstdint>
#include <string>

namespace kbench::detail {

/// The set of value classes a lane may hold. Sets, not a chain: the running
/// max of an online softmax is -inf before the first tile and finite after,
/// and max(-inf or finite, finite) is still finite.
struct Lane {
  uint8_t bits = 0;
  static const Lane Zero, NegInf, PosInf, NaN, Finite, Any;
  bool operator==(Lane o) const { return bits == o.bits; }
  bool operator!=(Lane o) const { return bits != o.bits; }
  Lane operator|(Lane o) const { return {uint8_t(bits | o.bits)}; }
};

/// "zero", "-inf or finite values", "unknown values".
std::string laneName(Lane lane);
/// The lanes a pad kind fills.
Lane padLane(tile::PadKind pad);
/// The class of a float constant.
Lane constantLane(const llvm::APFloat &value);
Lane join(Lane a, Lane b);
Lane neg(Lane a);
Lane add(Lane a, Lane b);
Lane mul(Lane a, Lane b);
Lane div(Lane a, Lane b);
Lane max(Lane a, Lane b, bool propagateNaN);
Lane min(Lane a, Lane b, bool propagateNaN);
/// The value of an elementwise `op` on lanes whose operands hold `in`
/// (unknown for ops it does not know).
Lane evaluate(mlir::Operation *op, llvm::ArrayRef<Lane> in);
/// Whether `value` on the lanes of operand `index` makes `op` return the other
/// operand (the pad is the op's identity).
bool isIdentity(mlir::Operation *op, unsigned index, Lane value);

} // namespace kbench::detail

#endif // KBENCH_LIB_ANALYSIS_PADLATTICE_H
