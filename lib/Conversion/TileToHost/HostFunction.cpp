//===- HostFunction.cpp - A tile kernel's C entry point and grid loop -----===//
//
// The host side of the kernel ABI (docs/bundle.md): a kernel's C entry point
// `void k(void **params, int64_t grid_x, int64_t grid_y, int64_t grid_z)`
// reads argument `i` through `params[i]` in getKernelABI order, wraps every
// data pointer in a dense row-major memref whose extents are the argument's
// named dims, and runs the kernel body once per block, blocks in CUDA's
// linear order (x fastest). The memrefs are built as LLVM descriptor structs
// cast to memref types; the cast pairs cancel once memrefs are lowered to
// LLVM (reconcile-unrealized-casts), which keeps the body free of LLVM ops.
//
//===----------------------------------------------------------------------===//

#include "PassDetail.h"

#include "kbench/Dialect/Tile/IR/KernelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::tile;

/// Loads the value `params[index]` points at, as `type`.
static Value loadParam(OpBuilder &b, Location loc, Value params, int64_t index,
                       Type type) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  Value slot = LLVM::GEPOp::create(b, loc, ptrType, ptrType, params,
                                   ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index)});
  Value valuePtr = LLVM::LoadOp::create(b, loc, ptrType, slot);
  return LLVM::LoadOp::create(b, loc, type, valuePtr);
}

/// Loads a scalar argument of `type`. Index scalars travel as int64_t and
/// i1 scalars as one byte (docs/bundle.md, dtypes).
static Value loadScalar(OpBuilder &b, Location loc, Value params,
                        int64_t index, Type type) {
  if (type.isIndex()) {
    Value value = loadParam(b, loc, params, index, b.getI64Type());
    return arith::IndexCastOp::create(b, loc, type, value);
  }
  if (type.isInteger(1)) {
    Value byte = loadParam(b, loc, params, index, b.getI8Type());
    Value zero = arith::ConstantIntOp::create(b, loc, b.getI8Type(), 0);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, byte, zero);
  }
  return loadParam(b, loc, params, index, type);
}

/// Wraps `data` in a memref of `type`: dense row-major, extents `sizes` (i64)
/// where `type` has dynamic ones.
static Value buildMemref(OpBuilder &b, Location loc, MemRefType type,
                         Value data, ArrayRef<Value> sizes) {
  MLIRContext *ctx = b.getContext();
  Type i64 = b.getI64Type();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  int64_t rank = type.getRank();
  // The memref-to-LLVM descriptor: allocated and aligned pointer, offset,
  // sizes, strides.
  SmallVector<Type> fields = {ptrType, ptrType, i64};
  if (rank > 0) {
    fields.push_back(LLVM::LLVMArrayType::get(i64, rank));
    fields.push_back(LLVM::LLVMArrayType::get(i64, rank));
  }
  auto descType = LLVM::LLVMStructType::getLiteral(ctx, fields);
  auto constant = [&](int64_t value) -> Value {
    return LLVM::ConstantOp::create(b, loc, i64, value);
  };
  Value desc = LLVM::PoisonOp::create(b, loc, descType);
  desc = LLVM::InsertValueOp::create(b, loc, desc, data, ArrayRef<int64_t>{0});
  desc = LLVM::InsertValueOp::create(b, loc, desc, data, ArrayRef<int64_t>{1});
  desc = LLVM::InsertValueOp::create(b, loc, desc, constant(0),
                                     ArrayRef<int64_t>{2});
  Value stride = constant(1);
  for (int64_t d = rank - 1; d >= 0; --d) {
    Value size = type.isDynamicDim(d) ? sizes[d] : constant(type.getDimSize(d));
    desc = LLVM::InsertValueOp::create(b, loc, desc, size,
                                       ArrayRef<int64_t>{3, d});
    desc = LLVM::InsertValueOp::create(b, loc, desc, stride,
                                       ArrayRef<int64_t>{4, d});
    if (d > 0)
      stride = LLVM::MulOp::create(b, loc, stride, size);
  }
  return UnrealizedConversionCastOp::create(b, loc, type, desc).getResult(0);
}

func::FuncOp tile_to_host::buildHostFunction(KernelOp kernel) {
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  OpBuilder b(kernel);
  Type i64 = b.getI64Type();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto func = func::FuncOp::create(
      b, loc, kernel.getSymName(),
      b.getFunctionType({ptrType, i64, i64, i64}, {}));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value params = entry->getArgument(0);

  // Read every argument in ABI order, then wrap the data pointers: the
  // memrefs need the dims, which come last.
  SmallVector<KernelParam> abi = getKernelABI(kernel);
  SmallVector<Value> values;
  llvm::StringMap<Value> dims;
  IRMapping mapping;
  for (auto [index, param] : llvm::enumerate(abi)) {
    if (param.kind == KernelParam::Kind::Scalar) {
      BlockArgument arg = kernel.getArgument(param.argIndex);
      values.push_back(loadScalar(b, loc, params, index, arg.getType()));
      mapping.map(arg, values.back());
      continue;
    }
    bool isDim = param.kind == KernelParam::Kind::Dim;
    values.push_back(
        loadParam(b, loc, params, index, isDim ? i64 : Type(ptrType)));
    if (isDim)
      dims[param.name] = values.back();
  }
  for (auto [index, param] : llvm::enumerate(abi)) {
    if (param.kind != KernelParam::Kind::Memref)
      continue;
    BlockArgument arg = kernel.getArgument(param.argIndex);
    SmallVector<Value> sizes;
    for (const std::string &dim : param.dims)
      sizes.push_back(dims.lookup(dim));
    mapping.map(arg, buildMemref(b, loc, cast<MemRefType>(arg.getType()),
                                 values[index], sizes));
  }

  // The grid: z outermost, x innermost, as CUDA numbers blocks linearly.
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  std::array<Value, 3> extents, blockIds;
  for (int axis = 0; axis < 3; ++axis)
    extents[axis] = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                               entry->getArgument(1 + axis));
  for (int axis = 2; axis >= 0; --axis) {
    auto loop = scf::ForOp::create(b, loc, zero, extents[axis], one);
    blockIds[axis] = loop.getInductionVar();
    b.setInsertionPointToStart(loop.getBody());
  }
  for (Operation &op : kernel.getBody().front().without_terminator())
    b.clone(op, mapping);
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, loc);

  // tile.grid result i is the block id along grid axis i.
  func.walk([&](GridOp grid) {
    for (auto [axis, coord] : llvm::enumerate(grid.getCoords()))
      coord.replaceAllUsesWith(blockIds[axis]);
    grid.erase();
  });
  return func;
}
