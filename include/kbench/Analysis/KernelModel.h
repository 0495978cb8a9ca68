//===- KernelModel.h - Access relations of a tile.kernel ---------*- C++ -*-===//
//
// The access-relation builder of tile-verify (docs/verification.md). A
// KernelModel reads a tile.kernel once and records, as affine expressions,
// everything the checks quantify over:
//
//  - shape symbols: the kernel's named dims, each in [1, 2^31 - 1], and the
//    linear fragment of its `requires` facts (params substituted);
//  - model dims: the block coordinates of `tile.grid` (bounded by
//    ceildiv(dim, tile)) followed by one dim per modelled `scf.for` iv;
//  - scopes: the `scf.for` loops (bounds, constant step) and `scf.if`
//    branches (conditions) that enclose memory accesses;
//  - accesses: every tile.load, tile.store and tile.atomic_add with its view
//    (tensor, dims, tile shape, pad) and tile coordinates.
//
// Index arithmetic is modelled through arith (addi, subi, muli by a constant,
// div/rem/ceildiv by a constant, index casts), affine.apply, tile.num_tiles
// and tile.extent. Anything else (a product of two non-constants, a division
// by a value, a loop-carried or data-dependent index) leaves the access
// unsupported with a reason naming the op, never modelled approximately.
//
// emitInstance/emitAccess write an instance of an op into a LinearSystem;
// AccessRelation::getRelation gives the relation A_s : I -> X of one access as
// a presburger::IntegerRelation (domain: block coordinates, enclosing loop
// ivs, tile elements; range: tensor element; symbols: shape dims).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_ANALYSIS_KERNELMODEL_H
#define KBENCH_ANALYSIS_KERNELMODEL_H

#include "kbench/Analysis/LinearSystem.h"
#include "kbench/Dialect/Tile/IR/Tile.h"
#include "kbench/Support/ShapeExpr.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace kbench {

/// Upper bound of every shape symbol (the largest int32); the lower is 1.
inline constexpr int64_t kMaxDimValue = (int64_t(1) << 31) - 1;

/// `expr >= 0`, or `expr == 0` when `isEquality`, over model dims and shape
/// symbols.
struct AffineConstraint {
  mlir::AffineExpr expr;
  bool isEquality = false;
};

/// A `tile.partition` of a kernel's memref argument.
struct ViewInfo {
  tile::PartitionOp op;
  unsigned argIndex = 0;
  /// The memref argument as the kernel names it (`X` for `%X`;
  /// kbench::tile::getArgName): the `tensor` of findings.
  std::string tensor;
  /// The task tensor the host entry binds the argument to (`x`), when known
  /// (KernelModel::bindTaskNames).
  std::string taskName;

  /// How messages name the argument: `X`, or `X (task 'x')` when the task's
  /// name is known and differs.
  std::string label() const {
    return taskName.empty() || taskName == tensor
               ? tensor
               : tensor + " (task '" + taskName + "')";
  }
  /// Per axis: index of the axis's dim in KernelModel::getSymbols().
  llvm::SmallVector<unsigned> dimSymbols;
  llvm::SmallVector<int64_t> tileShape;
  tile::PadKind pad = tile::PadKind::none;
};

/// An `scf.for` loop or one branch of an `scf.if`.
struct ScopeInfo {
  enum class Kind { Loop, Guard };
  Kind kind = Kind::Loop;
  mlir::Operation *op = nullptr;
  /// Enclosing scope, -1 for the kernel body.
  int parent = -1;
  /// Loops: the model dim of the iv, `lb <= iv < ub`, `iv = lb + step * t`.
  unsigned dim = 0;
  mlir::AffineExpr lb, ub;
  /// Further upper bounds of a loop bounded by `arith.minsi`: `iv < u` for
  /// each, a conjunction (a chunk of a row that ends at the row's last tile).
  llvm::SmallVector<mlir::AffineExpr> extraUbs;
  int64_t step = 1;
  /// Guards: the branch's conditions, all of which hold inside it.
  llvm::SmallVector<AffineConstraint> conditions;
  bool thenBranch = true;
  /// Why the scope is outside the fragment; empty when modelled.
  std::string unsupported;
};

/// A tile.load, tile.store or tile.atomic_add.
struct AccessInfo {
  enum class Kind { Load, Store, AtomicAdd };
  mlir::Operation *op = nullptr;
  Kind kind = Kind::Load;
  /// Index into KernelModel::getViews(), valid when hasView.
  unsigned view = 0;
  bool hasView = false;
  /// Tile coordinates, one per view axis.
  llvm::SmallVector<mlir::AffineExpr> indices;
  /// Expressions that must be non-negative for the model of signed/unsigned
  /// division and remainder to match the IR (checked by C1).
  llvm::SmallVector<mlir::AffineExpr> nonNegative;
  /// Innermost enclosing scope, -1 for the kernel body.
  int scope = -1;
  /// Why the access is outside the fragment; empty when modelled.
  std::string unsupported;

  bool isWrite() const { return kind != Kind::Load; }
};

/// Variables of one instance of ops inside a LinearSystem: block coordinates
/// and the ivs of loops, bound scope by scope. Ops bound into one Instance
/// share the block and the iteration of every loop they have in common.
struct Instance {
  /// Whether the block coordinates are bound.
  bool gridBound = false;
  /// Scopes (loops and guards) already bound.
  llvm::SmallVector<int> scopes;
  /// False when a bound could not be flattened (an internal inconsistency).
  bool valid = true;
  /// Per model dim: the dim's expression, if bound.
  llvm::SmallVector<std::optional<LinearExpr>> dims;
  /// Per model dim: the LinearSystem variable, -1 if none.
  llvm::SmallVector<int> vars;
};

/// The elements one instance of an access touches.
struct AccessInstance {
  /// Tile coordinates.
  llvm::SmallVector<LinearExpr> tile;
  /// Element coordinates inside the tile, 0 <= e < tile size (variables).
  llvm::SmallVector<LinearExpr> elem;
  llvm::SmallVector<unsigned> elemVars;
  /// Tensor element: tile * tileSize + elem.
  llvm::SmallVector<LinearExpr> element;
};

/// The relation A_s : I -> X of one access.
struct AccessRelation {
  const AccessInfo *access;
  /// Domain: block coordinates, enclosing loop ivs (outermost first), tile
  /// elements; range: the tensor element; symbols: the shape dims.
  mlir::presburger::IntegerRelation relation;
  /// Names of the domain, range and symbol variables, in order.
  llvm::SmallVector<std::string> domainNames, rangeNames, symbolNames;
};

/// The module's host entry: its one defined func.func (the rule of the bundle
/// manifest), or null; `defined` gets the number of defined func.funcs.
mlir::func::FuncOp findHostEntry(mlir::ModuleOp module, unsigned &defined);

/// Everything the checks of tile-verify need to know about one kernel.
class KernelModel {
public:
  explicit KernelModel(tile::KernelOp kernel);

  /// Names each view's argument after the task tensor it receives:
  /// `entryNames[j]` is the name of argument j of the module's host entry
  /// (its one defined func.func; task.json's inputs, then outputs), followed
  /// through every tile.launch of this kernel. An argument that receives
  /// different entry arguments, or none, keeps no task name.
  void bindTaskNames(llvm::ArrayRef<std::string> entryNames);

  tile::KernelOp getKernel() const { return kernel; }
  /// Why the whole kernel is outside the fragment (empty when modelled).
  const std::string &getUnsupported() const { return unsupported; }

  llvm::ArrayRef<std::string> getSymbols() const { return symbols; }
  const SymbolValues &getParams() const { return params; }
  /// The linear `requires` facts, as constraints over symbols.
  llvm::ArrayRef<AffineConstraint> getFacts() const { return facts; }
  /// `requires` facts outside the linear fragment, with the reason; the
  /// verifier does not assume them, and a witness that violates one of them is
  /// reported as unsupported rather than violated.
  llvm::ArrayRef<std::pair<std::string, std::string>> getDroppedFacts() const {
    return droppedFacts;
  }
  /// Whether every `requires` fact holds for these shape values.
  bool satisfiesAllFacts(const SymbolValues &dims) const;

  unsigned getNumGridDims() const { return gridExtents.size(); }
  unsigned getNumDims() const { return numDims; }
  /// `ceildiv(dim, tile)` per grid coordinate.
  llvm::ArrayRef<mlir::AffineExpr> getGridExtents() const { return gridExtents; }
  tile::GridOp getGrid() const { return grid; }

  llvm::ArrayRef<ScopeInfo> getScopes() const { return scopes; }
  llvm::ArrayRef<ViewInfo> getViews() const { return views; }
  llvm::ArrayRef<AccessInfo> getAccesses() const { return accesses; }
  const AccessInfo *getAccess(mlir::Operation *op) const;
  /// The view info of a partition value, if it is a modelled partition.
  std::optional<unsigned> getViewIndex(mlir::Value view) const;

  /// Innermost scope enclosing `op` (-1: the kernel body). Fails with a
  /// reason when an enclosing op is not modelled.
  mlir::FailureOr<int> getScope(mlir::Operation *op,
                                std::string *reason = nullptr) const;
  /// Scopes from the outermost to `scope` itself (empty for -1).
  llvm::SmallVector<int> getScopeChain(int scope) const;
  /// Deepest scope that encloses (or is) both `a` and `b`.
  int getCommonScope(int a, int b) const;
  /// First reason a scope on the chain of `scope` is unsupported, or "".
  std::string getScopeUnsupported(int scope) const;
  /// The loop scope of an scf.for, if modelled.
  std::optional<int> getLoopScope(mlir::Operation *forOp) const;

  /// An index value as an affine expression over model dims and symbols.
  /// Fails with a reason naming the op that leaves the fragment.
  mlir::FailureOr<mlir::AffineExpr> getIndexExpr(mlir::Value value,
                                                 std::string &reason) const;

  //===--------------------------------------------------------------------===//
  // Encoding into LinearSystems
  //===--------------------------------------------------------------------===//

  /// Adds one visible variable per shape symbol, bounded to [1, 2^31 - 1],
  /// and the linear `requires` facts. Call first: the symbols then lead the
  /// lexicographic order, so lexmin finds the smallest failing shape.
  llvm::SmallVector<LinearExpr> emitSymbols(LinearSystem &sys) const;

  /// Adds an instance of an op in `scope`: block coordinates bounded by the
  /// grid, loop ivs bounded by their loops, guards.
  Instance emitInstance(LinearSystem &sys, llvm::ArrayRef<LinearExpr> syms,
                        int scope, llvm::StringRef prefix,
                        bool existential) const;
  /// Binds in `inst` the block coordinates and every scope on the chain of
  /// `scope` that `inst` does not bind yet (new variables get `prefix` and
  /// `existential`). The loops in `pastUpperBound` keep their lower bound and
  /// step only: their ivs also range over the iterations the loop skips (C9's
  /// masked tiles).
  void bindScope(LinearSystem &sys, llvm::ArrayRef<LinearExpr> syms,
                 Instance &inst, int scope, llvm::StringRef prefix,
                 bool existential,
                 llvm::ArrayRef<int> pastUpperBound = {}) const;
  /// A copy of `inst` that keeps the block coordinates and only the scopes on
  /// the chain of `scope` (-1: only the block), for a second instance that
  /// shares them.
  Instance restrictInstance(const Instance &inst, int scope) const;

  /// Adds the elements of one instance of `access`.
  AccessInstance emitAccess(LinearSystem &sys, llvm::ArrayRef<LinearExpr> syms,
                            const Instance &instance, const AccessInfo &access,
                            llvm::StringRef prefix, bool existential) const;

  /// Flattens an affine expression over model dims and symbols.
  mlir::FailureOr<LinearExpr> flatten(LinearSystem &sys, mlir::AffineExpr expr,
                                      llvm::ArrayRef<LinearExpr> syms,
                                      const Instance *instance) const;
  /// Flattens each of `constraints` and adds it to `sys`; fails (leaving
  /// `sys` partly constrained) when one cannot be flattened.
  mlir::LogicalResult
  addConstraints(LinearSystem &sys, llvm::ArrayRef<LinearExpr> syms,
                 const Instance *instance,
                 llvm::ArrayRef<AffineConstraint> constraints) const;
  /// `value` (a scalar index) as an affine expression, or null when it
  /// leaves the fragment (getIndexExpr without the reason).
  mlir::AffineExpr lookupIndexExpr(mlir::Value value) const;

  /// The access relation A_s of `access` (which must be modelled).
  AccessRelation getRelation(const AccessInfo &access) const;

  /// Prints the model: symbols, facts, grid, scopes and every access with its
  /// tile coordinates and relation (or why it is unsupported). Dims print as
  /// block0, ..., iv0, ... and symbols by their names.
  void print(llvm::raw_ostream &os) const;
  /// An affine expression over model dims and symbols, with names.
  std::string toString(mlir::AffineExpr expr) const;

private:
  mutable tile::KernelOp kernel;
  std::string unsupported;
  std::vector<std::string> symbols;
  SymbolValues params;
  std::vector<AffineConstraint> facts;
  std::vector<std::pair<std::string, std::string>> droppedFacts;
  std::vector<ShapeFact> allFacts;
  tile::GridOp grid;
  llvm::SmallVector<mlir::AffineExpr> gridExtents;
  unsigned numDims = 0;
  std::vector<ScopeInfo> scopes;
  std::vector<ViewInfo> views;
  std::vector<AccessInfo> accesses;
  llvm::DenseMap<mlir::Operation *, unsigned> viewOfOp, accessOfOp, loopScope;
  llvm::DenseMap<mlir::Region *, unsigned> guardScope;

  struct IndexValue {
    mlir::AffineExpr expr;
    llvm::SmallVector<mlir::AffineExpr> nonNegative;
    std::string error;
  };
  mutable llvm::DenseMap<mlir::Value, IndexValue> indexCache;

  IndexValue lookupIndex(mlir::Value value) const;
  IndexValue computeIndex(mlir::Value value) const;
  void buildFacts();
  void buildScopes(mlir::Region &region, int parent);
  void buildAccess(mlir::Operation *op);
  void buildGuard(mlir::Operation *ifOp, int parent);
};

/// Short description of an op for messages: `tile.load at file:12:5`.
std::string describeOp(mlir::Operation *op);

} // namespace kbench

#endif // KBENCH_ANALYSIS_KERNELMODEL_H
