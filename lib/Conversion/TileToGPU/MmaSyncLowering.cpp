//===- MmaSyncLowering.cpp - ldmatrix + mma.sync steps (impl = mma_sync) -===//
//
// Tensor cores through mma.sync.aligned.m16n8k16 (bf16 or f16 operands, f32
// accumulators) or m16n8k8 with tf32 (f32 operands, when the kernel allows
// tf32: each float is rounded with cvt.rna.tf32.f32 after its ldmatrix).
// A k8 tf32 step reads the same 32 bytes of a row as a k16 step of halves,
// and ldmatrix moves 16-byte matrix rows whatever they hold, so both share
// the staging, the swizzle (in 16-bit units) and the lane addressing; only
// ldmatrix.trans is 16-bit, so a tf32 operand is always staged as rows of K.
// The rules and the model are in MmaSyncRules.h; the staging of the operands
// into XOR-swizzled shared memory (mmaSyncSwizzle, so that the ldmatrix reads
// are free of bank conflicts) is TensorCore.cpp's. This file reads the staged
// K tile:
//
//   per k16 step (k8 for tf32), every warp loads its A fragments (ldmatrix.x4, one per
//   16-row mma tile; or takes them from registers when A is already held in
//   getMmaSyncOperandALayout, the bf16 cast of an earlier mma result on
//   the same rows) and B fragments (ldmatrix.x4 per pair of 8-column
//   tiles, .x2 for an odd last one) and issues one mma.sync per (row tile,
//   column tile); the accumulator never leaves the registers: its layout is
//   the mma.sync C fragment as a #tile.blocked layout (getMmaSyncLayout), so
//   the epilogue (bias, activation, cast, store) lowers with the ordinary
//   elementwise and memory patterns.
//
// nvgpu.ldmatrix lowers through convert-nvgpu-to-nvvm; the mma is emitted as
// nvvm.mma.sync directly because nvgpu.mma.sync has no bf16 form.
//
//===----------------------------------------------------------------------===//

#include "TensorCore.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::gpu_lowering;

namespace {
/// Builds the index arithmetic of the lowering at one insertion point.
struct IndexBuilder {
  KernelContext &ctx;
  OpBuilder &b;
  Value c(int64_t v) { return ctx.constIndex(b, v); }
  Value add(Value x, Value y) {
    return arith::AddIOp::create(b, ctx.loc, x, y);
  }
  Value add(Value x, int64_t y) { return y ? add(x, c(y)) : x; }
  Value mul(Value x, int64_t y) {
    return y == 1 ? x : arith::MulIOp::create(b, ctx.loc, x, c(y)).getResult();
  }
  Value div(Value x, int64_t y) {
    return y == 1 ? x : arith::DivUIOp::create(b, ctx.loc, x, c(y)).getResult();
  }
  Value rem(Value x, int64_t y) {
    return arith::RemUIOp::create(b, ctx.loc, x, c(y));
  }
  /// mmaSyncSwizzle(row, col, rowElems, elementBytes) in IR: the swizzle of
  /// 16-bit units, a wider element counted as its units.
  Value swizzle(Value row, Value col, int64_t rowElems,
                int64_t elementBytes = 2) {
    int64_t halves = elementBytes / 2;
    int64_t rowUnits = rowElems * halves;
    Value linear = add(mul(row, rowUnits), mul(col, halves));
    Value key = rowUnits >= 64 ? rem(row, 8) : rem(div(row, 64 / rowUnits), 8);
    return div(arith::XOrIOp::create(b, ctx.loc, linear, mul(key, 8)), halves);
  }
};
} // namespace

Value kbench::gpu_lowering::emitMmaSyncSwizzle(KernelContext &ctx, OpBuilder &b,
                                               Value row, Value col,
                                               int64_t rowElems,
                                               int64_t elementBytes) {
  return IndexBuilder{ctx, b}.swizzle(row, col, rowElems, elementBytes);
}

/// The mma operand register of a vector<2xbf16> (an i32), a vector<2xf16>
/// (itself) or a vector<1xf32> (its float rounded to tf32, an i32: round to
/// nearest, ties away from zero, as cvt.rna.tf32.f32).
static Value operandRegister(OpBuilder &b, Location loc, Value pair) {
  Type elementType = cast<VectorType>(pair.getType()).getElementType();
  if (elementType.isF32())
    return NVVM::ConvertFloatToTF32Op::create(
        b, loc, b.getI32Type(),
        vector::ExtractOp::create(b, loc, pair, ArrayRef<int64_t>{0}),
        NVVM::FPRoundingMode::RNA, NVVM::SaturationMode::NONE,
        /*relu=*/false);
  if (!elementType.isBF16())
    return pair;
  Value word = vector::BitCastOp::create(
      b, loc, VectorType::get({1}, b.getI32Type()), pair);
  return vector::ExtractOp::create(b, loc, word, ArrayRef<int64_t>{0});
}

/// The i32 (bf16) or vector<2xf16> (f16) mma operands of an ldmatrix result.
static SmallVector<Value> fragmentRegisters(OpBuilder &b, Location loc,
                                            Value loaded, int64_t count) {
  SmallVector<Value> regs;
  for (int64_t i = 0; i < count; ++i)
    regs.push_back(operandRegister(
        b, loc,
        vector::ExtractOp::create(b, loc, loaded, ArrayRef<int64_t>{i})));
  return regs;
}

/// ldmatrix (.trans when `transpose`) of `tiles` 8x8 matrices of 16-bit
/// elements from `buffer` at element `offset`: a row of each is 16 bytes,
/// which for f32 elements is 4 of them (8 rows x 4 floats, one float per
/// lane).
static Value loadMatrices(OpBuilder &b, Location loc, Type elementType,
                          Value buffer, Value offset, int64_t tiles,
                          bool transpose) {
  auto type = VectorType::get({tiles, 32 / elementType.getIntOrFloatBitWidth()},
                              elementType);
  return nvgpu::LdMatrixOp::create(b, loc, type, buffer, ValueRange{offset},
                                   transpose, tiles);
}

void kbench::gpu_lowering::emitMmaSyncSteps(KernelContext &ctx, OpBuilder &b,
                                            const TensorCorePlan &p, Value bufA,
                                            Value baseA, Value bufB,
                                            Value baseB,
                                            SmallVectorImpl<Value> &acc,
                                            Value registersA) {
  Location loc = ctx.loc;
  const MmaSyncWarpGrid &g = p.grid;
  Value laneRowA, laneColA, laneRowB, laneColB, laneRowBPair;
  // For ldmatrix.trans the lane gives a row of K and the matrix's first
  // column of M or N.
  Value laneKA, laneMA, laneKB, laneNB, laneNBPair;
  {
    // The lane's part of its ldmatrix row address (hoisted): lanes 8j..8j+7
    // give the eight rows of matrix j.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ctx.prologueEnd);
    IndexBuilder ib{ctx, b};
    Value lane = ctx.laneId;
    Value r = ib.rem(lane, 8);
    Value j = ib.div(lane, 8);
    Value jLow = ib.rem(j, 2), jHigh = ib.rem(ib.div(j, 2), 2);
    Value warpM = g.warpsM > 1 ? ib.rem(ctx.warpId, g.warpsM) : ib.c(0);
    Value warpN =
        g.warpsN > 1 ? ib.rem(ib.div(ctx.warpId, g.warpsM), g.warpsN) : ib.c(0);
    // A: matrix j holds rows +8 * (j % 2) and k +8 * (j / 2) of the 16x16
    // tile; mma row r' of tile i is tile row (2i + r'/8) * 8 warpsM + 8 warpM
    // + r' % 8 (the C layout's row repeats).
    laneRowA = ib.add(ib.add(ib.mul(jLow, 8 * g.warpsM), ib.mul(warpM, 8)), r);
    // A matrix row is one 16-byte chunk: 8 halves, or 4 floats (tf32).
    laneColA = ib.mul(jHigh, p.chunkElements());
    // B: matrix j holds k +8 * (j % 2) of column tile +(j / 2) of the pair.
    laneRowB = ib.add(ib.mul(warpN, 8), r);
    laneRowBPair = ib.add(laneRowB, ib.mul(jHigh, 8 * g.warpsN));
    laneColB = ib.mul(jLow, p.chunkElements());
    // .trans (16-bit operands only): the same matrices, addressed by their k
    // rows.
    laneKA = ib.add(ib.mul(jHigh, 8), r);
    laneMA = ib.add(ib.mul(jLow, 8 * g.warpsM), ib.mul(warpM, 8));
    laneKB = ib.add(ib.mul(jLow, 8), r);
    laneNB = ib.mul(warpN, 8);
    laneNBPair = ib.add(laneNB, ib.mul(jHigh, 8 * g.warpsN));
  }
  IndexBuilder ib{ctx, b};
  Type elementType = p.operandType;
  MLIRContext *mlirCtx = b.getContext();
  NVVM::MMATypes ptxType = p.isTf32()             ? NVVM::MMATypes::tf32
                           : elementType.isBF16() ? NVVM::MMATypes::bf16
                                                  : NVVM::MMATypes::f16;
  int64_t stepK = p.stepK(), bytes = p.elementBytes();
  Type f32 = b.getF32Type();
  Type resultType = LLVM::LLVMStructType::getLiteral(mlirCtx, {f32, f32, f32, f32});
  int64_t colCount = 2 * g.tilesN; // per-thread positions along N
  for (int64_t kk = 0; kk < p.k / stepK; ++kk) {
    SmallVector<SmallVector<Value>> fragA, fragB;
    for (int64_t i = 0; i < g.tilesM; ++i) {
      if (registersA) {
        SmallVector<Value> regs;
        for (Value pair : getRegisterFragmentA(b, loc, p, registersA, i, kk))
          regs.push_back(operandRegister(b, loc, pair));
        fragA.push_back(regs);
        continue;
      }
      Value at = p.kMajorA
                     ? ib.swizzle(ib.add(laneKA, kk * stepK),
                                  ib.add(laneMA, i * 16 * g.warpsM), p.m)
                     : ib.swizzle(ib.add(laneRowA, i * 16 * g.warpsM),
                                  ib.add(laneColA, kk * stepK), p.k, bytes);
      Value loaded = loadMatrices(b, loc, elementType, bufA,
                                  baseA ? ib.add(at, baseA) : at, 4, p.kMajorA);
      fragA.push_back(fragmentRegisters(b, loc, loaded, 4));
    }
    for (int64_t jt = 0; jt < g.tilesN; jt += 2) {
      bool pair = jt + 1 < g.tilesN;
      Value at =
          p.kMajorB
              ? ib.swizzle(
                    ib.add(laneKB, kk * stepK),
                    ib.add(pair ? laneNBPair : laneNB, jt * 8 * g.warpsN), p.n)
              : ib.swizzle(
                    ib.add(pair ? laneRowBPair : laneRowB, jt * 8 * g.warpsN),
                    ib.add(laneColB, kk * stepK), p.k, bytes);
      Value loaded =
          loadMatrices(b, loc, elementType, bufB, baseB ? ib.add(at, baseB) : at,
                       pair ? 4 : 2, p.kMajorB);
      SmallVector<Value> regs = fragmentRegisters(b, loc, loaded, pair ? 4 : 2);
      fragB.push_back({regs[0], regs[1]});
      if (pair)
        fragB.push_back({regs[2], regs[3]});
    }
    for (int64_t i = 0; i < g.tilesM; ++i) {
      for (int64_t jt = 0; jt < g.tilesN; ++jt) {
        // C registers c0..c3: rows g, g, g+8, g+8; columns 2t, 2t+1.
        SmallVector<int64_t, 4> flat;
        for (int64_t reg = 0; reg < 4; ++reg)
          flat.push_back((2 * i + reg / 2) * colCount + 2 * jt + reg % 2);
        SmallVector<Value> c;
        for (int64_t f : flat)
          c.push_back(acc[f]);
        auto mma = NVVM::MmaOp::create(
            b, loc, resultType, fragA[i], fragB[jt], c,
            ArrayRef<int64_t>{kMmaSyncM, kMmaSyncN, stepK},
            /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
            std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
            std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                           NVVM::MMALayout::col});
        for (auto [reg, f] : llvm::enumerate(flat))
          acc[f] = LLVM::ExtractValueOp::create(b, loc, mma.getResult(),
                                                ArrayRef<int64_t>{
                                                    static_cast<int64_t>(reg)});
      }
    }
  }
}
