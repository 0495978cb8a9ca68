//===- Retile.cpp - Re-type a tile kernel for new tile-size params --------===//
//
// The work behind transform.tile.set_params. Tile shapes are static, so a new
// BM changes the types of every tensor whose dims derive from a BM-sized
// partition dim. The dims are grouped into classes (union-find over (value,
// dim) pairs) by the shape rule of every op; a class is *anchored* by the
// param names and literal sizes of partition tile sizes, the unit dims
// expand_dims inserts, and ops this file does not know (their dims cannot
// change). Each class then takes its param's new value, or keeps its size.
//
// Two anchors in one class that would disagree after the edit (BM = 128
// joined to BN = 64 by an arith.addf, say) are reported with the op whose
// rule joined them: the first union that merged the two anchors' classes in
// program order, which is where the kernel mixes the two tilings.
//
//===----------------------------------------------------------------------===//

#include "KnobRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::tile;
using namespace kbench::transform;

namespace {

/// A fact that names or fixes the size of a class of tile dims.
struct Anchor {
  enum class Kind { Param, Literal, Opaque };
  Kind kind;
  StringRef param;     // Kind::Param
  int64_t literal = 0; // Kind::Literal
  Operation *op;       // the op that states the fact

  bool sameFact(const Anchor &other) const {
    if (kind != other.kind)
      return false;
    switch (kind) {
    case Kind::Param:
      return param == other.param;
    case Kind::Literal:
      return literal == other.literal;
    case Kind::Opaque:
      return true; // one opaque op per class is enough to report
    }
    return false;
  }
};

/// Two anchors of one class and the op whose shape rule joined them.
struct Meeting {
  Anchor a, b;
  Operation *op;
};

/// Union-find over the dims of every tiled value (tensor or partition) of a
/// kernel, with the anchors of each class kept at its root.
class DimClasses {
public:
  void build(KernelOp kernel);

  /// Values in program order of first appearance.
  ArrayRef<Value> getValues() const { return values; }
  /// The anchors of the class of dim `dim` of `value`.
  ArrayRef<Anchor> anchorsOf(Value value, unsigned dim) {
    return anchors[find(nodes.lookup({value, dim}))];
  }
  ArrayRef<Meeting> getMeetings() const { return meetings; }

private:
  void ensure(Value value);
  unsigned node(Value value, unsigned dim) {
    ensure(value);
    return nodes.lookup({value, dim});
  }
  unsigned find(unsigned x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  }
  void unite(Value a, unsigned dimA, Value b, unsigned dimB, Operation *op);
  /// Unites every dim of `a` with the same dim of `b` (equal ranks).
  void uniteAll(Value a, Value b, Operation *op);
  void anchor(Value value, unsigned dim, Anchor fact);
  /// Marks every dim of every tiled operand and result of `op` as fixed.
  void anchorOpaque(Operation *op);
  void addToRoot(unsigned root, const Anchor &fact, Operation *joiner);
  void visit(Operation *op);

  llvm::DenseMap<std::pair<Value, unsigned>, unsigned> nodes;
  SmallVector<unsigned> parent;
  SmallVector<SmallVector<Anchor, 2>> anchors;
  SmallVector<Meeting> meetings;
  SmallVector<Value> values;
};

} // namespace

/// The static shape of a tile tensor or a partition view; nullopt otherwise.
static std::optional<ArrayRef<int64_t>> tiledShape(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  if (auto part = dyn_cast<PartitionType>(type))
    return part.getShape();
  return std::nullopt;
}

static bool isTiled(Value value) {
  return tiledShape(value.getType()).has_value();
}

void DimClasses::ensure(Value value) {
  std::optional<ArrayRef<int64_t>> shape = tiledShape(value.getType());
  // Rank-0 tiles have no dims to join or retile.
  if (!shape || shape->empty() || nodes.count({value, 0}))
    return;
  values.push_back(value);
  for (unsigned dim = 0; dim < shape->size(); ++dim) {
    nodes[{value, dim}] = parent.size();
    parent.push_back(parent.size());
    anchors.emplace_back();
  }
}

/// True when two anchors in one class are worth remembering: they could
/// disagree after some edit (a param against anything but itself).
static bool canConflict(const Anchor &a, const Anchor &b) {
  if (a.kind != Anchor::Kind::Param && b.kind != Anchor::Kind::Param)
    return false;
  return !a.sameFact(b);
}

void DimClasses::addToRoot(unsigned root, const Anchor &fact,
                           Operation *joiner) {
  for (const Anchor &existing : anchors[root])
    if (canConflict(existing, fact))
      meetings.push_back({existing, fact, joiner});
  if (llvm::none_of(anchors[root],
                    [&](const Anchor &a) { return a.sameFact(fact); }))
    anchors[root].push_back(fact);
}

void DimClasses::unite(Value a, unsigned dimA, Value b, unsigned dimB,
                       Operation *op) {
  unsigned rootA = find(node(a, dimA)), rootB = find(node(b, dimB));
  if (rootA == rootB)
    return;
  parent[rootB] = rootA;
  SmallVector<Anchor, 2> moved = std::move(anchors[rootB]);
  anchors[rootB].clear();
  for (const Anchor &fact : moved)
    addToRoot(rootA, fact, op);
}

void DimClasses::uniteAll(Value a, Value b, Operation *op) {
  std::optional<ArrayRef<int64_t>> shapeA = tiledShape(a.getType());
  std::optional<ArrayRef<int64_t>> shapeB = tiledShape(b.getType());
  if (!shapeA || !shapeB)
    return;
  if (shapeA->size() != shapeB->size()) {
    anchorOpaque(op);
    return;
  }
  for (unsigned dim = 0; dim < shapeA->size(); ++dim)
    unite(a, dim, b, dim, op);
}

void DimClasses::anchor(Value value, unsigned dim, Anchor fact) {
  addToRoot(find(node(value, dim)), fact, fact.op);
}

void DimClasses::anchorOpaque(Operation *op) {
  auto fix = [&](Value value) {
    std::optional<ArrayRef<int64_t>> shape = tiledShape(value.getType());
    if (!shape)
      return;
    for (unsigned dim = 0; dim < shape->size(); ++dim)
      anchor(value, dim, {Anchor::Kind::Opaque, {}, 0, op});
  };
  llvm::for_each(op->getOperands(), fix);
  llvm::for_each(op->getResults(), fix);
}

void DimClasses::visit(Operation *op) {
  for (Value result : op->getResults())
    ensure(result);

  if (auto partition = dyn_cast<PartitionOp>(op)) {
    for (auto [dim, size] : llvm::enumerate(partition.getTileSizes())) {
      if (auto name = dyn_cast<StringAttr>(size))
        anchor(partition, dim, {Anchor::Kind::Param, name.getValue(), 0, op});
      else
        anchor(
            partition, dim,
            {Anchor::Kind::Literal, {}, cast<IntegerAttr>(size).getInt(), op});
    }
    return;
  }
  // A gather's tile has the view's tile shape but along the gathered dim
  // (tile size 1 in the view, one index per result row): there the result
  // follows its index tile.
  if (auto gather = dyn_cast<GatherOp>(op)) {
    Value result = gather.getResult();
    for (int64_t d = 0, e = gather.getType().getRank(); d < e; ++d)
      if (d != static_cast<int64_t>(gather.getDim()))
        unite(result, d, gather.getView(), d, op);
    return uniteAll(result, gather.getOffsets(), op);
  }
  // The accessed tile has the view's tile shape.
  if (auto access = dyn_cast<ViewAccessOpInterface>(op))
    return uniteAll(access.getTile(), access.getView(), op);
  // A mapped axis keeps its input axis's size; a new axis follows its
  // consumers, unless the op makes it a unit axis.
  if (auto map = dyn_cast<AxisMapOpInterface>(op)) {
    Value result = op->getResult(0);
    // The dim a squeeze drops must stay a unit dim.
    if (auto squeeze = dyn_cast<SqueezeOp>(op))
      anchor(squeeze.getInput(), squeeze.getDim(),
             {Anchor::Kind::Literal, {}, 1, op});
    for (auto [dim, source] : llvm::enumerate(map.getResultAxisSources())) {
      if (source != AxisMapOpInterface::kNewAxis)
        unite(result, dim, map.getMappedInput(), source, op);
      else if (map.insertsUnitAxes())
        anchor(result, dim, {Anchor::Kind::Literal, {}, 1, op});
    }
    return;
  }
  if (auto mma = dyn_cast<MmaOp>(op)) {
    unsigned aM = mma.getTransposeA() ? 1 : 0, bN = mma.getTransposeB() ? 0 : 1;
    unite(mma.getAcc(), 0, mma.getA(), aM, op);
    unite(mma.getAcc(), 1, mma.getB(), bN, op);
    unite(mma.getA(), 1 - aM, mma.getB(), 1 - bN, op);
    uniteAll(mma.getResult(), mma.getAcc(), op);
    return;
  }
  // Shapes these create are free: they follow whatever consumes them. The
  // scalars grid, num_tiles, extent and tile_size read from a view name no
  // tile dim: num_tiles and tile_size follow the view's new type, and extent
  // is a dim of the memref, the same for every tiling.
  if (isa<IotaOp, SplatOp, GridOp, ViewScalarOpInterface, KernelOp, ReturnOp>(
          op))
    return;
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    if (isTiled(constant.getResult()) &&
        !isa<SplatElementsAttr>(constant.getValue()))
      anchorOpaque(op);
    return;
  }
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    for (auto [init, iterArg, result] :
         llvm::zip(forOp.getInitArgs(), forOp.getRegionIterArgs(),
                   forOp.getResults())) {
      ensure(iterArg);
      uniteAll(iterArg, init, op);
      uniteAll(result, init, op);
    }
    return;
  }
  if (isa<scf::IfOp>(op))
    return; // joined through its yields
  if (auto yield = dyn_cast<scf::YieldOp>(op)) {
    Operation *parentOp = yield->getParentOp();
    if (isa<scf::ForOp, scf::IfOp>(parentOp)) {
      for (auto [operand, result] :
           llvm::zip(yield.getOperands(), parentOp->getResults()))
        uniteAll(operand, result, op);
      return;
    }
  }
  // Elementwise arith/math ops on tiles: every tile operand and result has
  // the same shape (scalar operands such as a select's i1 condition aside).
  if (op->hasTrait<OpTrait::Elementwise>()) {
    Value first;
    for (Value value :
         llvm::concat<Value>(op->getOperands(), op->getResults())) {
      if (!isTiled(value))
        continue;
      if (!first)
        first = value;
      else
        uniteAll(first, value, op);
    }
    return;
  }
  anchorOpaque(op);
}

void DimClasses::build(KernelOp kernel) {
  kernel.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) { visit(op); });
}

std::vector<SmallVector<std::optional<StringRef>>>
kbench::transform::tileDimParams(KernelOp kernel, ArrayRef<Value> tiles) {
  DimClasses classes;
  classes.build(kernel);
  std::vector<SmallVector<std::optional<StringRef>>> params;
  for (Value tile : tiles) {
    SmallVector<std::optional<StringRef>> &dims = params.emplace_back();
    std::optional<ArrayRef<int64_t>> shape = tiledShape(tile.getType());
    for (unsigned dim = 0, e = shape ? shape->size() : 0; dim < e; ++dim) {
      std::optional<StringRef> param;
      for (const Anchor &fact : classes.anchorsOf(tile, dim))
        if (fact.kind == Anchor::Kind::Param)
          param = fact.param;
      dims.push_back(param);
    }
  }
  return params;
}

//===----------------------------------------------------------------------===//
// retileKernel
//===----------------------------------------------------------------------===//

/// What fixes a literal anchor, and how to free it.
static std::pair<std::string, std::string>
describeLiteral(const Anchor &literal, StringRef param) {
  if (auto map = dyn_cast<AxisMapOpInterface>(literal.op);
      map && map.insertsUnitAxes())
    return {llvm::formatv("the unit dim {0} inserts", literal.op->getName())
                .str(),
            llvm::formatv("leave {0} at 1", param).str()};
  if (isa<SqueezeOp>(literal.op))
    return {
        llvm::formatv("the unit dim {0} drops", literal.op->getName()).str(),
        llvm::formatv("leave {0} at 1", param).str()};
  return {llvm::formatv("the literal tile size of a {0}", literal.op->getName())
              .str(),
          llvm::formatv("write the param name instead of the literal, or "
                        "leave {0} at {1}",
                        param, literal.literal)
              .str()};
}

std::optional<KnobFailure>
kbench::transform::retileKernel(KernelOp kernel,
                                const llvm::StringMap<int64_t> &assignments,
                                PayloadEdits &edits) {
  auto newValue = [&](StringRef param) -> int64_t {
    auto it = assignments.find(param);
    return it != assignments.end() ? it->second
                                   : kernel.getParamValue(param).value_or(0);
  };
  auto changes = [&](StringRef param) {
    return newValue(param) != kernel.getParamValue(param).value_or(0);
  };

  DimClasses classes;
  classes.build(kernel);

  // Two anchors of one class that disagree after the edit.
  for (const Meeting &meeting : classes.getMeetings()) {
    Anchor param = meeting.a, other = meeting.b;
    if (param.kind != Anchor::Kind::Param)
      std::swap(param, other);
    std::string joiner = meeting.op->getName().getStringRef().str();
    if (other.kind == Anchor::Kind::Param &&
        newValue(param.param) != newValue(other.param))
      return KnobFailure{
          llvm::formatv("{0} = {1} and {2} = {3} size the same tile dim, "
                        "which {4} joins; give them the same value",
                        param.param, newValue(param.param), other.param,
                        newValue(other.param), joiner),
          meeting.op->getLoc(),
          llvm::formatv("{0} joins tiles sized by {1} and {2}", joiner,
                        param.param, other.param)};
    if (other.kind == Anchor::Kind::Literal &&
        newValue(param.param) != other.literal) {
      auto [what, fix] = describeLiteral(other, param.param);
      return KnobFailure{
          llvm::formatv("{0} = {1} resizes a tile dim fixed to {2} by {3} ({4} "
                        "joins them); {5}",
                        param.param, newValue(param.param), other.literal, what,
                        joiner, fix),
          other.op->getLoc(),
          llvm::formatv("{0} fixes this dim to {1}", other.op->getName(),
                        other.literal)};
    }
    if (other.kind == Anchor::Kind::Opaque && changes(param.param))
      return KnobFailure{
          llvm::formatv("{0} = {1} would resize a tile that flows through "
                        "{2}, which set_params cannot retile; keep {0} at {3} "
                        "or rewrite that op with tile ops",
                        param.param, newValue(param.param), other.op->getName(),
                        kernel.getParamValue(param.param).value_or(0)),
          other.op->getLoc(),
          llvm::formatv("{0} cannot be retiled", other.op->getName())};
  }

  // New shapes: a class takes the value of its param, or keeps its size.
  MLIRContext *context = kernel.getContext();
  for (Value value : classes.getValues()) {
    ArrayRef<int64_t> shape = *tiledShape(value.getType());
    SmallVector<int64_t> newShape(shape);
    for (unsigned dim = 0; dim < shape.size(); ++dim)
      for (const Anchor &fact : classes.anchorsOf(value, dim))
        if (fact.kind == Anchor::Kind::Param)
          newShape[dim] = newValue(fact.param);
    if (ArrayRef<int64_t>(newShape) == shape)
      continue;
    Type newType;
    if (auto part = dyn_cast<PartitionType>(value.getType()))
      newType = PartitionType::get(context, newShape, part.getElementType(),
                                   part.getPad());
    else {
      auto tensor = cast<RankedTensorType>(value.getType());
      newType = RankedTensorType::get(newShape, tensor.getElementType(),
                                      tensor.getEncoding());
    }
    edits.setType(value, newType);
    if (auto constant = value.getDefiningOp<arith::ConstantOp>()) {
      auto splat = cast<SplatElementsAttr>(constant.getValue());
      edits.setAttr(constant, constant.getValueAttrName(),
                    splat.resizeSplat(cast<ShapedType>(newType)));
    }
  }
  for (const auto &assignment : assignments)
    setParam(kernel, assignment.getKey(), assignment.getValue(), edits);
  return std::nullopt;
}
