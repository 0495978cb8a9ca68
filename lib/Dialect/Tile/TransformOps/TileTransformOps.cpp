//===- TileTransformOps.cpp - transform.tile.* knob ops -------------------===//
//
// Syntax, verifiers and apply() of the ops in TileTransformOps.td, plus the
// extension that registers them. apply() resolves the target kernels and the
// knob value, edits each kernel through PayloadEdits and then checks the
// result (KnobRules.h); any failure undoes every edit and becomes a
// silenceable error, so schedules can try alternatives and the payload is
// never left invalid. The file holds the apply() of every op, knob and
// structural, because they share the handle and value helpers below (hence
// its length); the structural rewrites themselves live in SinglePass.cpp,
// SplitReduction.cpp and RowsPerCta.cpp.
//
//===----------------------------------------------------------------------===//

#include "kbench/Dialect/Tile/TransformOps/TileTransformOps.h"

#include "KnobRules.h"
#include "MaskBoundaryTiles.h"
#include "Persistent.h"
#include "RowsPerCta.h"
#include "SinglePass.h"
#include "SplitReduction.h"
#include "StageEpilogue.h"
#include "StageTransposes.h"
#include "TmaStore.h"
#include "WarpSpecialize.h"
#include "kbench/Conversion/TileToGPU/Pipelining.h"
#include "kbench/Conversion/TileToGPU/TmaRules.h"
#include "kbench/Conversion/TileToGPU/WgmmaRules.h"
#include "kbench/Dialect/Tile/IR/KernelABI.h"
#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace kbench;
using namespace kbench::transform;
using kbench::tile::KernelOp;

//===----------------------------------------------------------------------===//
// Syntax: `{BM = 128, BN = %bn}` and `8` / `%w`
//===----------------------------------------------------------------------===//

static ParseResult parseParamAssignments(
    OpAsmParser &parser, ArrayAttr &names, DenseI64ArrayAttr &staticValues,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &dynamicValues) {
  Builder &builder = parser.getBuilder();
  SmallVector<Attribute> nameAttrs;
  SmallVector<int64_t> values;
  auto parseAssignment = [&]() -> ParseResult {
    std::string name;
    if (parser.parseKeywordOrString(&name))
      return failure();
    if (parser.parseEqual())
      return failure();
    OpAsmParser::UnresolvedOperand operand;
    OptionalParseResult isOperand = parser.parseOptionalOperand(operand);
    if (isOperand.has_value()) {
      if (failed(*isOperand))
        return failure();
      dynamicValues.push_back(operand);
      values.push_back(ShapedType::kDynamic);
    } else {
      int64_t value;
      if (parser.parseInteger(value))
        return failure();
      values.push_back(value);
    }
    nameAttrs.push_back(builder.getStringAttr(name));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Braces,
                                     parseAssignment,
                                     " in param assignments {BM = 128, ...}"))
    return failure();
  names = builder.getArrayAttr(nameAttrs);
  staticValues = builder.getDenseI64ArrayAttr(values);
  return success();
}

static void printParamAssignments(OpAsmPrinter &p, Operation *, ArrayAttr names,
                                  DenseI64ArrayAttr staticValues,
                                  OperandRange dynamicValues) {
  p << '{';
  auto dynamic = dynamicValues.begin();
  llvm::interleaveComma(
      llvm::zip(names, staticValues.asArrayRef()), p, [&](auto entry) {
        p.printKeywordOrString(cast<StringAttr>(std::get<0>(entry)).getValue());
        p << " = ";
        if (ShapedType::isDynamic(std::get<1>(entry)))
          p.printOperand(*dynamic++);
        else
          p << std::get<1>(entry);
      });
  p << '}';
}

static ParseResult
parseKnobValue(OpAsmParser &parser, IntegerAttr &staticValue,
               std::optional<OpAsmParser::UnresolvedOperand> &dynamicValue) {
  OpAsmParser::UnresolvedOperand operand;
  OptionalParseResult isOperand = parser.parseOptionalOperand(operand);
  if (isOperand.has_value()) {
    if (failed(*isOperand))
      return failure();
    dynamicValue = operand;
    return success();
  }
  int64_t value;
  if (parser.parseInteger(value))
    return failure();
  staticValue = parser.getBuilder().getI64IntegerAttr(value);
  return success();
}

static void printKnobValue(OpAsmPrinter &p, Operation *,
                           IntegerAttr staticValue, Value dynamicValue) {
  if (dynamicValue)
    p.printOperand(dynamicValue);
  else
    p << staticValue.getInt();
}

/// `tma` or `cp_async`, a bare keyword.
static ParseResult parseOperandCopies(OpAsmParser &parser, StringAttr &copies) {
  SMLoc at = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  if (!gpu_lowering::parseOperandCopies(keyword))
    return parser.emitError(at, "expected `tma` or `cp_async`, got `")
           << keyword << "`";
  copies = parser.getBuilder().getStringAttr(keyword);
  return success();
}

static void printOperandCopies(OpAsmPrinter &p, Operation *,
                               StringAttr copies) {
  p << copies.getValue();
}

#define GET_OP_CLASSES
#include "kbench/Dialect/Tile/TransformOps/TileTransformOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared apply() steps
//===----------------------------------------------------------------------===//

/// The distinct tile.kernels that `target`'s payload ops are or lie in.
static DiagnosedSilenceableFailure
collectKernels(Operation *op, Value target,
               mlir::transform::TransformState &state,
               SmallVectorImpl<KernelOp> &kernels) {
  for (Operation *payload : state.getPayloadOps(target)) {
    auto kernel = dyn_cast<KernelOp>(payload);
    if (!kernel)
      kernel = payload->getParentOfType<KernelOp>();
    if (!kernel) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableFailure(op->getLoc())
          << op->getName() << ": target " << payload->getName()
          << " is neither a tile.kernel nor inside one; match kernels with "
             "transform.structured.match ops{[\"tile.kernel\"]} in %root";
      diag.attachNote(payload->getLoc()) << "target payload op";
      return diag;
    }
    if (!llvm::is_contained(kernels, kernel))
      kernels.push_back(kernel);
  }
  if (kernels.empty())
    return emitSilenceableFailure(op->getLoc())
           << op->getName()
           << ": the target handle is empty, so the schedule matched no "
              "tile.kernel; check the match (ops{[\"tile.kernel\"]}, or "
              "attributes{tile.tag = ...} on an op of the kernel)";
  return DiagnosedSilenceableFailure::success();
}

/// The single integer a `!transform.param<i64>` knob operand holds.
static DiagnosedSilenceableFailure
resolveKnob(Operation *op, Value param, StringRef knob,
            mlir::transform::TransformState &state, int64_t &value) {
  ArrayRef<Attribute> values = state.getParams(param);
  if (values.size() != 1)
    return emitSilenceableFailure(op->getLoc())
           << op->getName() << ": the value of " << knob
           << " is a param holding " << values.size()
           << " values; pass exactly one (a transform.tune.knob with "
              "`= V from options`, or a single transform.param.constant)";
  value = cast<IntegerAttr>(values.front()).getInt();
  return DiagnosedSilenceableFailure::success();
}

/// Runs `edit` on every kernel, then checks every knob rule and verifies it.
/// The first failure undoes the edits of all kernels.
static DiagnosedSilenceableFailure editKernels(
    Operation *op, ArrayRef<KernelOp> kernels,
    llvm::function_ref<std::optional<KnobFailure>(KernelOp, PayloadEdits &)>
        edit) {
  PayloadEdits edits;
  for (KernelOp kernel : kernels) {
    std::optional<KnobFailure> failure = edit(kernel, edits);
    // Knob rules first: they name the knob (num_warps = 0 would otherwise
    // surface as the kernel verifier's generic "must be positive").
    if (!failure)
      failure = checkKnobs(kernel);
    if (!failure)
      failure = verifyKernel(kernel);
    if (!failure)
      continue;
    edits.undo();
    DiagnosedSilenceableFailure diag = emitSilenceableFailure(op->getLoc())
                                       << op->getName() << ": "
                                       << failure->message;
    diag.attachNote(failure->where) << failure->note;
    return diag;
  }
  return DiagnosedSilenceableFailure::success();
}

/// apply() of the ops that store one knob param.
static DiagnosedSilenceableFailure
applyKnob(Operation *op, Value target, std::optional<int64_t> staticValue,
          Value dynamicValue, StringRef param,
          mlir::transform::TransformState &state) {
  SmallVector<KernelOp> kernels;
  DiagnosedSilenceableFailure found =
      collectKernels(op, target, state, kernels);
  if (!found.succeeded())
    return found;
  int64_t value = staticValue.value_or(0);
  if (dynamicValue) {
    DiagnosedSilenceableFailure resolved =
        resolveKnob(op, dynamicValue, param, state, value);
    if (!resolved.succeeded())
      return resolved;
  }
  // The knob's own rules (range, ...) live in checkKnobs, which every op runs
  // after its edit.
  return editKernels(op, kernels, [&](KernelOp kernel, PayloadEdits &edits) {
    setParam(kernel, param, value, edits);
    return std::optional<KnobFailure>();
  });
}

static void readTargetsAndModifyPayload(
    Operation *op, SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  mlir::transform::onlyReadsHandle(op->getOpOperands(), effects);
  mlir::transform::modifiesPayload(effects);
}

static LogicalResult verifyKnobOperands(Operation *op, IntegerAttr staticValue,
                                        Value dynamicValue) {
  if (static_cast<bool>(staticValue) == static_cast<bool>(dynamicValue))
    return op->emitOpError("needs exactly one value: an integer or a "
                           "!transform.param<i64>");
  return success();
}

//===----------------------------------------------------------------------===//
// SetParamsOp
//===----------------------------------------------------------------------===//

/// The op that owns knob param `name`, or "" for a tile-size param.
static StringRef knobOpFor(StringRef name) {
  const KnobSpec *spec = lookupKnob(name.str());
  return spec ? spec->op : "";
}

LogicalResult SetParamsOp::verify() {
  if (getNames().size() != getStaticValues().size())
    return emitOpError("has ") << getNames().size() << " names but "
                               << getStaticValues().size() << " values";
  if (getNames().empty())
    return emitOpError("sets no params; write {BM = 128, ...}");
  int64_t dynamicCount = llvm::count_if(
      getStaticValues(), [](int64_t v) { return ShapedType::isDynamic(v); });
  if (dynamicCount != static_cast<int64_t>(getDynamicValues().size()))
    return emitOpError("marks ") << dynamicCount << " values as params but has "
                                 << getDynamicValues().size() << " operands";
  llvm::StringSet<> seen;
  for (Attribute name : getNames())
    if (!seen.insert(cast<StringAttr>(name).getValue()).second)
      return emitOpError("sets ") << name << " twice";
  return success();
}

void SetParamsOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  readTargetsAndModifyPayload(*this, effects);
}

DiagnosedSilenceableFailure
SetParamsOp::apply(mlir::transform::TransformRewriter &,
                   mlir::transform::TransformResults &,
                   mlir::transform::TransformState &state) {
  SmallVector<KernelOp> kernels;
  DiagnosedSilenceableFailure found =
      collectKernels(*this, getTarget(), state, kernels);
  if (!found.succeeded())
    return found;

  SmallVector<std::pair<StringRef, int64_t>> assignments;
  auto dynamic = getDynamicValues().begin();
  for (auto [nameAttr, staticValue] :
       llvm::zip(getNames(), getStaticValues())) {
    StringRef name = cast<StringAttr>(nameAttr).getValue();
    int64_t value = staticValue;
    if (ShapedType::isDynamic(staticValue)) {
      DiagnosedSilenceableFailure resolved =
          resolveKnob(*this, *dynamic++, name, state, value);
      if (!resolved.succeeded())
        return resolved;
    }
    assignments.push_back({name, value});
  }

  return editKernels(
      *this, kernels,
      [&](KernelOp kernel, PayloadEdits &edits) -> std::optional<KnobFailure> {
        llvm::StringMap<int64_t> values;
        for (auto [name, value] : assignments) {
          if (StringRef op = knobOpFor(name); !op.empty())
            return KnobFailure{(name +
                                " has its own op with its own checks; use " +
                                op + " instead")
                                   .str(),
                               kernel.getLoc(), "in this kernel"};
          if (!kernel.getParamValue(name)) {
            std::string declared;
            llvm::raw_string_ostream os(declared);
            if (DictionaryAttr params = kernel.getParamsAttr())
              llvm::interleaveComma(params, os, [&](NamedAttribute param) {
                os << param.getName().getValue();
              });
            return KnobFailure{
                ("@" + kernel.getSymName() + " has no param '" + name +
                 "' (its params: " + (declared.empty() ? "none" : declared) +
                 "); declare it in the kernel's params {...} or "
                 "set one of these")
                    .str(),
                kernel.getLoc(), "this kernel"};
          }
          if (std::optional<std::string> range =
                  checkKnobValue(Knob::TileSize, value, name.str()))
            return KnobFailure{*range, kernel.getLoc(), "in this kernel"};
          values[name] = value;
        }
        return retileKernel(kernel, values, edits);
      });
}

//===----------------------------------------------------------------------===//
// SetNumWarpsOp, VectorWidthOp, RasterOp, MinCtasPerSmOp,
// ScalarUnalignedRowsOp, CacheHintsOp, FastMathOp, MmaOverlapOp,
// OverlapCopiesOp, StageBarriersOp, PingPongOp
//===----------------------------------------------------------------------===//

#define KBENCH_KNOB_OP(OpClass, param)                                         \
  LogicalResult OpClass::verify() {                                            \
    return verifyKnobOperands(*this, getStaticValueAttr(), getDynamicValue()); \
  }                                                                            \
  void OpClass::getEffects(                                                    \
      SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {               \
    readTargetsAndModifyPayload(*this, effects);                               \
  }                                                                            \
  DiagnosedSilenceableFailure OpClass::apply(                                  \
      mlir::transform::TransformRewriter &,                                    \
      mlir::transform::TransformResults &,                                     \
      mlir::transform::TransformState &state) {                                \
    return applyKnob(*this, getTarget(), getStaticValue(), getDynamicValue(),  \
                     param, state);                                            \
  }

KBENCH_KNOB_OP(SetNumWarpsOp, knobParam(Knob::NumWarps))
KBENCH_KNOB_OP(VectorWidthOp, knobParam(Knob::VectorWidth))
KBENCH_KNOB_OP(RasterOp, knobParam(Knob::GroupM))
KBENCH_KNOB_OP(MinCtasPerSmOp, knobParam(Knob::MinCtasPerSm))
KBENCH_KNOB_OP(ScalarUnalignedRowsOp, knobParam(Knob::ScalarUnalignedRows))
KBENCH_KNOB_OP(CacheHintsOp, knobParam(Knob::CacheHints))
KBENCH_KNOB_OP(FastMathOp, knobParam(Knob::FastMath))
KBENCH_KNOB_OP(MmaOverlapOp, knobParam(Knob::MmaOverlap))
KBENCH_KNOB_OP(OverlapCopiesOp, knobParam(Knob::OverlapCopies))
KBENCH_KNOB_OP(StageBarriersOp, knobParam(Knob::StageBarriers))
KBENCH_KNOB_OP(PingPongOp, knobParam(Knob::PingPong))

#undef KBENCH_KNOB_OP

/// The K loops `target` names, by kernel, for the ops that edit K loops
/// (pipeline, operand_copies): an scf.for target is itself, a tile.kernel
/// target stands for its loops that `isKLoop` accepts (`kLoopKind` says
/// which in the message when it has none).
using KLoopsByKernel = llvm::MapVector<Operation *, SmallVector<scf::ForOp>>;
static DiagnosedSilenceableFailure
collectKLoops(Operation *op, Value target,
              mlir::transform::TransformState &state,
              llvm::function_ref<bool(scf::ForOp)> isKLoop,
              StringRef kLoopKind, SmallVectorImpl<KernelOp> &kernels,
              KLoopsByKernel &loops) {
  for (Operation *payload : state.getPayloadOps(target)) {
    auto kernel = dyn_cast<KernelOp>(payload);
    if (!kernel && isa<scf::ForOp>(payload))
      kernel = payload->getParentOfType<KernelOp>();
    if (!kernel) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableFailure(op->getLoc())
          << op->getName() << ": target " << payload->getName()
          << " is neither a tile.kernel nor an scf.for inside one; match the "
             "K loop with transform.structured.match ops{[\"scf.for\"]} in "
             "%kernel";
      diag.attachNote(payload->getLoc()) << "target payload op";
      return diag;
    }
    if (!llvm::is_contained(kernels, kernel))
      kernels.push_back(kernel);
    if (payload != kernel) {
      loops[kernel].push_back(cast<scf::ForOp>(payload));
      continue;
    }
    kernel.walk([&](scf::ForOp loop) {
      if (isKLoop(loop))
        loops[kernel].push_back(loop);
    });
    if (loops[kernel].empty()) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableFailure(op->getLoc())
          << op->getName() << ": @" << kernel.getSymName() << " has no "
          << kLoopKind << "; drop the op for this kernel";
      diag.attachNote(kernel.getLoc()) << "this kernel";
      return diag;
    }
  }
  if (kernels.empty())
    return emitSilenceableFailure(op->getLoc())
           << op->getName()
           << ": the target handle is empty, so the schedule matched no K "
              "loop; check the match (ops{[\"scf.for\"]} in a tile.kernel)";
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// PipelineOp
//===----------------------------------------------------------------------===//

LogicalResult PipelineOp::verify() {
  return verifyKnobOperands(*this, getStaticValueAttr(), getDynamicValue());
}

void PipelineOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  readTargetsAndModifyPayload(*this, effects);
}

DiagnosedSilenceableFailure
PipelineOp::apply(mlir::transform::TransformRewriter &,
                  mlir::transform::TransformResults &,
                  mlir::transform::TransformState &state) {
  StringRef attrName = gpu_lowering::kPipelineStagesAttrName;
  int64_t stages = getStaticValue().value_or(0);
  if (Value param = getDynamicValue()) {
    DiagnosedSilenceableFailure resolved =
        resolveKnob(*this, param, attrName, state, stages);
    if (!resolved.succeeded())
      return resolved;
  }
  SmallVector<KernelOp> kernels;
  KLoopsByKernel loops;
  DiagnosedSilenceableFailure found = collectKLoops(
      *this, getTarget(), state, isPipelineTarget,
      "loop tile-to-gpu can pipeline (an scf.for whose body only loads the "
      "two operands of one tile.mma accumulating into its single "
      "iter_arg, or whose mma_sync or wgmma tile.mma ops read an operand "
      "loaded in the loop body)",
      kernels, loops);
  if (!found.succeeded())
    return found;

  Type i64 = IntegerType::get(getContext(), 64);
  std::string what = (attrName + " = " + Twine(stages)).str();
  return editKernels(
      *this, kernels,
      [&](KernelOp kernel, PayloadEdits &edits) -> std::optional<KnobFailure> {
        for (scf::ForOp loop : loops[kernel]) {
          if (auto failure = checkPipelineStages(
                  loop, stages, getKernelConfig(kernel).numWarps))
            return failure;
          if (auto failure = checkPipelinableLoop(loop, what))
            return failure;
          edits.setAttr(loop, StringAttr::get(getContext(), attrName),
                        IntegerAttr::get(i64, stages));
        }
        return std::nullopt;
      });
}

//===----------------------------------------------------------------------===//
// OperandCopiesOp
//===----------------------------------------------------------------------===//

LogicalResult OperandCopiesOp::verify() {
  if (!gpu_lowering::parseOperandCopies(getCopies()))
    return emitOpError("copies must be `tma` or `cp_async`, got `")
           << getCopies() << "`";
  return success();
}

void OperandCopiesOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  readTargetsAndModifyPayload(*this, effects);
}

DiagnosedSilenceableFailure
OperandCopiesOp::apply(mlir::transform::TransformRewriter &,
                       mlir::transform::TransformResults &,
                       mlir::transform::TransformState &state) {
  StringRef attrName = gpu_lowering::kOperandCopiesAttrName;
  SmallVector<KernelOp> kernels;
  KLoopsByKernel loops;
  DiagnosedSilenceableFailure found = collectKLoops(
      *this, getTarget(), state,
      [](scf::ForOp loop) { return bool(gpu_lowering::getMmaLoopMma(loop)); },
      "K loop (an scf.for whose body only loads the two operands of one "
      "tile.mma accumulating into its single iter_arg)",
      kernels, loops);
  if (!found.succeeded())
    return found;

  return editKernels(
      *this, kernels,
      [&](KernelOp kernel, PayloadEdits &edits) -> std::optional<KnobFailure> {
        for (scf::ForOp loop : loops[kernel]) {
          if (!gpu_lowering::getMmaLoopMma(loop))
            return KnobFailure{
                ("tile.operand_copies = " + getCopies() +
                 ": this scf.for is not a K loop; its body must only load "
                 "the two operands of one tile.mma that accumulates into the "
                 "loop's single iter_arg")
                    .str(),
                loop.getLoc(), "this scf.for"};
          // checkKnobs applies the TMA rules to the edited loop.
          edits.setAttr(loop, StringAttr::get(getContext(), attrName),
                        getCopiesAttr());
        }
        return std::nullopt;
      });
}

//===----------------------------------------------------------------------===//
// MmaImplOp
//===----------------------------------------------------------------------===//

void MmaImplOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  readTargetsAndModifyPayload(*this, effects);
}

DiagnosedSilenceableFailure
MmaImplOp::apply(mlir::transform::TransformRewriter &,
                 mlir::transform::TransformResults &,
                 mlir::transform::TransformState &state) {
  SmallVector<KernelOp> kernels;
  DiagnosedSilenceableFailure found =
      collectKernels(*this, getTarget(), state, kernels);
  if (!found.succeeded())
    return found;
  tile::MmaImpl impl = getImpl();
  StringRef name = tile::stringifyMmaImpl(impl);
  auto implName = StringAttr::get(getContext(), "impl");
  auto implAttr = tile::MmaImplAttr::get(getContext(), impl);
  return editKernels(
      *this, kernels,
      [&](KernelOp kernel, PayloadEdits &edits) -> std::optional<KnobFailure> {
        SmallVector<tile::MmaOp> mmas;
        kernel.walk([&](tile::MmaOp mma) { mmas.push_back(mma); });
        if (mmas.empty())
          return KnobFailure{("impl = " + name +
                              ": the kernel has no tile.mma; drop the op for "
                              "this kernel")
                                 .str(),
                             kernel.getLoc(), "this kernel"};
        for (tile::MmaOp mma : mmas) {
          // The rules see the op as it will be: checkKnobs rechecks the
          // enclosing loop's stages and every later edit.
          if (std::optional<std::string> why = gpu_lowering::whyNotTensorCore(
                  mma, impl, getKernelConfig(kernel).numWarps))
            return KnobFailure{*why, mma.getLoc(), "this tile.mma"};
          edits.setAttr(mma, implName, implAttr);
          // The split is a choice of mma_sync alone.
          if (impl != tile::MmaImpl::mma_sync)
            edits.removeAttr(mma, mma.getWarpSplitAttrName());
        }
        return std::nullopt;
      });
}

//===----------------------------------------------------------------------===//
// MmaWarpSplitOp
//===----------------------------------------------------------------------===//

void MmaWarpSplitOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  readTargetsAndModifyPayload(*this, effects);
}

DiagnosedSilenceableFailure
MmaWarpSplitOp::apply(mlir::transform::TransformRewriter &,
                      mlir::transform::TransformResults &,
                      mlir::transform::TransformState &state) {
  SmallVector<KernelOp> kernels;
  DiagnosedSilenceableFailure found =
      collectKernels(*this, getTarget(), state, kernels);
  if (!found.succeeded())
    return found;
  std::string name =
      ("warp_split(" + stringifyMmaWarpSplit(getSplit()) + ")").str();
  auto splitAttr = tile::MmaWarpSplitAttr::get(getContext(), getSplit());
  return editKernels(
      *this, kernels,
      [&](KernelOp kernel, PayloadEdits &edits) -> std::optional<KnobFailure> {
        SmallVector<tile::MmaOp> mmas;
        kernel.walk([&](tile::MmaOp mma) { mmas.push_back(mma); });
        if (mmas.empty())
          return KnobFailure{name + ": the kernel has no tile.mma; drop the "
                                    "op for this kernel",
                             kernel.getLoc(), "this kernel"};
        for (tile::MmaOp mma : mmas) {
          if (mma.getImplKind() != tile::MmaImpl::mma_sync)
            return KnobFailure{
                (name +
                 " applies to impl = mma_sync, and this tile.mma is "
                 "impl = " +
                 tile::stringifyMmaImpl(mma.getImplKind()) +
                 "; run transform.tile.mma_impl mma_sync first")
                    .str(),
                mma.getLoc(), "this tile.mma"};
          // checkKnobs applies the mma_sync rules to the split.
          edits.setAttr(mma, mma.getWarpSplitAttrName(), splitAttr);
        }
        return std::nullopt;
      });
}

//===----------------------------------------------------------------------===//
// SinglePassOp
//===----------------------------------------------------------------------===//

LogicalResult SinglePassOp::verify() {
  return verifyKnobOperands(*this, getStaticValueAttr(), getDynamicValue());
}

void SinglePassOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  readTargetsAndModifyPayload(*this, effects);
}

DiagnosedSilenceableFailure
SinglePassOp::apply(mlir::transform::TransformRewriter &,
                    mlir::transform::TransformResults &,
                    mlir::transform::TransformState &state) {
  int64_t value = getStaticValue().value_or(0);
  if (Value param = getDynamicValue()) {
    DiagnosedSilenceableFailure resolved =
        resolveKnob(*this, param, "single_pass", state, value);
    if (!resolved.succeeded())
      return resolved;
  }
  if (value != 0 && value != 1)
    return emitSilenceableFailure(getLoc())
           << getOperationName() << ": single_pass = " << value
           << " is neither 0 (leave the kernel as is) nor 1 (add the "
              "single-pass fast path)";
  SmallVector<KernelOp> kernels;
  DiagnosedSilenceableFailure found =
      collectKernels(*this, getTarget(), state, kernels);
  if (!found.succeeded() || value == 0)
    return found;

  // Plan every kernel before committing any, so that a refusal leaves all
  // of them untouched.
  SmallVector<SinglePassPlan> plans;
  auto refuse = [&](const KnobFailure &failure) {
    DiagnosedSilenceableFailure diag = emitSilenceableFailure(getLoc())
                                       << getOperationName() << ": "
                                       << failure.message;
    diag.attachNote(failure.where) << failure.note;
    return diag;
  };
  for (KernelOp kernel : kernels) {
    SinglePassPlan plan;
    if (std::optional<KnobFailure> failure = planSinglePass(kernel, plan)) {
      for (SinglePassPlan &done : plans)
        discardSinglePass(done);
      return refuse(*failure);
    }
    plans.push_back(plan);
  }
  for (SinglePassPlan &plan : plans)
    commitSinglePass(plan);
  for (KernelOp kernel : kernels) {
    std::optional<KnobFailure> failure = checkKnobs(kernel);
    if (!failure)
      failure = verifyKernel(kernel);
    if (!failure)
      continue;
    for (SinglePassPlan &plan : plans)
      undoSinglePass(plan);
    return refuse(*failure);
  }
  return DiagnosedSilenceableFailure::success();
}

//===----------------------------------------------------------------------===//
// SplitReductionOp, StageTransposesOp, StageEpilogueOp, MaskBoundaryTilesOp,
// RowsPerCtaOp, WarpSpecializeOp, TmaStoreOp, PersistentOp
//===----------------------------------------------------------------------===//

/// apply() of the structural rewrites that plan every kernel before editing
/// any (split_reduction, stage_transposes, stage_epilogue,
/// mask_boundary_tiles, rows_per_cta):
/// `plan` checks one kernel, `rewrite` edits it.
template <typename Plan>
static DiagnosedSilenceableFailure applyPlanned(
    Operation *op, Value target, std::optional<int64_t> staticValue,
    Value dynamicValue, StringRef knob, mlir::transform::TransformState &state,
    llvm::function_ref<std::optional<KnobFailure>(KernelOp, int64_t, Plan &)>
        plan,
    llvm::function_ref<void(Plan &, int64_t)> rewrite) {
  int64_t value = staticValue.value_or(0);
  if (dynamicValue) {
    DiagnosedSilenceableFailure resolved =
        resolveKnob(op, dynamicValue, knob, state, value);
    if (!resolved.succeeded())
      return resolved;
  }
  SmallVector<KernelOp> kernels;
  DiagnosedSilenceableFailure found = collectKernels(op, target, state, kernels);
  if (!found.succeeded())
    return found;
  // Every check runs before any edit: a refusal leaves the payload as it was.
  std::vector<Plan> plans;
  for (KernelOp kernel : kernels) {
    Plan planned;
    if (std::optional<KnobFailure> failure = plan(kernel, value, planned)) {
      DiagnosedSilenceableFailure diag = emitSilenceableFailure(op->getLoc())
                                         << op->getName() << ": "
                                         << failure->message;
      diag.attachNote(failure->where) << failure->note;
      return diag;
    }
    plans.push_back(planned);
  }
  for (Plan &planned : plans)
    rewrite(planned, value);
  // The plan's checks imply these; a failure here is a bug of the rewrite.
  for (KernelOp kernel : kernels) {
    std::optional<KnobFailure> failure = checkKnobs(kernel);
    if (!failure)
      failure = verifyKernel(kernel);
    if (failure)
      return mlir::emitDefiniteFailure(op)
             << "internal error: the rewritten kernel is invalid: "
             << failure->message;
  }
  return DiagnosedSilenceableFailure::success();
}

#define KBENCH_PLANNED_REWRITE_OP(OpClass, Plan, knob, planFn, rewriteFn)      \
  LogicalResult OpClass::verify() {                                            \
    return verifyKnobOperands(*this, getStaticValueAttr(), getDynamicValue()); \
  }                                                                            \
  void OpClass::getEffects(                                                    \
      SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {               \
    readTargetsAndModifyPayload(*this, effects);                               \
  }                                                                            \
  DiagnosedSilenceableFailure OpClass::apply(                                  \
      mlir::transform::TransformRewriter &,                                    \
      mlir::transform::TransformResults &,                                     \
      mlir::transform::TransformState &state) {                                \
    return applyPlanned<Plan>(*this, getTarget(), getStaticValue(),            \
                              getDynamicValue(), knob, state, planFn,          \
                              rewriteFn);                                      \
  }

KBENCH_PLANNED_REWRITE_OP(SplitReductionOp, SplitPlan, "chunk",
                          planSplitReduction, applySplitReduction)
KBENCH_PLANNED_REWRITE_OP(StageTransposesOp, StageTransposesPlan,
                          "stage_transposes", planStageTransposes,
                          applyStageTransposes)
KBENCH_PLANNED_REWRITE_OP(StageEpilogueOp, StageEpiloguePlan, "stage_epilogue",
                          planStageEpilogue, applyStageEpilogue)
KBENCH_PLANNED_REWRITE_OP(MaskBoundaryTilesOp, MaskBoundaryTilesPlan,
                          "mask_boundary_tiles", planMaskBoundaryTiles,
                          applyMaskBoundaryTiles)
KBENCH_PLANNED_REWRITE_OP(RowsPerCtaOp, RowsPerCtaPlan, "rows", planRowsPerCta,
                          applyRowsPerCta)
KBENCH_PLANNED_REWRITE_OP(WarpSpecializeOp, WarpSpecializePlan,
                          "warp_specialize", planWarpSpecialize,
                          applyWarpSpecialize)
KBENCH_PLANNED_REWRITE_OP(TmaStoreOp, TmaStorePlan, "tma_store", planTmaStore,
                          applyTmaStore)
KBENCH_PLANNED_REWRITE_OP(PersistentOp, PersistentPlan, "persistent",
                          planPersistent, applyPersistent)

#undef KBENCH_PLANNED_REWRITE_OP

//===----------------------------------------------------------------------===//
// Extension
//===----------------------------------------------------------------------===//

namespace {
class TileTransformExtension
    : public mlir::transform::TransformDialectExtension<
          TileTransformExtension> {
public:
  // The fallback TypeID (by name) is not valid for a class in an anonymous
  // namespace, and Debian's NDEBUG libMLIR would not catch the clash.
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TileTransformExtension)

  using Base::Base;

  void init() {
    declareDependentDialect<tile::TileDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "kbench/Dialect/Tile/TransformOps/TileTransformOps.cpp.inc"
        >();
  }
};
} // namespace

void kbench::transform::registerTileTransformExtension(
    DialectRegistry &registry) {
  registry.addExtensions<TileTransformExtension>();
}
