//===- PadAnalysis.h - The dataflow of C10 --------------------*- C++ -*-===//
//
// Private to lib/Analysis: the state and the analysis class of C10, split
// between PadCheck.cpp (transfer functions over the ops) and PadQueries.cpp
// (the Presburger questions: can a load pad, does a mask hide the padded
// lanes, does a store mask them, and the findings).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_ANALYSIS_PADANALYSIS_H
#define KBENCH_LIB_ANALYSIS_PADANALYSIS_H

#include "AxisDataflow.h"
#include "LaneIndex.h"
#include "PadLattice.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <map>
#include <set>

namespace kbench::detail {

//===----------------------------------------------------------------------===//
// Dataflow state
//===----------------------------------------------------------------------===//

/// Lanes of a tensor along one axis that hold values derived from the pad of
/// `load` along its axis `srcAxis`.
struct Entry {
  const AccessInfo *load;
  unsigned srcAxis;
  Lane value;
  /// Whether the lanes reached their value through a loop's iter_arg: the
  /// load may then be an earlier iteration's, so a query that binds the
  /// load's iteration to the consumer's does not describe them.
  bool carried = false;
  bool operator==(const Entry &o) const {
    return load == o.load && srcAxis == o.srcAxis && value == o.value &&
           carried == o.carried;
  }
  bool sameLanes(const Entry &o) const {
    return load == o.load && srcAxis == o.srcAxis;
  }
};

/// Per axis, the pad-derived lanes of one tensor value; and what the other
/// lanes hold.
struct State {
  llvm::SmallVector<llvm::SmallVector<Entry>> axes;
  /// Per axis: whether the lanes carry data that varies along the axis (read
  /// by a load along it), rather than a value repeated by a constant or a
  /// broadcast. Only such data may absorb a pad: `acc + 0` keeps the lane's
  /// own sum, `1 + 0` puts a 1 where nothing belongs.
  llvm::SmallVector<bool> data;
  /// The value of the lanes that are not pad-derived: the class of a
  /// constant, finite for data.
  Lane base = Lane::Finite;
  bool empty() const {
    return llvm::all_of(axes, [](const auto &a) { return a.empty(); });
  }
  bool operator==(const State &o) const {
    return axes == o.axes && data == o.data && base == o.base;
  }
  void resize(unsigned rank) {
    axes.resize(rank);
    data.resize(rank, false);
  }
  State joined(const State &other) const;
  State mapAxes(llvm::ArrayRef<int> from) const {
    State out;
    out.base = base;
    for (int axis : from) {
      out.axes.push_back(axis < 0 ? llvm::SmallVector<Entry>() : axes[axis]);
      out.data.push_back(axis < 0 ? false : data[axis]);
    }
    return out;
  }
};

inline void addEntry(llvm::SmallVectorImpl<Entry> &entries, Entry e) {
  for (Entry &existing : entries) {
    if (existing.sameLanes(e)) {
      existing.value = join(existing.value, e.value);
      existing.carried |= e.carried;
      return;
    }
  }
  entries.push_back(e);
}

inline State joinStates(const State &a, const State &b) {
  State result = a;
  result.axes.resize(std::max(a.axes.size(), b.axes.size()));
  result.data.resize(result.axes.size(), false);
  for (auto [axis, entries] : llvm::enumerate(b.axes))
    for (const Entry &e : entries)
      addEntry(result.axes[axis], e);
  for (auto [axis, d] : llvm::enumerate(b.data))
    result.data[axis] = result.data[axis] || d;
  result.base = join(a.base, b.base);
  return result;
}

inline State State::joined(const State &other) const {
  return joinStates(*this, other);
}

/// The value of `state` on the lanes of `entry`: its own value for the same
/// lanes; otherwise other entries on the axis may overlap them, so their
/// values join the base.
inline Lane valueOnLanes(const State &state, unsigned axis, const Entry &entry,
                         bool &exact) {
  exact = false;
  if (axis >= state.axes.size() || state.axes[axis].empty())
    return state.base;
  Lane result = state.base;
  for (const Entry &e : state.axes[axis]) {
    if (e.sameLanes(entry)) {
      exact = true;
      return e.value;
    }
    result = join(result, e.value);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

class PadAnalysis : public AxisDataflow<PadAnalysis, State> {
public:
  using AxisDataflow::AxisDataflow;
  void processOp(mlir::Operation *op);

private:
  LaneIndex laneIndex{model};
  std::map<std::pair<const AccessInfo *, unsigned>, bool> padCache;
  std::map<std::pair<const AccessInfo *, unsigned>, llvm::json::Object>
      padWitness;
  std::map<std::pair<const AccessInfo *, unsigned>, std::string> padText;
  std::set<std::tuple<mlir::Operation *, const AccessInfo *, unsigned>> reported;
  std::set<std::tuple<mlir::Operation *, const AccessInfo *, unsigned, unsigned>>
      leakQueried;
  std::map<std::tuple<mlir::Operation *, const AccessInfo *, unsigned, unsigned, bool>,
           bool>
      maskCache;

  bool padPossible(const AccessInfo &load, unsigned axis);
  bool provedMasked(mlir::Operation *consumer, const Entry &entry, unsigned axis,
                    mlir::Value cond, bool condTrue);
  void checkStoreLeak(mlir::Operation *store, const AccessInfo &access,
                      const Entry &entry, unsigned axis);
  void reportNotNeutral(mlir::Operation *consumer, const Entry &entry,
                        const std::string &what, const std::string &fix);
  void processElementwise(mlir::Operation *op);
  void processSelect(mlir::arith::SelectOp op);
  void processScan(tile::ScanOp op);
  void processGather(tile::GatherOp gather);
  /// Reports every entry that is not neutral for `kind` at `consumer`
  /// ("reduces (add) lanes of ...").
  void requireNeutral(mlir::Operation *consumer, tile::ReduceKind kind,
                      llvm::ArrayRef<Entry> entries, const std::string &verb);
  void processMma(tile::MmaOp op);
  /// Whether `operand` is zero on the lanes of `entry` (another load's pad)
  /// along `axis`: it is a chain of arith.selects (through float casts), each
  /// with a zero on one side, one of whose conditions provably does not pick
  /// the data there.
  bool zeroedBySelect(mlir::Value operand, unsigned axis, const Entry &entry);

public:
  /// A value yielded to a loop's next iteration: every entry is carried.
  State carriedState(State state) {
    for (llvm::SmallVector<Entry> &entries : state.axes)
      for (Entry &entry : entries)
        entry.carried = true;
    return state;
  }
  /// A yielded value's state without the entries whose load provably reads
  /// no partial tile where `ifOp`'s branch is taken (`if (j * BN + BN > N)`
  /// masks, its else branch yields lanes that are never padded).
  State branchState(mlir::scf::IfOp ifOp, bool isThen, State state);

private:
  /// Whether no instance of `entry`'s load reads past the extent along its
  /// axis where `cond` (an i1 of index comparisons, arith.andi / arith.ori)
  /// is `condTrue` at `at`.
  bool provedUnpaddedUnder(mlir::Operation *at, const Entry &entry,
                           mlir::Value cond, bool condTrue);
  /// Whether a query at `at` that binds `entry`'s load to the same loop
  /// iterations would misdescribe it: the entry is carried and a loop
  /// encloses both the load and `at`.
  bool isMisbound(mlir::Operation *at, const Entry &entry);
  std::map<std::tuple<mlir::Operation *, const AccessInfo *, unsigned, bool>,
           bool>
      branchCache;
};

} // namespace kbench::detail

#endif // KBENCH_LIB_ANALYSIS_PADANALYSIS_H
