//===- ReductionTrace.cpp - The reductions of a kernel --------------------===//
//
// Backward from a reduction, its reduced axis is traced through elementwise
// ops, broadcasts, transposes, selects, scf.if results (both branches), mma
// results and loop results to the tile.loads that feed it; a loop entered
// through a result counts every iteration when its slot accumulates (the yield
// depends on its own iter_arg), only the last one otherwise. Forward, the
// result is followed to the loop slots it reaches (all must accumulate), to
// atomic adds and to the accumulators of other mmas.
//
//===----------------------------------------------------------------------===//

#include "ReductionTrace.h"
#include "CheckSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace kbench::tile;

namespace kbench::detail {
namespace {

/// Ops that map lanes to lanes and keep the axis numbering.
static bool isElementwise(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return false;
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!result)
    return false;
  if (!isa<arith::ArithDialect>(op->getDialect()) &&
      op->getDialect()->getNamespace() != "math")
    return false;
  return llvm::all_of(op->getOperandTypes(), [&](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return tensor && tensor.getShape() == result.getShape();
  });
}

/// Traces a reduced axis back to its source loads.
class AxisTracer {
public:
  AxisTracer(const KernelModel &model, Member &member)
      : model(model), member(member) {}

  /// Traces `value`'s axis `axis` to its sources. A depth-first walk with an
  /// explicit stack, in the order a recursive walk would take: chains of
  /// 100k elementwise ops or loops must not grow the call stack
  /// (docs/robustness.md).
  LogicalResult trace(Value value, unsigned axis) {
    SmallVector<Step> stack = {Step{value, axis, nullptr, 0, false}};
    while (!stack.empty()) {
      Step step = stack.pop_back_val();
      if (step.leaving) {
        if (failed(leaveLoop(step.loop)))
          return failure();
        continue;
      }
      if (failed(visit(step.value, step.axis, stack)))
        return failure();
    }
    return success();
  }

  /// Turns the loop modes seen into the member's lastOnlyLoops.
  LogicalResult finish() {
    SmallVector<int> enclosing = model.getScopeChain(member.scope);
    for (const Source &source : member.sources) {
      for (int s : model.getScopeChain(source.load->scope)) {
        const ScopeInfo &info = model.getScopes()[s];
        if (llvm::is_contained(enclosing, s))
          continue;
        if (info.kind == ScopeInfo::Kind::Guard)
          return fail(describeOp(source.load->op) +
                      " is under an scf.if that does not enclose the "
                      "reduction");
        auto it = loopCarried.find(info.op);
        if (it == loopCarried.end())
          return fail(describeOp(source.load->op) +
                      " is inside a loop the reduction is not fed through");
        // The last iteration of a loop bounded by a min is a disjunction
        // (whichever bound is smaller), outside the fragment.
        if (!it->second && !info.extraUbs.empty())
          return fail(describeOp(info.op) + " feeds only its last iteration "
                      "to the reduction and its upper bound is a min");
        if (!it->second && !llvm::is_contained(member.lastOnlyLoops, s))
          member.lastOnlyLoops.push_back(s);
      }
    }
    return success();
  }

private:
  /// One pending visit of (value, axis), or the end of a loop entered
  /// through a result: its body has been traced and its mode is known.
  struct Step {
    Value value;
    unsigned axis;
    Operation *loop;
    unsigned slot;
    bool leaving;
  };

  /// What the walk does with `value`: records a source, or pushes the values
  /// it comes from onto `stack`, the first to trace last.
  LogicalResult visit(Value value, unsigned axis, SmallVectorImpl<Step> &stack) {
    auto push = [&](Value next, unsigned nextAxis) {
      stack.push_back(Step{next, nextAxis, nullptr, 0, false});
    };
    if (!visited.insert({value.getAsOpaquePointer(), axis}).second)
      return success();
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!forOp || arg == forOp.getInductionVar())
        return fail("the reduced dim comes from a block argument");
      unsigned slot = arg.getArgNumber() - 1;
      auto active = llvm::find_if(activeLoops, [&](const auto &entry) {
        return entry.first == forOp.getOperation();
      });
      if (active == activeLoops.end())
        return fail("it reduces a value carried by " + describeOp(forOp) +
                    " inside that loop");
      // The slot accumulates when its yield depends on its own iter_arg.
      if (active->second == slot)
        entryCarried[forOp] = true;
      push(forOp.getInitArgs()[slot], axis);
      return success();
    }
    Operation *def = value.getDefiningOp();
    if (auto load = dyn_cast<LoadOp>(def)) {
      const AccessInfo *access = model.getAccess(def);
      if (!access || !access->unsupported.empty())
        return fail(describeOp(def) + " is outside the affine fragment" +
                    (access ? ": " + access->unsupported : std::string()));
      member.sources.push_back({access, axis});
      return success();
    }
    // A gather reads the view along its other dims like a load; along every
    // dim its lanes are also those of its index tile (along the gathered
    // dim, only those: the positions there are data).
    if (auto gather = dyn_cast<GatherOp>(def)) {
      if (axis != gather.getDim()) {
        const AccessInfo *access = model.getAccess(def);
        if (!access || !access->unsupported.empty())
          return fail(describeOp(def) + " is outside the affine fragment" +
                      (access ? ": " + access->unsupported : std::string()));
        member.sources.push_back({access, axis});
      }
      push(gather.getOffsets(), axis);
      return success();
    }
    if (isa<arith::ConstantOp, SplatOp, IotaOp>(def))
      return success();
    // A new axis (broadcast, expand_dims) reads no input along it.
    if (auto map = dyn_cast<AxisMapOpInterface>(def)) {
      int64_t source = map.getResultAxisSources()[axis];
      if (source != AxisMapOpInterface::kNewAxis)
        push(map.getMappedInput(), source);
      return success();
    }
    if (auto mma = dyn_cast<MmaOp>(def)) {
      if (axis == 0)
        push(mma.getA(), mma.getTransposeA() ? 1 : 0);
      else
        push(mma.getB(), mma.getTransposeB() ? 0 : 1);
      push(mma.getAcc(), axis);
      return success();
    }
    if (auto select = dyn_cast<arith::SelectOp>(def)) {
      push(select.getFalseValue(), axis);
      push(select.getTrueValue(), axis);
      return success();
    }
    // A tile from scf.if is one branch's yield, as a select's lane is one
    // side's.
    if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
      unsigned index = cast<OpResult>(value).getResultNumber();
      push(ifOp.elseYield().getOperand(index), axis);
      push(ifOp.thenYield().getOperand(index), axis);
      return success();
    }
    if (auto forOp = dyn_cast<scf::ForOp>(def)) {
      unsigned index = cast<OpResult>(value).getResultNumber();
      activeLoops.push_back({forOp, index});
      savedCarried.push_back(entryCarried[forOp]);
      entryCarried[forOp] = false;
      stack.push_back(Step{Value(), 0, forOp, index, true});
      push(cast<scf::YieldOp>(forOp.getBody()->getTerminator()).getOperand(index),
           axis);
      return success();
    }
    if (isElementwise(def)) {
      for (Value operand : llvm::reverse(def->getOperands()))
        push(operand, axis);
      return success();
    }
    return fail("the reduced dim passes through " + describeOp(def) +
                ", which C9 does not model");
  }

  /// Records the mode of `loop`, whose body the walk has traced.
  LogicalResult leaveLoop(Operation *loop) {
    bool carried = entryCarried[loop];
    entryCarried[loop] = savedCarried.pop_back_val() || carried;
    activeLoops.pop_back();
    auto [it, inserted] = loopCarried.try_emplace(loop, carried);
    if (!inserted && it->second != carried)
      return fail(describeOp(loop) +
                  " both carries and overwrites values that reach it");
    return success();
  }

  LogicalResult fail(const std::string &why) {
    if (member.unsupported.empty())
      member.unsupported = why;
    return failure();
  }

  const KernelModel &model;
  Member &member;
  DenseSet<std::pair<const void *, unsigned>> visited;
  SmallVector<std::pair<Operation *, unsigned>> activeLoops;
  DenseMap<Operation *, bool> entryCarried, loopCarried;
  /// entryCarried of each loop in activeLoops before the walk entered it.
  SmallVector<bool> savedCarried;
};

/// Whether yield operand `index` of `forOp` depends on its own iter_arg (the
/// loop accumulates into that slot).
static bool isCarriedSlot(scf::ForOp forOp, unsigned index) {
  SmallVector<Value> worklist = {
      forOp.getBody()->getTerminator()->getOperand(index)};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == forOp.getBody() &&
          arg.getArgNumber() == index + 1)
        return true;
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!forOp->isProperAncestor(def))
      continue;
    for (Value operand : def->getOperands())
      worklist.push_back(operand);
  }
  return false;
}

/// Whether `op` (a tile.mma or tile.reduce) adds the elements it reduces.
static bool isSum(Operation *op) {
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return reduce.getKind() == ReduceKind::add;
  return isa<MmaOp>(op);
}

/// Whether anything computed from `value` is stored (or atomically added):
/// plain forward reachability over uses, loop-carried values and results.
static bool reachesOutputs(Value value) {
  DenseSet<Value> seen{value};
  SmallVector<Value> worklist{value};
  auto enter = [&](Value next) {
    if (seen.insert(next).second)
      worklist.push_back(next);
  };
  while (!worklist.empty()) {
    Value next = worklist.pop_back_val();
    for (OpOperand &use : next.getUses()) {
      Operation *user = use.getOwner();
      if (isa<StoreOp, AtomicAddOp>(user))
        return true;
      if (isa<scf::YieldOp>(user)) {
        if (isa<scf::ForOp, scf::IfOp>(user->getParentOp()))
          enter(user->getParentOp()->getResult(use.getOperandNumber()));
        continue;
      }
      if (auto forOp = dyn_cast<scf::ForOp>(user)) {
        unsigned first = forOp.getNumControlOperands();
        if (use.getOperandNumber() >= first)
          enter(forOp.getRegionIterArgs()[use.getOperandNumber() - first]);
        continue;
      }
      for (Value result : user->getResults())
        enter(result);
    }
  }
  return false;
}

/// Follows a reduction's result to the loops that carry it, the atomic adds
/// it reaches and the mma accumulators it feeds.
static void traceForward(const KernelModel &model, Value value, Member &member,
                         DenseSet<Value> &seen) {
  // Depth-first over the uses with an explicit stack of use lists, in the
  // order a recursive walk takes: a 100k-op chain after a reduction must not
  // grow the call stack (docs/robustness.md).
  SmallVector<std::pair<Value::use_iterator, Value::use_iterator>> stack;
  auto enter = [&](Value next) {
    if (seen.insert(next).second)
      stack.push_back({next.use_begin(), next.use_end()});
  };
  enter(value);
  while (!stack.empty()) {
    auto &[next, end] = stack.back();
    if (next == end) {
      stack.pop_back();
      continue;
    }
    OpOperand &use = *next++;
    Operation *user = use.getOwner();
    if (isa<scf::YieldOp>(user)) {
      unsigned index = use.getOperandNumber();
      if (auto forOp = dyn_cast<scf::ForOp>(user->getParentOp())) {
        // Every slot the result reaches must accumulate it: a slot that is
        // overwritten each iteration keeps only the last one.
        if (std::optional<int> scope = model.getLoopScope(forOp)) {
          if (!isCarriedSlot(forOp, index))
            member.overwrittenLoops.push_back(*scope);
          else if (!llvm::is_contained(member.carriedLoops, *scope))
            member.carriedLoops.push_back(*scope);
        }
        enter(forOp.getResult(index));
      } else if (auto ifOp = dyn_cast<scf::IfOp>(user->getParentOp())) {
        enter(ifOp.getResult(index));
      }
      continue;
    }
    if (auto forOp = dyn_cast<scf::ForOp>(user)) {
      unsigned first = forOp.getNumControlOperands();
      if (use.getOperandNumber() >= first)
        enter(forOp.getRegionIterArgs()[use.getOperandNumber() - first]);
      continue;
    }
    if (auto mma = dyn_cast<MmaOp>(user)) {
      if (use.get() == mma.getAcc() && use.getOperandNumber() == 2) {
        // A sum in the accumulator of an mma is added to again: one chain,
        // whose k tiles must not repeat. A max or min there (a running max
        // that rescales it, as in online softmax) only scales the sum; its
        // own coverage is checked on its own chain.
        if (member.op && isSum(member.op))
          member.accLinks.push_back(mma);
        enter(mma.getResult());
      } else if (!member.reachesOutput) {
        // As an operand the result reaches the outputs through the product
        // (attention's probabilities times V), so it must cover its reduced
        // dim; what the product is accumulated into is the product's own
        // chain, not this one.
        member.reachesOutput = reachesOutputs(mma.getResult());
      }
      continue;
    }
    if (isa<AtomicAddOp>(user)) {
      if (!llvm::is_contained(member.atomics, user))
        member.atomics.push_back(user);
      member.reachesOutput = true;
      continue;
    }
    if (isa<StoreOp>(user)) {
      member.reachesOutput = true;
      if (getPartialsDim(model, user) &&
          !llvm::is_contained(member.atomics, user))
        member.atomics.push_back(user);
      continue;
    }
    if (auto reduce = dyn_cast<ReduceOp>(user)) {
      // A reduction of the result still carries it to the outputs.
      if (!member.reachesOutput)
        member.reachesOutput = reachesOutputs(reduce.getResult());
      continue;
    }
    if (isa<LoadOp>(user))
      continue;
    // Reductions were handled above: the other axis maps only move elements.
    if (isa<AxisMapOpInterface, arith::SelectOp>(user) || isElementwise(user))
      for (Value result : llvm::reverse(user->getResults()))
        enter(result);
  }
}

/// Whether `value` is a float splat constant that `kind` ignores.
static bool isIdentityOf(Value value, ReduceKind kind) {
  DenseFPElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || !attr.isSplat())
    return false;
  APFloat v = attr.getSplatValue<APFloat>();
  switch (kind) {
  case ReduceKind::add:
    return v.isZero();
  case ReduceKind::max:
    return v.isInfinity() && v.isNegative();
  case ReduceKind::min:
    return v.isInfinity() && !v.isNegative();
  case ReduceKind::mul:
    break;
  }
  return false;
}

/// The conditions of the selects that mask `operand` to `kind`'s identity.
static SmallVector<Value> maskConditions(Value operand, ReduceKind kind,
                                         Member &member) {
  SmallVector<Value> conds;
  Value v = stripFloatCasts(operand);
  // An scf.if that masks in one branch only: the chain is that branch's.
  if (auto ifOp = v.getDefiningOp<scf::IfOp>()) {
    unsigned index = cast<OpResult>(v).getResultNumber();
    auto isMaskingSelect = [&](Value yielded) {
      auto select = stripFloatCasts(yielded).getDefiningOp<arith::SelectOp>();
      return select && isa<RankedTensorType>(select.getCondition().getType()) &&
             isIdentityOf(select.getFalseValue(), kind);
    };
    Value thenValue = ifOp.thenYield().getOperand(index);
    Value elseValue = ifOp.elseYield().getOperand(index);
    bool thenMasks = isMaskingSelect(thenValue);
    if (thenMasks == isMaskingSelect(elseValue))
      return conds;
    member.maskGuard = ifOp.getCondition();
    member.maskGuardThen = thenMasks;
    v = stripFloatCasts(thenMasks ? thenValue : elseValue);
  }
  while (auto select = v.getDefiningOp<arith::SelectOp>()) {
    if (!isa<RankedTensorType>(select.getCondition().getType()) ||
        !isIdentityOf(select.getFalseValue(), kind))
      break;
    conds.push_back(select.getCondition());
    v = stripFloatCasts(select.getTrueValue());
  }
  return conds;
}

/// Analyses one reduction op.
} // namespace

std::optional<unsigned> getPartialsDim(const KernelModel &model,
                                       Operation *op) {
  const AccessInfo *access = isa<StoreOp>(op) ? model.getAccess(op) : nullptr;
  if (!access)
    return std::nullopt;
  return model.getKernel().getArgPartialsDim(
      model.getViews()[access->view].argIndex);
}

Member analyseReduction(const KernelModel &model, Operation *op) {
  Member member;
  member.op = op;
  DenseSet<Value> seen;
  traceForward(model, op->getResult(0), member, seen);
  llvm::erase_if(member.carriedLoops, [&](int loop) {
    return llvm::is_contained(member.overwrittenLoops, loop);
  });
  if (!member.reachesOutput)
    return member;
  std::string reason;
  FailureOr<int> scope = model.getScope(op, &reason);
  if (failed(scope)) {
    member.unsupported = reason;
    return member;
  }
  member.scope = *scope;
  if (std::string why = model.getScopeUnsupported(*scope); !why.empty()) {
    member.unsupported = why;
    return member;
  }
  AxisTracer tracer(model, member);
  if (auto mma = dyn_cast<MmaOp>(op)) {
    if (failed(tracer.trace(mma.getA(), mma.getTransposeA() ? 0 : 1)) ||
        failed(tracer.trace(mma.getB(), mma.getTransposeB() ? 1 : 0)))
      return member;
  } else {
    auto reduce = cast<ReduceOp>(op);
    if (failed(tracer.trace(reduce.getInput(), reduce.getDim())))
      return member;
  }
  if (failed(tracer.finish()))
    return member;
  member.noSources = member.sources.empty();
  if (auto mma = dyn_cast<MmaOp>(op)) {
    // A zero operand makes the product zero only against finite values: the
    // k sources must read data or zero pad.
    bool finitePads = llvm::all_of(member.sources, [&](const Source &source) {
      PadKind pad = model.getViews()[source.load->view].pad;
      return pad == PadKind::none || pad == PadKind::zero;
    });
    if (finitePads) {
      member.maskConds = maskConditions(mma.getA(), ReduceKind::add, member);
      if (member.maskConds.empty()) {
        member.maskGuard = Value();
        member.maskConds = maskConditions(mma.getB(), ReduceKind::add, member);
      }
    }
  } else {
    auto reduce = cast<ReduceOp>(op);
    member.maskConds =
        maskConditions(reduce.getInput(), reduce.getKind(), member);
  }
  return member;
}


} // namespace kbench::detail
