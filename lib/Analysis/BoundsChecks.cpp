//===- BoundsChecks.cpp - C1 bounds, C2 coverage, C3 write-once -----------===//
//
// The three checks that only need the access relations:
//
//  C1  for each access and axis: a tile coordinate below 0 or at or past
//      ceildiv(dim, tile) (the view's index space) is out of bounds; a
//      pad(none) load must read full tiles (dim >= (i + 1) * tile).
//  C2  for each output (a memref that is stored to): the set of its elements
//      minus the union of the masked write relations' ranges is empty.
//  C3  for each pair of writes to one output, no two distinct instances
//      write the same in-bounds element; pairs of tile.atomic_add are
//      declared accumulation (C9 checks those).
//
//===----------------------------------------------------------------------===//

#include "CheckSupport.h"

#include "kbench/Dialect/Tile/IR/KernelABI.h"

#include <map>

using namespace mlir;
using namespace mlir::presburger;
using namespace kbench::tile;

namespace kbench::detail {

static StringRef verb(const AccessInfo &access) {
  switch (access.kind) {
  case AccessInfo::Kind::Load:
    return "reads";
  case AccessInfo::Kind::Store:
    return "writes";
  case AccessInfo::Kind::AtomicAdd:
    return "adds into";
  }
  return "accesses";
}

static std::string unsupportedAccess(const AccessInfo &access) {
  return describeOp(access.op) + " is outside the affine fragment: " +
         access.unsupported;
}

//===----------------------------------------------------------------------===//
// C1
//===----------------------------------------------------------------------===//

namespace {
/// One access instance in a system, ready for a violation query.
struct AccessQuery {
  LinearSystem sys;
  SmallVector<LinearExpr> syms;
  Instance inst;
  AccessInstance access;
};
} // namespace

static AccessQuery buildAccessQuery(const KernelModel &model,
                                    const AccessInfo &access) {
  AccessQuery q;
  q.syms = model.emitSymbols(q.sys);
  q.inst = model.emitInstance(q.sys, q.syms, access.scope, "", false);
  q.access = model.emitAccess(q.sys, q.syms, q.inst, access, "", false);
  return q;
}

/// Fills the witness of an access instance: dims, block, iter, tile, element.
static void fillAccessWitness(CheckRun &run, Finding &finding,
                              const AccessQuery &q,
                              ArrayRef<int64_t> values,
                              const SymbolValues &dims) {
  finding.witness["dims"] = dimsJSON(dims, run.model.getSymbols());
  addInstanceJSON(finding.witness, run.model, q.inst, values);
  finding.witness["tile"] = toJSONArray(evaluateAll(q.access.tile, values));
  finding.witness["element"] =
      toJSONArray(evaluateAll(q.access.element, values));
}

void checkBounds(CheckRun &run) {
  const KernelModel &model = run.model;
  for (const AccessInfo &access : model.getAccesses()) {
    if (!run.canContinue())
      return;
    if (!access.unsupported.empty()) {
      run.unsupported(access.op, unsupportedAccess(access));
      continue;
    }
    const ViewInfo &view = model.getViews()[access.view];
    AccessQuery base = buildAccessQuery(model, access);
    SmallVector<int64_t> values;

    // Signed/unsigned division matches the model only on non-negative values.
    for (AffineExpr expr : access.nonNegative) {
      AccessQuery q = base;
      FailureOr<LinearExpr> e = model.flatten(q.sys, expr, q.syms, &q.inst);
      if (failed(e))
        continue;
      q.sys.addGE(LinearExpr::cst(-1) - *e);
      CheckRun::Outcome outcome = run.lexMin(q.sys, values);
      if (outcome == CheckRun::Outcome::Stopped)
        return;
      if (outcome == CheckRun::Outcome::Found)
        run.unsupported(access.op,
                        "a tile coordinate of " + describeOp(access.op) +
                            " divides a value that can be negative (" +
                            dimsText(witnessDims(model, values, q.syms),
                                     model.getSymbols()) +
                            ", " + instanceText(model, q.inst, values) +
                            "); the verifier models arith.divsi/divui/remsi/"
                            "remui only on non-negative values, use "
                            "arith.floordivsi");
    }

    for (unsigned axis = 0, e = view.tileShape.size(); axis < e; ++axis) {
      int64_t tileSize = view.tileShape[axis];
      const std::string &dimName = model.getSymbols()[view.dimSymbols[axis]];
      std::string extent =
          "ceildiv(" + dimName + ", " + std::to_string(tileSize) + ")";
      enum class Side { Lower, Upper, Tail };
      for (Side side : {Side::Lower, Side::Upper, Side::Tail}) {
        if (side == Side::Tail && (access.kind != AccessInfo::Kind::Load ||
                                   view.pad != PadKind::none))
          continue;
        AccessQuery q = base;
        LinearExpr tile = q.access.tile[axis];
        LinearExpr dim = q.syms[view.dimSymbols[axis]];
        if (side == Side::Lower) {
          q.sys.addGE(LinearExpr::cst(-1) - tile);
        } else if (side == Side::Upper) {
          q.sys.addGE(tile * tileSize - dim);
        } else {
          // In the index space, but the tile overhangs the extent.
          q.sys.addGE(tile);
          q.sys.addLT(tile * tileSize, dim);
          q.sys.addGE(q.access.element[axis] - dim);
        }
        CheckRun::Outcome outcome = run.lexMin(q.sys, values);
        if (outcome == CheckRun::Outcome::Stopped)
          return;
        if (outcome == CheckRun::Outcome::Empty)
          continue;
        SymbolValues dims = witnessDims(model, values, q.syms);
        SmallVector<int64_t> tileCoords = evaluateAll(q.access.tile, values);
        SmallVector<int64_t> element = evaluateAll(q.access.element, values);
        int64_t dimValue = dims[dimName];
        std::string where = dimsText(dims, model.getSymbols()) + ", " +
                            instanceText(model, q.inst, values);
        std::string message;
        StringRef kind = "oob", hint, sideName;
        if (side == Side::Lower) {
          sideName = "lower";
          hint = "index_offset";
          message = describeOp(access.op) + " " + verb(access).str() +
                    " tile " + tupleText(tileCoords) + " of " + view.label() +
                    ": tile coordinate " + std::to_string(axis) +
                    " is negative (" + where + ")";
        } else if (side == Side::Upper) {
          sideName = "upper";
          hint = "index_offset|loop_bound|grid_ceildiv";
          int64_t count = (dimValue + tileSize - 1) / tileSize;
          message = describeOp(access.op) + " " + verb(access).str() +
                    " tile " + tupleText(tileCoords) + " of " + view.label() +
                    ", outside its index space along dim " +
                    std::to_string(axis) + ": " + extent + " = " +
                    std::to_string(count) + " tiles (" + where + ")";
        } else {
          sideName = "tail";
          kind = "tail_read";
          hint = "tail_mask|requires";
          message = describeOp(access.op) + " reads tile " +
                    tupleText(tileCoords) + " of " + view.label() +
                    " with pad(none), but the tile overhangs " + dimName +
                    " = " + std::to_string(dimValue) + " along dim " +
                    std::to_string(axis) + ": element " + tupleText(element) +
                    " is past the extent (" + where +
                    "); give the partition a pad or require full tiles, e.g. "
                    "requires [\"" +
                    dimName + " % " + std::to_string(tileSize) + " == 0\"]";
        }
        Finding &finding =
            run.violation(access.op, kind, view.tensor, message, hint);
        fillAccessWitness(run, finding, q, values, dims);
        finding.details["dim"] = axis;
        finding.details["dim_name"] = dimName;
        finding.details["side"] = sideName;
        finding.details["index_space"] = extent;
        SmallVector<Operation *> related = {view.op};
        for (int scope : model.getScopeChain(access.scope))
          related.push_back(model.getScopes()[scope].op);
        addRelated(finding, related);
        run.demoteIfFactsViolated(finding, dims);
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Outputs
//===----------------------------------------------------------------------===//

/// The write accesses of each memref argument that is written.
static std::map<unsigned, SmallVector<const AccessInfo *>>
collectWrites(const KernelModel &model) {
  std::map<unsigned, SmallVector<const AccessInfo *>> writes;
  for (const AccessInfo &access : model.getAccesses()) {
    if (!access.isWrite())
      continue;
    if (!access.hasView) {
      // The tensor is unknown: attach the write to every output so that no
      // output is proved while an unmodelled write may alias it.
      bool attached = false;
      for (const AccessInfo &other : model.getAccesses()) {
        if (other.isWrite() && other.hasView) {
          writes[model.getViews()[other.view].argIndex].push_back(&access);
          attached = true;
        }
      }
      if (!attached)
        writes[~0u].push_back(&access);
      continue;
    }
    writes[model.getViews()[access.view].argIndex].push_back(&access);
  }
  return writes;
}

//===----------------------------------------------------------------------===//
// C2
//===----------------------------------------------------------------------===//

void checkCoverage(CheckRun &run) {
  const KernelModel &model = run.model;
  for (auto &[arg, writes] : collectWrites(model)) {
    if (!run.canContinue())
      return;
    auto bad = llvm::find_if(
        writes, [](const AccessInfo *a) { return !a->unsupported.empty(); });
    if (bad != writes.end()) {
      run.unsupported((*bad)->op, "cannot prove that every output element is "
                                  "written: " +
                                      unsupportedAccess(**bad));
      continue;
    }
    const ViewInfo &view = model.getViews()[writes.front()->view];
    unsigned numSyms = model.getSymbols().size();
    unsigned rank = view.tileShape.size();
    // When every write uses one tile shape, coverage of the elements is
    // coverage of the view's index space: each tile in it holds an in-bounds
    // element and a write writes all of its in-bounds elements. Asking at tile
    // granularity keeps the tile elements out of the projection, which is
    // what makes the set difference small.
    bool tileLevel = llvm::all_of(writes, [&](const AccessInfo *w) {
      return model.getViews()[w->view].tileShape == view.tileShape;
    });

    auto emitTarget = [&](LinearSystem &sys, ArrayRef<LinearExpr> syms) {
      SmallVector<LinearExpr> x;
      for (unsigned d = 0; d < rank; ++d) {
        LinearExpr v = LinearExpr::var(sys.addVar("x" + std::to_string(d)));
        LinearExpr dim = syms[view.dimSymbols[d]];
        sys.addGE(v);
        if (tileLevel)
          sys.addLT(v * view.tileShape[d], dim);
        else
          sys.addLT(v, dim);
        x.push_back(v);
      }
      return x;
    };
    LinearSystem all;
    SmallVector<LinearExpr> allSyms = model.emitSymbols(all);
    emitTarget(all, allSyms);

    PresburgerSet written =
        PresburgerSet::getEmpty(PresburgerSpace::getSetSpace(numSyms + rank));
    for (const AccessInfo *write : writes) {
      if (!run.canContinue())
        return;
      LinearSystem w;
      SmallVector<LinearExpr> syms = model.emitSymbols(w);
      SmallVector<LinearExpr> x = emitTarget(w, syms);
      Instance inst = model.emitInstance(w, syms, write->scope, "", true);
      AccessInstance ai = model.emitAccess(w, syms, inst, *write, "", true);
      for (unsigned d = 0; d < rank; ++d)
        w.addEQ(x[d], tileLevel ? ai.tile[d] : ai.element[d]);
      FailureOr<PresburgerSet> united = run.unite(written, run.toSet(w));
      if (failed(united))
        return;
      written = std::move(*united);
    }
    if (!run.canContinue())
      return;
    FailureOr<PresburgerSet> difference =
        run.subtract(PresburgerSet(all.toPolyhedron()), written);
    if (failed(difference))
      return;
    const PresburgerSet &missing = *difference;
    SmallVector<int64_t> point;
    CheckRun::Outcome outcome = run.lexMinOfSet(missing, point);
    if (outcome == CheckRun::Outcome::Stopped)
      return;
    if (outcome == CheckRun::Outcome::Empty)
      continue;
    if (tileLevel)
      for (unsigned d = 0; d < rank; ++d)
        point[numSyms + d] *= view.tileShape[d];

    SymbolValues dims;
    for (unsigned i = 0; i < numSyms; ++i)
      dims[model.getSymbols()[i]] = point[i];
    SmallVector<int64_t> element(point.begin() + numSyms, point.end());
    SmallVector<int64_t> owner;
    for (auto [x, size] : llvm::zip(element, view.tileShape))
      owner.push_back(x / size);
    SmallVector<int64_t> grid;
    SymbolValues values = model.getParams();
    values.insert(dims.begin(), dims.end());
    if (FailureOr<std::array<ShapeExpr, 3>> axes =
            getLaunchGrid(model.getKernel());
        succeeded(axes)) {
      for (unsigned g = 0, e = model.getNumGridDims(); g < e; ++g) {
        std::string error;
        grid.push_back((*axes)[g].evaluate(values, error).value_or(-1));
      }
    }
    std::string gridText;
    for (auto [i, g] : llvm::enumerate(grid))
      gridText += (i ? " x " : "") + std::to_string(g);
    std::string message =
        "element " + tupleText(element) + " of " + view.label() +
        " is never written for " + dimsText(dims, model.getSymbols()) +
        ": no block of the launch grid (" + gridText + " blocks) writes tile " +
        tupleText(owner) + " of the view stored by " +
        describeOp(writes.front()->op);
    Finding &finding = run.violation(writes.front()->op, "uncovered",
                                     view.tensor, message,
                                     "grid_ceildiv|loop_bound|index_offset");
    finding.witness["dims"] = dimsJSON(dims, model.getSymbols());
    finding.witness["element"] = toJSONArray(element);
    finding.witness["tile"] = toJSONArray(owner);
    finding.witness["grid"] = toJSONArray(grid);
    SmallVector<Operation *> related = {model.getGrid()};
    for (const AccessInfo *write : writes) {
      related.push_back(write->op);
      for (int scope : model.getScopeChain(write->scope))
        related.push_back(model.getScopes()[scope].op);
    }
    addRelated(finding, related);
    run.demoteIfFactsViolated(finding, dims);
  }
}

//===----------------------------------------------------------------------===//
// C3
//===----------------------------------------------------------------------===//

/// The instance tuple (block, ivs, tile elements) of a write, for ordering.
static SmallVector<LinearExpr> instanceTuple(const Instance &inst,
                                             const AccessInstance &access) {
  SmallVector<LinearExpr> tuple;
  for (const std::optional<LinearExpr> &d : inst.dims)
    if (d)
      tuple.push_back(*d);
  tuple.append(access.elem.begin(), access.elem.end());
  return tuple;
}

void checkWriteOnce(CheckRun &run) {
  const KernelModel &model = run.model;
  for (auto &[arg, writes] : collectWrites(model)) {
    auto bad = llvm::find_if(
        writes, [](const AccessInfo *a) { return !a->unsupported.empty(); });
    if (bad != writes.end()) {
      run.unsupported((*bad)->op, "cannot prove that no element is written "
                                  "twice: " +
                                      unsupportedAccess(**bad));
      continue;
    }
    for (unsigned i = 0, n = writes.size(); i < n; ++i) {
      for (unsigned j = i; j < n; ++j) {
        if (!run.canContinue())
          return;
        const AccessInfo &s = *writes[i], &t = *writes[j];
        if (s.kind == AccessInfo::Kind::AtomicAdd &&
            t.kind == AccessInfo::Kind::AtomicAdd)
          continue;
        const ViewInfo &view = model.getViews()[s.view];
        LinearSystem base;
        SmallVector<LinearExpr> syms = model.emitSymbols(base);
        Instance inst1 = model.emitInstance(base, syms, s.scope, "first.", false);
        AccessInstance a1 =
            model.emitAccess(base, syms, inst1, s, "first.", false);
        Instance inst2 =
            model.emitInstance(base, syms, t.scope, "second.", false);
        AccessInstance a2 =
            model.emitAccess(base, syms, inst2, t, "second.", false);
        for (auto [x1, x2, dimSym] :
             llvm::zip(a1.element, a2.element, view.dimSymbols)) {
          base.addEQ(x1, x2);
          base.addGE(x1);
          base.addLT(x1, syms[dimSym]);
        }

        SmallVector<LinearSystem> queries;
        if (i != j) {
          queries.push_back(base);
        } else {
          // Distinct instances of one op: the first differs lexicographically.
          SmallVector<LinearExpr> t1 = instanceTuple(inst1, a1);
          SmallVector<LinearExpr> t2 = instanceTuple(inst2, a2);
          for (unsigned p = 0; p < t1.size(); ++p) {
            LinearSystem q = base;
            for (unsigned k = 0; k < p; ++k)
              q.addEQ(t1[k], t2[k]);
            q.addLT(t1[p], t2[p]);
            queries.push_back(std::move(q));
          }
        }
        for (LinearSystem &q : queries) {
          SmallVector<int64_t> values;
          CheckRun::Outcome outcome = run.lexMin(q, values);
          if (outcome == CheckRun::Outcome::Stopped)
            return;
          if (outcome == CheckRun::Outcome::Empty)
            continue;
          SymbolValues dims = witnessDims(model, values, syms);
          SmallVector<int64_t> element = evaluateAll(a1.element, values);
          std::string message =
              "element " + tupleText(element) + " of " + view.label() +
              " is written twice for " + dimsText(dims, model.getSymbols()) +
              ": by " + describeOp(s.op) + " in " +
              instanceText(model, inst1, values) + " and by " +
              describeOp(t.op) + " in " + instanceText(model, inst2, values) +
              (s.kind == AccessInfo::Kind::Store &&
                       t.kind == AccessInfo::Kind::Store
                   ? ""
                   : "; a store and an atomic add to one element race");
          Finding &finding = run.violation(t.op, "double_write", view.tensor,
                                           message,
                                           "index_offset|stride|atomic_add");
          finding.witness["dims"] = dimsJSON(dims, model.getSymbols());
          finding.witness["element"] = toJSONArray(element);
          llvm::json::Object first, second;
          addInstanceJSON(first, model, inst1, values);
          first["tile"] = toJSONArray(evaluateAll(a1.tile, values));
          addInstanceJSON(second, model, inst2, values);
          second["tile"] = toJSONArray(evaluateAll(a2.tile, values));
          finding.witness["first"] = std::move(first);
          finding.witness["second"] = std::move(second);
          addRelated(finding, {s.op, t.op});
          run.demoteIfFactsViolated(finding, dims);
          break;
        }
      }
    }
  }
}

} // namespace kbench::detail
