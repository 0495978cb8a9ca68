//===- TileToHost.cpp - The tile-to-host pass -----------------------------===//
//
// The recipe: check that every kernel can be lowered (one error per op that
// cannot, before anything changes), drop the host-level launch code, then for
// each kernel build its host function (HostFunction.cpp) and rewrite the tile
// ops in it (TileOpLowering.cpp).
//
//===----------------------------------------------------------------------===//

#include "kbench/Conversion/TileToHost/TileToHost.h"

#include "PassDetail.h"
#include "kbench/Dialect/Tile/IR/KernelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace kbench {
#define GEN_PASS_DEF_TILETOHOST
#include "kbench/Conversion/TileToHost/Passes.h.inc"
} // namespace kbench

using namespace mlir;
using namespace kbench;
using namespace kbench::tile;

/// Whether `name` is a C library function that the code in kernel.so calls
/// or may call (allocation, memory copies, libm). A kernel exported under
/// such a name would take the place of the library function.
static bool isCLibraryName(StringRef name) {
  static constexpr StringLiteral kLibc[] = {
      "abort",   "aligned_alloc", "calloc", "free",   "malloc",
      "memcmp",  "memcpy",        "memmove", "memset", "posix_memalign",
      "realloc"};
  // <math.h> functions; each also exists with an `f` and an `l` suffix.
  static constexpr StringLiteral kLibm[] = {
      "acos",  "acosh",     "asin",      "asinh",      "atan",    "atan2",
      "atanh", "cbrt",      "ceil",      "copysign",   "cos",     "cosh",
      "erf",   "erfc",      "exp",       "exp10",      "exp2",    "expm1",
      "fabs",  "fdim",      "floor",     "fma",        "fmax",    "fmin",
      "fmod",  "frexp",     "hypot",     "ilogb",      "ldexp",   "lgamma",
      "llrint", "llround",  "log",       "log10",      "log1p",   "log2",
      "logb",  "lrint",     "lround",    "modf",       "nan",     "nearbyint",
      "nextafter", "nexttoward", "pow",  "remainder",  "remquo",  "rint",
      "round", "roundeven", "scalbln",   "scalbn",     "sin",     "sincos",
      "sinh",  "sqrt",      "tan",       "tanh",       "tgamma",  "trunc"};
  auto isLibm = [&](StringRef base) {
    return llvm::is_contained(kLibm, base);
  };
  // Names starting with "__" belong to the compiler runtime.
  return name.starts_with("__") || llvm::is_contained(kLibc, name) ||
         isLibm(name) ||
         ((name.ends_with("f") || name.ends_with("l")) &&
          isLibm(name.drop_back()));
}

LogicalResult tile_to_host::checkLowerable(KernelOp kernel) {
  bool lowerable = true;
  if (isCLibraryName(kernel.getSymName())) {
    kernel.emitOpError("is named '")
        << kernel.getSymName()
        << "', a C library function that kernel.so calls or may call; the "
           "host target cannot export a kernel under that name; rename it";
    lowerable = false;
  }
  for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    Type elementType = type;
    if (auto memref = dyn_cast<MemRefType>(type))
      elementType = memref.getElementType();
    if (!getDtypeName(elementType).empty())
      continue;
    kernel.emitOpError("argument #")
        << index << " has element type " << elementType
        << ", which the kernel ABI cannot pass (docs/bundle.md dtypes: f32, "
           "f16, bf16, f64, i8, i32, i64, i1); convert it inside the kernel";
    lowerable = false;
  }

  kernel.getBody().walk([&](Operation *op) {
    Dialect *dialect = op->getDialect();
    if (!isa_and_nonnull<TileDialect, arith::ArithDialect, math::MathDialect,
                         scf::SCFDialect, tensor::TensorDialect>(dialect)) {
      op->emitOpError("cannot be lowered by tile-to-host: a kernel body may "
                      "only hold tile, arith, math, scf and tensor ops");
      lowerable = false;
      return;
    }
    // The dialect verifier guarantees partitions view kernel arguments.
    auto partition = dyn_cast<PartitionOp>(op);
    if (!partition)
      return;
    // Views are resolved statically: each access must name its partition.
    for (Operation *user : partition->getUsers()) {
      if (isa<ViewAccessOpInterface, ViewScalarOpInterface, GridOp>(user))
        continue;
      user->emitOpError("cannot be lowered by tile-to-host: it uses a tile "
                        "view, which may only be used by tile.load, "
                        "tile.gather, tile.store, tile.atomic_add, tile.num_tiles, "
                        "tile.extent, tile.tile_size and tile.grid; use the tile.partition result directly "
                        "instead of passing it through ")
          << user->getName();
      lowerable = false;
    }
  });
  return success(lowerable);
}

namespace {
struct TileToHostPass : kbench::impl::TileToHostBase<TileToHostPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<KernelOp> kernels(module.getOps<KernelOp>());
    bool lowerable = true;
    for (KernelOp kernel : kernels)
      lowerable &= succeeded(tile_to_host::checkLowerable(kernel));
    if (!lowerable)
      return signalPassFailure();

    // Host-level code (tile.launch sequences) is not part of kernel.so: the
    // runner runs the launch sequence from the bundle manifest.
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      func.erase();
    module.walk([](LaunchOp launch) { launch.erase(); });

    RewritePatternSet patterns(&getContext());
    tile_to_host::populateTileOpLoweringPatterns(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));
    for (KernelOp kernel : kernels) {
      func::FuncOp func = tile_to_host::buildHostFunction(kernel);
      kernel.erase();
      walkAndApplyPatterns(func, frozen);
      // Every access was rewritten (checkLowerable admits no other use).
      func.walk([](PartitionOp partition) { partition.erase(); });
    }
  }
};
} // namespace
