//===- Space.cpp - A search space: a transform script with open choices ---===//
//
// Parsing and checking a space (every message names the knob, the line and
// the fix: agents write spaces too), resolving it to one candidate by setting
// the tuning ops' own `selected` attributes, and deriving a default space
// from a kernel's params.
//
//===----------------------------------------------------------------------===//

#include "kbench/Search/Space.h"

#include "kbench/Dialect/Tile/IR/Tile.h"
#include "kbench/Dialect/Tile/TransformOps/RewriteProbes.h"
#include "kbench/Dialect/Tile/TransformOps/Schedule.h"

#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/TuneExtension/TuneExtensionOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace mlir;
namespace tune = mlir::transform::tune;

namespace kbench::search {

/// The attribute of the entry sequence that holds the constraints.
static constexpr llvm::StringLiteral kConstraintsAttr = "kbench.constraints";

/// Reads one knob's options: an array of integers.
static LogicalResult readKnob(tune::KnobOp op, Knob &knob) {
  knob.name = op.getName().str();
  knob.op = op;
  if (op.getSelectedAttr())
    return op.emitError() << "knob '" << knob.name
                          << "' is already resolved (= " << op.getSelectedAttr()
                          << "); drop `= V from` so the search chooses, or "
                             "write the value as a constant";
  auto options = dyn_cast<ArrayAttr>(op.getOptionsAttr());
  if (!options || options.empty())
    return op.emitError() << "knob '" << knob.name << "' has options "
                          << op.getOptionsAttr()
                          << "; the search needs a non-empty array of "
                             "integers, e.g. options = [1, 2, 4]";
  for (Attribute option : options) {
    auto value = dyn_cast<IntegerAttr>(option);
    if (!value)
      return op.emitError() << "knob '" << knob.name << "' has the option "
                            << option
                            << ", which is not an integer; the search only "
                               "sets integer knobs";
    knob.options.push_back(value.getInt());
  }
  return success();
}

static LogicalResult readAlternatives(tune::AlternativesOp op, Knob &knob) {
  knob.name = op.getName().str();
  knob.op = op;
  knob.isAlternatives = true;
  if (op.getSelectedRegionAttr() || op.getSelectedRegionParam())
    return op.emitError() << "alternatives '" << knob.name
                          << "' already select a region; drop "
                             "`selected_region = ...` so the search chooses";
  for (unsigned i = 0, e = op->getNumRegions(); i < e; ++i)
    knob.options.push_back(i);
  return success();
}

std::optional<Space> Space::parse(MLIRContext &context, StringRef text,
                                  StringRef name) {
  Space space;
  space.module = parseSourceString<ModuleOp>(text, ParserConfig(&context), name);
  if (!space.module)
    return std::nullopt;
  ModuleOp module = *space.module;
  auto entry = module.lookupSymbol<transform::NamedSequenceOp>(kScheduleEntryPoint);
  if (!entry) {
    emitError(module.getLoc())
        << "space '" << name << "' has no transform.named_sequence @"
        << kScheduleEntryPoint << "; a space is a schedule whose choices are "
        << "transform.tune.knob / transform.tune.alternatives ops";
    return std::nullopt;
  }

  std::map<std::string, Location> seen;
  bool ok = true;
  entry.walk<WalkOrder::PreOrder>([&](Operation *op) {
    Knob knob;
    LogicalResult read = success();
    if (auto knobOp = dyn_cast<tune::KnobOp>(op))
      read = readKnob(knobOp, knob);
    else if (auto alternatives = dyn_cast<tune::AlternativesOp>(op))
      read = readAlternatives(alternatives, knob);
    else
      return;
    if (failed(read)) {
      ok = false;
      return;
    }
    auto [it, inserted] = seen.emplace(knob.name, op->getLoc());
    if (!inserted) {
      op->emitError() << "choice name '" << knob.name
                      << "' is used twice; names identify knob values in the "
                         "archive, so give each choice its own";
      emitRemark(it->second) << "first use of '" << knob.name << "'";
      ok = false;
      return;
    }
    space.knobs.push_back(std::move(knob));
  });
  if (!ok)
    return std::nullopt;
  if (space.knobs.empty()) {
    emitError(entry.getLoc())
        << "space '" << name
        << "' has no transform.tune.knob or transform.tune.alternatives; "
           "there is nothing to search (use kbench compile --schedule for a "
           "fixed schedule)";
    return std::nullopt;
  }

  if (Attribute attr = entry->getAttr(kConstraintsAttr)) {
    auto list = dyn_cast<ArrayAttr>(attr);
    if (!list || !llvm::all_of(list, llvm::IsaPred<StringAttr>)) {
      entry.emitError() << kConstraintsAttr
                        << " must be an array of strings such as [\"BR * BN "
                           "<= 4096 * num_warps\"], got "
                        << attr;
      return std::nullopt;
    }
    for (Attribute item : list) {
      std::string textOf = cast<StringAttr>(item).str(), error;
      std::optional<ShapeFact> fact = ShapeFact::parse(textOf, error);
      if (!fact) {
        entry.emitError() << "constraint '" << textOf
                          << "' does not parse: " << error;
        return std::nullopt;
      }
      std::set<std::string> symbols;
      fact->collectSymbols(symbols);
      for (const std::string &symbol : symbols) {
        if (llvm::any_of(space.knobs,
                         [&](const Knob &k) { return k.name == symbol; }))
          continue;
        std::vector<std::string> names;
        for (const Knob &k : space.knobs)
          names.push_back(k.name);
        entry.emitError() << "constraint '" << textOf << "' names '" << symbol
                          << "', which is no choice of the space (choices: "
                          << llvm::join(names, ", ") << ")";
        return std::nullopt;
      }
      space.constraints.push_back({textOf, std::move(*fact)});
    }
  }
  return space;
}

int64_t Space::size() const {
  int64_t total = 1;
  for (const Knob &knob : knobs) {
    if (total > (int64_t(1) << 62) / int64_t(knob.options.size()))
      return int64_t(1) << 62;
    total *= knob.options.size();
  }
  return total;
}

SymbolValues Space::values(const Assignment &assignment) const {
  SymbolValues result;
  for (auto [knob, index] : llvm::zip_equal(knobs, assignment))
    result[knob.name] = knob.options[index];
  return result;
}

std::optional<std::string>
Space::checkConstraints(const Assignment &assignment) const {
  SymbolValues bound = values(assignment);
  for (const Constraint &constraint : constraints) {
    std::string error;
    std::optional<bool> holds = constraint.fact.holds(bound, error);
    std::set<std::string> symbols;
    constraint.fact.collectSymbols(symbols);
    std::vector<std::string> parts;
    for (const std::string &symbol : symbols)
      parts.push_back(symbol + " = " + std::to_string(bound[symbol]));
    if (!holds)
      return "constraint '" + constraint.text + "' cannot be evaluated at " +
             llvm::join(parts, ", ") + ": " + error;
    if (!*holds)
      return "constraint '" + constraint.text + "' does not hold for " +
             llvm::join(parts, ", ");
  }
  return std::nullopt;
}

void Space::select(const Assignment &assignment) {
  for (auto [knob, index] : llvm::zip_equal(knobs, assignment)) {
    if (auto knobOp = dyn_cast<tune::KnobOp>(knob.op)) {
      knobOp.setSelectedAttr(cast<ArrayAttr>(knobOp.getOptionsAttr())[index]);
      continue;
    }
    auto alternatives = cast<tune::AlternativesOp>(knob.op);
    alternatives.setSelectedRegionAttrAttr(
        IntegerAttr::get(IntegerType::get(knob.op->getContext(), 64), index));
  }
}

std::string Space::print() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  ModuleOp op = module.get();
  op.print(os);
  return text;
}

/// Powers of two from a quarter to four times `value` (at least 1).
static std::vector<int64_t> powersAround(int64_t value) {
  int64_t low = 1;
  while (low * 2 <= value / 4)
    low *= 2;
  std::vector<int64_t> result;
  for (int64_t v = low; v <= std::max<int64_t>(value, 1) * 4 && v <= 65536; v *= 2)
    result.push_back(v);
  return result;
}

std::string Space::defaultSpaceText(ModuleOp kernelModule, std::string &error) {
  SmallVector<tile::KernelOp> kernels;
  kernelModule.walk([&](tile::KernelOp kernel) { kernels.push_back(kernel); });
  if (kernels.size() != 1) {
    error = llvm::formatv("the default space covers a task with exactly one "
                          "tile.kernel, and this one has {0}; write "
                          "schedules/space.mlir (docs/search.md)",
                          kernels.size());
    return "";
  }
  tile::KernelOp kernel = kernels.front();
  static constexpr llvm::StringLiteral kOwnOps[] = {"num_warps", "vector_width",
                                                    "group_m"};
  std::vector<std::pair<std::string, int64_t>> tileParams;
  if (DictionaryAttr params = kernel.getParamsAttr())
    for (NamedAttribute param : params) {
      if (llvm::is_contained(kOwnOps, param.getName().strref()))
        continue;
      if (auto value = dyn_cast<IntegerAttr>(param.getValue()))
        tileParams.push_back({param.getName().str(), value.getInt()});
    }

  // One per-thread budget per partition tile: at most 64 elements per thread
  // (256 bytes of f32). On sm_90a every row_sum candidate with 128 f32
  // elements per thread spilled in ptxas and none with 64 did, and a spilling
  // candidate costs 2-5x a good one to reject after ptxas. On tensor cores
  // (mma_impl 1 and up) 128: their operands go through shared memory, and
  // the tuned wgmma defaults hold 128 f32 accumulators per thread without
  // spills (matmul_bf16: 128x128 on 4 warps, 217 registers).
  std::string budget = "64 * 32 * num_warps";
  if (tensorCoreMmaFits(kernel))
    budget += " * (1 + min(mma_impl, 1))";
  std::vector<std::string> constraints;
  kernel.walk([&](tile::PartitionOp partition) {
    std::vector<std::string> factors;
    int64_t literal = 1;
    for (Attribute size : partition.getTileSizes()) {
      if (auto name = dyn_cast<StringAttr>(size))
        factors.push_back(name.str());
      else if (auto value = dyn_cast<IntegerAttr>(size))
        literal *= value.getInt();
    }
    if (literal != 1)
      factors.push_back(std::to_string(literal));
    // A tile sized by one param alone stays far below the budget.
    if (factors.size() < 2)
      return;
    std::string fact = llvm::join(factors, " * ") + " <= " + budget;
    if (!llvm::is_contained(constraints, fact))
      constraints.push_back(fact);
  });

  std::string text;
  llvm::raw_string_ostream os(text);
  auto list = [](const std::vector<int64_t> &values) {
    std::vector<std::string> items;
    for (int64_t v : values)
      items.push_back(std::to_string(v));
    return "[" + llvm::join(items, ", ") + "]";
  };
  os << "// The default space of @" << kernel.getSymName()
     << ", derived from its params (kbench search, docs/search.md).\n"
     << "module attributes {transform.with_named_sequence} {\n"
     << "  transform.named_sequence @__transform_main(\n"
     << "      %root: !transform.any_op {transform.readonly})\n"
     << "      attributes {kbench.constraints = [";
  for (auto [i, fact] : llvm::enumerate(constraints))
    os << (i ? ", " : "") << "\"" << fact << "\"";
  os << "]} {\n"
     << "    %k = transform.structured.match ops{[\"tile.kernel\"]} in %root\n"
     << "        : (!transform.any_op) -> !transform.any_op\n"
     << "    %num_warps = transform.tune.knob<\"num_warps\"> options = "
     << list({1, 2, 4, 8}) << " -> !transform.param<i64>\n"
     << "    transform.tile.set_num_warps %k %num_warps : !transform.any_op\n";
  std::vector<std::string> assignments;
  for (const auto &[name, value] : tileParams) {
    os << "    %" << name << " = transform.tune.knob<\"" << name
       << "\"> options = " << list(powersAround(value))
       << " -> !transform.param<i64>\n";
    assignments.push_back(name + " = %" + name);
  }
  if (!assignments.empty())
    os << "    transform.tile.set_params %k {" << llvm::join(assignments, ", ")
       << "} : !transform.any_op\n";
  os << "    %vector_width = transform.tune.knob<\"vector_width\"> options = "
     << list({1, 2, 4}) << " -> !transform.param<i64>\n"
     << "    transform.tile.vector_width %k %vector_width : "
        "!transform.any_op\n";
  // Structural choices, where the kernel has the shape a rewrite needs;
  // last, so that they see the tile sizes and num_warps chosen above. Region
  // 0 leaves the kernel as it is, region 1 applies `rewrite`.
  auto alternatives = [&](StringRef name, StringRef rewrite) {
    os << "    transform.tune.alternatives<\"" << name << "\"> {\n"
       << "      transform.yield\n"
       << "    }, {\n"
       << "      " << rewrite << " : !transform.any_op\n"
       << "      transform.yield\n"
       << "    }\n";
  };
  // Splitting a one-pass sum across CTAs, in chunks of 4 to 32 row tiles;
  // where the alternative is not taken the chunk knob changes nothing, and
  // the IR-hash dedupe folds those candidates into one.
  if (splitReductionFits(kernel)) {
    os << "    %chunk = transform.tune.knob<\"chunk\"> options = "
       << list({4, 8, 16, 32}) << " -> !transform.param<i64>\n";
    alternatives("split_reduction",
                 "transform.tile.split_reduction %k chunk %chunk");
  }
  // Masks only on the tiles that need them.
  if (maskBoundaryTilesFits(kernel))
    alternatives("mask_boundary_tiles",
                 "transform.tile.mask_boundary_tiles %k 1");
  // Reading a row once (several row passes re-loading a tile). The held-tile
  // budget at the chosen sizes is left to the op's legality rule, which
  // refuses the candidate.
  if (singlePassFitsSomeSizes(kernel))
    alternatives("single_pass", "transform.tile.single_pass %k 1");
  // Storing a transposed tile through padded shared memory.
  if (stageTransposesFits(kernel))
    alternatives("stage_transposes", "transform.tile.stage_transposes %k 1");
  // A matmul epilogue through shared memory, in a rolled loop.
  if (stageEpilogueFits(kernel))
    alternatives("stage_epilogue", "transform.tile.stage_epilogue %k 1");
  // Tensor cores for a bf16 or f16 tile.mma: mma.sync or wgmma, each with a
  // cp.async pipeline of 1 to 4 stages where the kernel has a K loop (f32
  // operands of a task that opts into tf32: mma.sync only); the impls'
  // rules (tile sizes, warps, K tile) refuse what they cannot take. Where
  // the K loops could copy with TMA, wgmma also comes with TMA copies, and
  // with a producer warpgroup beside them where the loop's place allows
  // one (the regions after the cp.async ones, so that their numbers stay).
  if (tensorCoreMmaFits(kernel)) {
    bool pipelined = tensorCoreKLoopFits(kernel);
    if (pipelined)
      os << "    %stages = transform.tune.knob<\"stages\"> options = "
         << list({1, 2, 3, 4}) << " -> !transform.param<i64>\n";
    os << "    transform.tune.alternatives<\"mma_impl\"> {\n"
       << "      transform.yield\n";
    for (StringRef impl : {"mma_sync", "wgmma"}) {
      if (!tensorCoreMmaFits(kernel, impl))
        continue;
      os << "    }, {\n"
         << "      transform.tile.mma_impl %k " << impl
         << " : !transform.any_op\n";
      if (pipelined)
        os << "      transform.tile.pipeline %k stages %stages : "
              "!transform.any_op\n";
      os << "      transform.yield\n";
    }
    bool tma =
        pipelined && tensorCoreMmaFits(kernel, "wgmma") && tmaCopiesFit(kernel);
    for (bool producer : {false, true}) {
      if (!tma || (producer && !warpSpecializeFits(kernel)))
        continue;
      os << "    }, {\n"
         << "      transform.tile.mma_impl %k wgmma : !transform.any_op\n"
         << "      transform.tile.pipeline %k stages %stages : "
            "!transform.any_op\n"
         << "      transform.tile.operand_copies %k tma : !transform.any_op\n";
      if (producer)
        os << "      transform.tile.warp_specialize %k 1 : !transform.any_op\n";
      os << "      transform.yield\n";
    }
    os << "    }\n";
  }
  os << "    transform.yield\n  }\n}\n";
  return text;
}

} // namespace kbench::search
