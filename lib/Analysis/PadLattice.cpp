//===- PadLattice.cpp - Abstract values of padded lanes ------------------===//
//
// IEEE arithmetic on sets of value classes, for C10.
//
//===----------------------------------------------------------------------===//

#include "PadLattice.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kbench::tile;

namespace kbench::detail {

const Lane Lane::Zero{1}, Lane::NegInf{2}, Lane::PosInf{4}, Lane::NaN{8},
    Lane::Finite{16}, Lane::Any{31};

static constexpr Lane kClasses[] = {{1}, {2}, {4}, {8}, {16}};

std::string laneName(Lane lane) {
  if (lane == Lane::Any)
    return "unknown values";
  static const char *names[] = {"zero", "-inf", "+inf", "nan", "finite values"};
  std::string text;
  for (unsigned i = 0; i < 5; ++i)
    if (lane.bits & kClasses[i].bits)
      text += (text.empty() ? "" : " or ") + std::string(names[i]);
  return text.empty() ? "nothing" : text;
}

Lane padLane(PadKind pad) {
  switch (pad) {
  case PadKind::zero:
    return Lane::Zero;
  case PadKind::neg_inf:
    return Lane::NegInf;
  case PadKind::pos_inf:
    return Lane::PosInf;
  case PadKind::nan:
    return Lane::NaN;
  case PadKind::none:
    break;
  }
  return Lane::Any;
}

Lane join(Lane a, Lane b) { return a | b; }

/// Applies a function of single classes to every combination of classes.
template <typename Fn>
static Lane lift(Lane a, Fn fn) {
  Lane result;
  for (Lane c : kClasses)
    if (a.bits & c.bits)
      result = result | fn(c);
  return result;
}
template <typename Fn>
static Lane lift(Lane a, Lane b, Fn fn) {
  return lift(a, [&](Lane x) { return lift(b, [&](Lane y) { return fn(x, y); }); });
}

static bool isInf(Lane a) { return a == Lane::NegInf || a == Lane::PosInf; }

Lane neg(Lane a) {
  return lift(a, [](Lane x) {
    return x == Lane::NegInf ? Lane::PosInf
           : x == Lane::PosInf ? Lane::NegInf
                               : x;
  });
}

Lane add(Lane a, Lane b) {
  return lift(a, b, [](Lane x, Lane y) {
    if (x == Lane::NaN || y == Lane::NaN)
      return Lane::NaN;
    if (isInf(x) && isInf(y))
      return x == y ? x : Lane::NaN;
    if (isInf(x))
      return x;
    if (isInf(y))
      return y;
    if (x == Lane::Zero)
      return y;
    if (y == Lane::Zero)
      return x;
    return Lane::Finite;
  });
}

Lane mul(Lane a, Lane b) {
  return lift(a, b, [](Lane x, Lane y) {
    if (x == Lane::NaN || y == Lane::NaN)
      return Lane::NaN;
    if ((x == Lane::Zero && isInf(y)) || (isInf(x) && y == Lane::Zero))
      return Lane::NaN;
    if (x == Lane::Zero || y == Lane::Zero)
      return Lane::Zero;
    if (isInf(x) || isInf(y)) // the sign of a finite value is unknown
      return Lane::NegInf | Lane::PosInf | Lane::NaN;
    return Lane::Finite;
  });
}

Lane div(Lane a, Lane b) {
  return lift(a, b, [](Lane x, Lane y) {
    if (x == Lane::NaN || y == Lane::NaN)
      return Lane::NaN;
    if (y == Lane::Zero)
      return x == Lane::Zero ? Lane::NaN : Lane::NegInf | Lane::PosInf;
    if (isInf(x) && isInf(y))
      return Lane::NaN;
    if (isInf(x))
      return Lane::NegInf | Lane::PosInf;
    if (isInf(y) || x == Lane::Zero)
      return Lane::Zero;
    return Lane::Finite;
  });
}

Lane max(Lane a, Lane b, bool propagateNaN) {
  return lift(a, b, [&](Lane x, Lane y) {
    if (x == Lane::NaN || y == Lane::NaN)
      return propagateNaN ? Lane::NaN : (x == Lane::NaN ? y : x);
    if (x == Lane::NegInf)
      return y;
    if (y == Lane::NegInf)
      return x;
    if (x == Lane::PosInf || y == Lane::PosInf)
      return Lane::PosInf;
    return x == Lane::Zero && y == Lane::Zero ? Lane::Zero : Lane::Finite;
  });
}

Lane min(Lane a, Lane b, bool propagateNaN) {
  return neg(max(neg(a), neg(b), propagateNaN));
}

/// The value of `op` on lanes whose operands hold `in`.
Lane evaluate(Operation *op, ArrayRef<Lane> in) {
  return llvm::TypeSwitch<Operation *, Lane>(op)
      .Case([&](arith::AddFOp) { return add(in[0], in[1]); })
      .Case([&](arith::SubFOp) { return add(in[0], neg(in[1])); })
      .Case([&](arith::MulFOp) { return mul(in[0], in[1]); })
      .Case([&](arith::DivFOp) { return div(in[0], in[1]); })
      .Case([&](arith::MaximumFOp) { return max(in[0], in[1], true); })
      .Case([&](arith::MaxNumFOp) { return max(in[0], in[1], false); })
      .Case([&](arith::MinimumFOp) { return min(in[0], in[1], true); })
      .Case([&](arith::MinNumFOp) { return min(in[0], in[1], false); })
      .Case([&](arith::NegFOp) { return neg(in[0]); })
      .Case<arith::ExtFOp, arith::TruncFOp>(
          [&](Operation *) { return in[0]; })
      .Case<math::ExpOp, math::Exp2Op>([&](Operation *) {
        return lift(in[0], [](Lane x) {
          return x == Lane::NegInf ? Lane::Zero
                 : x == Lane::Zero ? Lane::Finite
                                   : x;
        });
      })
      .Case([&](math::TanhOp) {
        return lift(in[0], [](Lane x) { return isInf(x) ? Lane::Finite : x; });
      })
      .Case([&](math::AbsFOp) {
        return lift(in[0], [](Lane x) { return isInf(x) ? Lane::PosInf : x; });
      })
      .Case([&](math::LogOp) {
        return lift(in[0], [](Lane x) {
          return x == Lane::Zero     ? Lane::NegInf
                 : x == Lane::PosInf ? Lane::PosInf
                 : x == Lane::NaN    ? Lane::NaN
                                     : Lane::Any;
        });
      })
      .Default([&](Operation *) { return Lane::Any; });
}

/// Whether `value` on the lanes of operand `index` makes `op` return the other
/// operand (the pad is absorbed).
bool isIdentity(Operation *op, unsigned index, Lane value) {
  if (isa<arith::AddFOp>(op))
    return value == Lane::Zero;
  if (isa<arith::SubFOp>(op))
    return index == 1 && value == Lane::Zero;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(op))
    return value == Lane::NegInf;
  if (isa<arith::MinimumFOp, arith::MinNumFOp>(op))
    return value == Lane::PosInf;
  return false;
}


/// The lane class of a float constant.
Lane constantLane(const APFloat &value) {
  if (value.isNaN())
    return Lane::NaN;
  if (value.isInfinity())
    return value.isNegative() ? Lane::NegInf : Lane::PosInf;
  return value.isZero() ? Lane::Zero : Lane::Finite;
}

} // namespace kbench::detail
