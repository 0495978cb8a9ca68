//===- WgmmaLowering.cpp - descriptors + wgmma.mma_async (impl = wgmma) ---===//
//
// Hopper's warpgroup tensor-core instruction. The rules and the model are in
// WgmmaRules.h; the staging of the operands (rows of 64 K elements in the
// 128-byte swizzle, 1024-byte aligned buffers, A's rows in D-fragment order)
// is TensorCore.cpp's. This file reads one staged K tile:
//
//   every warpgroup issues, per k16 step, one wgmma.mma_async m64nNk16 per
//   64-row tile it owns; A and B are named by 64-bit matrix descriptors
//   (start address >> 4 in bits 0..13, leading byte offset >> 4 in bits
//   16..29, stride byte offset >> 4 in bits 32..45, swizzle mode 1 = 128
//   bytes in bits 62..63).
//
//   Rows of K (A, and an NxK B): the stride byte offset is 1024, between
//   8-row groups; the leading byte offset is unused by K-major swizzled
//   layouts (16); a k16 step advances the start address by 32 bytes inside
//   the swizzled row, which the hardware swizzles as it addresses it, and
//   every fourth step starts on the next block of 64 K elements (a K tile
//   of 128 is staged as two such blocks, each with all the rows).
//
//   A KxN B, N-major (imm-trans-b = 1, NVVM's layout "row" for B): each
//   128-byte row holds 64 N elements of one k, 8 rows of k form a
//   1024-byte swizzle atom; the stride byte offset (1024) steps between the
//   atoms along K, the leading byte offset between the 64-element columns
//   along N (K rows of 128 bytes); a k16 step advances the start address by
//   16 rows, two whole atoms.
//
// The accumulators enter the group after wgmma.fence (their registers were
// written by other instructions) and are read only after the group's
// wgmma.wait_group 0, so ptxas never has to serialize the instructions; the
// staged buffers may be overwritten after the barrier that follows.
//
//===----------------------------------------------------------------------===//

#include "TensorCore.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

/// Bytes of one staged row of K (64 16-bit elements) and of an 8-row group,
/// the descriptor's stride byte offset.
static constexpr int64_t kRowBytes = 2 * kWgmmaRowElems;
static constexpr int64_t kRowGroupBytes = 8 * kRowBytes;

/// The descriptor bits that do not depend on the address: a leading byte
/// offset of `leadingBytes`, stride byte offset 1024 bytes, 128-byte
/// swizzle.
static uint64_t getDescriptorFlags(int64_t leadingBytes) {
  return (uint64_t(leadingBytes >> 4) << 16) |
         (uint64_t(kRowGroupBytes >> 4) << 32) | (uint64_t(1) << 62);
}
/// Rows of K: the leading byte offset is unused (16 bytes).
static constexpr int64_t kUnusedLeadingBytes = 16;

Value kbench::gpu_lowering::emitWgmmaStagedRow(KernelContext &ctx,
                                               OpBuilder &b, Value row,
                                               int64_t m, int64_t numWarps) {
  Location loc = ctx.loc;
  auto c = [&](int64_t v) { return ctx.constIndex(b, v); };
  auto div = [&](Value x, int64_t y) -> Value {
    return arith::DivUIOp::create(b, loc, x, c(y));
  };
  auto rem = [&](Value x, int64_t y) -> Value {
    return arith::RemUIOp::create(b, loc, x, c(y));
  };
  auto mul = [&](Value x, int64_t y) -> Value {
    return arith::MulIOp::create(b, loc, x, c(y));
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  int64_t warpgroupWarps = 4;
  int64_t tilesPerWarpgroup = m / (kWgmmaM * (numWarps / warpgroupWarps));
  Value g = rem(row, 8);
  Value warp = rem(div(row, 8), numWarps);
  Value rep = div(row, 8 * numWarps);
  Value tile = add(mul(div(warp, warpgroupWarps), tilesPerWarpgroup),
                   div(rep, 2));
  return add(add(mul(tile, kWgmmaM), mul(rem(warp, warpgroupWarps), 16)),
             add(mul(rem(rep, 2), 8), g));
}

void kbench::gpu_lowering::emitStagingFence(KernelContext &ctx, OpBuilder &b,
                                            const TensorCorePlan &p) {
  if (!p.isWgmma())
    return;
  NVVM::FenceProxyOp::create(
      b, ctx.loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(), NVVM::SharedSpace::shared_cta));
}

/// The descriptor of a staged buffer's element `base` (null: 0): the shared
/// address's bits 4..17 and the flags (getDescriptorFlags(leadingBytes)).
static Value emitDescriptorBase(KernelContext &ctx, OpBuilder &b, Value buffer,
                                Value base, int64_t leadingBytes) {
  Location loc = ctx.loc;
  Type i64 = b.getI64Type();
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  if (base)
    address = arith::AddIOp::create(
        b, loc, address,
        arith::MulIOp::create(b, loc, base, ctx.constIndex(b, 2)));
  Value word = arith::IndexCastUIOp::create(b, loc, i64, address);
  auto constant = [&](uint64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, i64,
                                     b.getI64IntegerAttr(int64_t(v)));
  };
  Value field = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, word, constant(0x3FFFF)),
      constant(4));
  return arith::OrIOp::create(b, loc, field,
                              constant(getDescriptorFlags(leadingBytes)));
}

/// Per-thread facts of the accumulator registers of a plan's wgmma tiles.
namespace {
struct WgmmaAccumulators {
  int64_t tiles;    // wgmma tiles per warpgroup
  int64_t regs;     // f32 registers per thread per tile
  int64_t colCount; // per-thread columns of the flat layout
  LLVM::LLVMStructType structType;

  explicit WgmmaAccumulators(const TensorCorePlan &p, MLIRContext *ctx)
      : tiles(p.m / (kWgmmaM * (p.numWarps / 4))), regs(p.n / 2),
        colCount(p.n / 4) {
    SmallVector<Type> fields(regs, Float32Type::get(ctx));
    structType = LLVM::LLVMStructType::getLiteral(ctx, fields);
  }
  /// Register i of tile t is row g + 8 ((i / 2) % 2), column 8 (i / 4) +
  /// 2 (lane % 4) + i % 2 of the tile, which getWgmmaLayout keeps at flat
  /// position (2 t + (i / 2) % 2) * colCount + 2 (i / 4) + i % 2.
  int64_t flatIndex(int64_t tile, int64_t i) const {
    return (2 * tile + (i / 2) % 2) * colCount + 2 * (i / 4) + i % 2;
  }
};
} // namespace

SmallVector<Value> kbench::gpu_lowering::packWgmmaAccumulators(
    KernelContext &ctx, OpBuilder &b, const TensorCorePlan &p,
    ArrayRef<Value> elements) {
  WgmmaAccumulators accs(p, b.getContext());
  SmallVector<Value> structs;
  for (int64_t tile = 0; tile < accs.tiles; ++tile) {
    Value s = LLVM::PoisonOp::create(b, ctx.loc, accs.structType);
    for (int64_t i = 0; i < accs.regs; ++i)
      s = LLVM::InsertValueOp::create(b, ctx.loc, s,
                                      elements[accs.flatIndex(tile, i)],
                                      ArrayRef<int64_t>{i});
    structs.push_back(s);
  }
  return structs;
}

void kbench::gpu_lowering::unpackWgmmaAccumulators(
    KernelContext &ctx, OpBuilder &b, const TensorCorePlan &p,
    ArrayRef<Value> structs, SmallVectorImpl<Value> &elements) {
  WgmmaAccumulators accs(p, b.getContext());
  for (int64_t tile = 0; tile < accs.tiles; ++tile)
    for (int64_t i = 0; i < accs.regs; ++i)
      elements[accs.flatIndex(tile, i)] = LLVM::ExtractValueOp::create(
          b, ctx.loc, structs[tile], ArrayRef<int64_t>{i});
}

/// The four 32-bit A registers of wgmma tile `tile`'s k16 step `kk`
/// (getRegisterFragmentA, each pair of 16-bit elements as one word).
static SmallVector<Value> getWgmmaRegistersA(OpBuilder &b, Location loc,
                                             const TensorCorePlan &p,
                                             Value registersA, int64_t tile,
                                             int64_t kk) {
  SmallVector<Value> words;
  for (Value pair : getRegisterFragmentA(b, loc, p, registersA, tile, kk)) {
    Value word = vector::BitCastOp::create(
        b, loc, VectorType::get({1}, b.getI32Type()), pair);
    words.push_back(
        vector::ExtractOp::create(b, loc, word, ArrayRef<int64_t>{0}));
  }
  return words;
}

/// wgmma.mma_async m64nNk16 with A from the four registers `regsA`: D +=
/// A B into the struct `acc`. NVVM's wgmma.mma_async op names A by a
/// descriptor only, so this form is inline PTX, with the accumulators tied
/// to the outputs ("=f" and "0".."N/2-1"), the A words "r" and the B
/// descriptor "l"; scale-d is the predicate p = true (accumulate), A and B
/// unscaled, imm-trans-b as for the descriptor form.
static Value emitWgmmaRegisterA(OpBuilder &b, Location loc,
                                const TensorCorePlan &p,
                                LLVM::LLVMStructType structType, Value acc,
                                ArrayRef<Value> regsA, Value descB,
                                bool nMajorB) {
  int64_t regs = p.n / 2;
  StringRef type = p.operandType.isBF16() ? "bf16" : "f16";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
     << "wgmma.mma_async.sync.aligned.m64n" << p.n << "k16.f32." << type << "."
     << type << " {";
  for (int64_t i = 0; i < regs; ++i)
    os << (i ? ", " : "") << "$" << i;
  os << "}, {$" << 2 * regs << ", $" << 2 * regs + 1 << ", $" << 2 * regs + 2
     << ", $" << 2 * regs + 3 << "}, $" << 2 * regs + 4 << ", p, 1, 1, "
     << (nMajorB ? 1 : 0) << ";\n}";
  std::string constraints;
  llvm::raw_string_ostream cs(constraints);
  for (int64_t i = 0; i < regs; ++i)
    cs << "=f,";
  for (int64_t i = 0; i < regs; ++i)
    cs << i << ",";
  cs << "r,r,r,r,l";
  SmallVector<Value> operands;
  for (int64_t i = 0; i < regs; ++i)
    operands.push_back(
        LLVM::ExtractValueOp::create(b, loc, acc, ArrayRef<int64_t>{i}));
  operands.append(regsA.begin(), regsA.end());
  operands.push_back(descB);
  return LLVM::InlineAsmOp::create(
             b, loc, structType, operands, text, constraints,
             /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr::get(b.getContext(),
                                       LLVM::AsmDialect::AD_ATT),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}

void kbench::gpu_lowering::emitWgmmaGroup(
    KernelContext &ctx, OpBuilder &b, const TensorCorePlan &p, Value bufA,
    Value baseA, Value bufB, Value baseB, SmallVectorImpl<Value> &structs,
    int64_t pendingGroups, Value registersA, function_ref<void()> afterCommit) {
  Location loc = ctx.loc;
  MLIRContext *mlirCtx = b.getContext();
  Type i64 = b.getI64Type();
  WgmmaAccumulators accs(p, mlirCtx);
  int64_t warpgroups = p.numWarps / 4;
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
  };
  // The warpgroup's first A row, in descriptor units (16 bytes).
  Value descA =
      registersA ? Value()
                 : emitDescriptorBase(ctx, b, bufA, baseA, kUnusedLeadingBytes);
  if (descA && warpgroups > 1) {
    Value warpgroup = arith::DivUIOp::create(b, loc, ctx.warpId,
                                             ctx.constIndex(b, 4));
    Value offset = arith::MulIOp::create(
        b, loc, arith::IndexCastUIOp::create(b, loc, i64, warpgroup),
        constant(accs.tiles * kWgmmaM * kRowBytes >> 4));
    descA = arith::AddIOp::create(b, loc, descA, offset);
  }
  // B N-major (a KxN B): the leading byte offset steps over a column of K
  // rows of 128 bytes.
  bool nMajorB = !p.transB;
  Value descB = emitDescriptorBase(
      ctx, b, bufB, baseB, nMajorB ? p.k * kRowBytes : kUnusedLeadingBytes);
  NVVM::MMALayout layoutB =
      nMajorB ? NVVM::MMALayout::row : NVVM::MMALayout::col;

  NVVM::WGMMATypes operand = p.operandType.isBF16() ? NVVM::WGMMATypes::bf16
                                                    : NVVM::WGMMATypes::f16;
  auto shape = NVVM::MMAShapeAttr::get(mlirCtx, kWgmmaM, p.n, kWgmmaK);
  // A from registers: every word is packed before the fence, which must
  // follow the last write of a register a wgmma of the group reads.
  SmallVector<SmallVector<Value>> wordsA;
  if (registersA)
    for (int64_t kk = 0; kk < p.k / kWgmmaK; ++kk)
      for (int64_t tile = 0; tile < accs.tiles; ++tile)
        wordsA.push_back(getWgmmaRegistersA(b, loc, p, registersA, tile, kk));
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  for (int64_t kk = 0; kk < p.k / kWgmmaK; ++kk) {
    // A k16 step is 32 bytes further along a swizzled row of K; every 4
    // steps the next block of 64 K elements begins (all M or N rows of the
    // block before it further on). In B's N-major columns it is 16 rows
    // further down.
    int64_t block = kk * kWgmmaK / kWgmmaRowElems;
    int64_t inRow = kk * kWgmmaK % kWgmmaRowElems * 2;
    int64_t stepOffset = (block * p.m * kRowBytes + inRow) >> 4;
    int64_t stepOffsetB = nMajorB ? kk * kWgmmaK * kRowBytes >> 4
                                  : (block * p.n * kRowBytes + inRow) >> 4;
    Value stepB = arith::AddIOp::create(b, loc, descB, constant(stepOffsetB));
    for (int64_t tile = 0; tile < accs.tiles; ++tile) {
      if (registersA) {
        structs[tile] =
            emitWgmmaRegisterA(b, loc, p, accs.structType, structs[tile],
                               wordsA[kk * accs.tiles + tile], stepB, nMajorB);
        continue;
      }
      Value stepA = arith::AddIOp::create(
          b, loc, descA,
          constant(stepOffset + (tile * kWgmmaM * kRowBytes >> 4)));
      structs[tile] = NVVM::WgmmaMmaAsyncOp::create(
          b, loc, accs.structType, structs[tile], stepA, stepB, shape, operand,
          operand, NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
          NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
          NVVM::MMALayout::row, layoutB,
          /*satfinite=*/NVVM::MMAIntOverflowAttr());
    }
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  if (afterCommit)
    afterCommit();
  if (pendingGroups != kWgmmaNoWait)
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, pendingGroups);
}

void kbench::gpu_lowering::emitWgmmaSteps(KernelContext &ctx, OpBuilder &b,
                                          const TensorCorePlan &p, Value bufA,
                                          Value baseA, Value bufB, Value baseB,
                                          SmallVectorImpl<Value> &acc,
                                          Value registersA, bool waitForGroup,
                                          function_ref<void()> afterCommit) {
  SmallVector<Value> structs = packWgmmaAccumulators(ctx, b, p, acc);
  emitWgmmaGroup(ctx, b, p, bufA, baseA, bufB, baseB, structs,
                 waitForGroup ? 0 : kWgmmaNoWait, registersA, afterCommit);
  unpackWgmmaAccumulators(ctx, b, p, structs, acc);
}

scf::IfOp kbench::gpu_lowering::openInFlightWgmmaLoop(OpBuilder &b,
                                                      Location loc, Value lb,
                                                      Value ub,
                                                      ValueRange init) {
  Value anySteps =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lb, ub);
  auto guard = scf::IfOp::create(b, loc, init.getTypes(), anySteps,
                                 /*withElseRegion=*/true);
  b.setInsertionPointToStart(guard.elseBlock());
  scf::YieldOp::create(b, loc, init);
  b.setInsertionPointToStart(guard.thenBlock());
  return guard;
}

ValueRange kbench::gpu_lowering::closeInFlightWgmmaLoop(OpBuilder &b,
                                                        Location loc,
                                                        scf::IfOp guard,
                                                        ValueRange results) {
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  scf::YieldOp::create(b, loc, results);
  b.setInsertionPointAfter(guard);
  return guard.getResults();
}
