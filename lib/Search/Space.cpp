//===- Space.cpp - A search space: a transform script with open choices ---===//
//
// Parsing and checking a space (every message names the knob, the line and
// the fix: agents write spaces too), resolving it to one candidate by setting
// the tuning ops' own `selected` attributes. The default space a kernel's
// params give is DefaultSpace.cpp's.
//
//===----------------------------------------------------------------------===//

#include "kbench/Search/Space.h"

#include "kbench/Dialect/Tile/IR/Tile.h"
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

} // namespace kbench::search
