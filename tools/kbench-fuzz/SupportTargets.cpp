//===- SupportTargets.cpp - Fuzz targets of the JSON contracts ------------===//
//
// task.json and manifest.json are read by the runner before anything touches
// LibTorch or the GPU, and a task's schedules/dispatch.json by the compiler,
// from files an agent may have written by hand. Their readers promise one
// kind of failure: an InputError naming the file and the field. Any other
// exception (an nlohmann type error escaping, a std::out_of_range) is a bug,
// and so is a crash: both end the process here.
//
//===----------------------------------------------------------------------===//

#include "FuzzTargets.h"

#include "kbench/Support/BundleSchema.h"
#include "kbench/Support/DispatchFile.h"
#include "kbench/Support/InputError.h"
#include "kbench/Support/JsonField.h"
#include "kbench/Support/Task.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace kbench;

[[noreturn]] static void escaped(const char *reader, const std::exception &e) {
  std::fprintf(stderr, "%s let an exception other than InputError escape: %s\n", reader,
               e.what());
  std::abort();
}

/// The document in `data` as the tools read a file (parseJsonText, behind
/// readJsonFile), or nothing when they refuse it as JSON; that refusal must
/// be an InputError too.
static std::optional<nlohmann::json> parseJson(const uint8_t *data, size_t size,
                                               const char *file) {
  try {
    return parseJsonText(
        std::string(reinterpret_cast<const char *>(data), size), file);
  } catch (const InputError &) {
    return std::nullopt;
  } catch (const std::exception &e) {
    escaped("parseJsonText", e);
  }
}

int kbench::fuzz::fuzzTaskJson(const uint8_t *data, size_t size) {
  std::optional<nlohmann::json> doc = parseJson(data, size, "task.json");
  if (!doc)
    return 0;
  try {
    Task task = parseTask(*doc, "task.json");
    // What the runner does next with an accepted task: extents of every
    // tensor and the cost formulas at every shape case.
    for (const auto &[set, cases] : task.shapes)
      for (const ShapeCase &shapeCase : cases) {
        (void)shapeCase.label();
        std::string error;
        if (task.costFlops)
          (void)task.costFlops->evaluate(shapeCase.dims, error);
        if (task.costBytes)
          (void)task.costBytes->evaluate(shapeCase.dims, error);
      }
  } catch (const InputError &) {
    // The promised failure.
  } catch (const std::exception &e) {
    escaped("parseTask", e);
  }
  return 0;
}

int kbench::fuzz::fuzzManifest(const uint8_t *data, size_t size) {
  std::optional<nlohmann::json> doc = parseJson(data, size, "manifest.json");
  if (!doc)
    return 0;
  std::optional<bundle::BundleManifest> manifest;
  try {
    manifest = bundle::parseManifest(*doc, "manifest.json");
  } catch (const InputError &) {
    return 0;
  } catch (const std::exception &e) {
    escaped("parseManifest", e);
  }
  // The writer and the reader agree: what was accepted is written back and
  // read again to the same document.
  nlohmann::json written = bundle::toJson(*manifest);
  try {
    nlohmann::json again = bundle::toJson(bundle::parseManifest(written, "manifest.json"));
    if (again != written) {
      std::fprintf(stderr, "manifest round trip changed the document:\n%s\n%s\n",
                   written.dump().c_str(), again.dump().c_str());
      std::abort();
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "the reader refused what the writer wrote: %s\n%s\n", e.what(),
                 written.dump().c_str());
    std::abort();
  }
  return 0;
}

[[noreturn]] static void broken(const std::string &what,
                                const std::string &text) {
  std::fprintf(stderr, "tryParseDispatchText %s\n%s\n", what.c_str(),
               text.c_str());
  std::abort();
}

int kbench::fuzz::fuzzDispatch(const uint8_t *data, size_t size) {
  const std::string file = "tasks/t/schedules/dispatch.json";
  // The dims the shipped dispatch files' facts name (their seeds).
  const std::vector<std::string> dims = {"M", "N", "K", "B",
                                         "D", "G", "H", "NH"};
  std::string text(reinterpret_cast<const char *>(data), size);
  std::string error;
  std::optional<DispatchFile> dispatch;
  try {
    dispatch = tryParseDispatchText(text, file, dims, error);
  } catch (const std::exception &e) {
    escaped("tryParseDispatchText", e);
  }
  if (!dispatch) {
    if (error.rfind(file + ": ", 0) != 0)
      broken("refused without naming the file: " + error, text);
    return 0;
  }
  // What DispatchFile.h promises of an accepted file, which the compiler and
  // the runner's variant choice rely on.
  if (dispatch->variants.empty())
    broken("accepted a file without variants", text);
  std::set<std::string> names;
  for (size_t v = 0; v < dispatch->variants.size(); ++v) {
    const DispatchVariant &variant = dispatch->variants[v];
    if (variant.name.empty() || !names.insert(variant.name).second)
      broken("accepted an empty or repeated name '" + variant.name + "'", text);
    // A kernel symbol's suffix: letters, digits and '_', no leading digit.
    bool symbolSafe = !std::isdigit(static_cast<unsigned char>(variant.name[0]));
    for (char c : variant.name)
      symbolSafe &= std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    if (!symbolSafe)
      broken("accepted the name '" + variant.name + "'", text);
    if (variant.schedule.empty())
      broken("accepted a variant without a schedule", text);
    bool last = v + 1 == dispatch->variants.size();
    if (last != variant.when.empty())
      broken(last ? "accepted 'when' on the fallback"
                  : "accepted a variant without 'when'",
             text);
    for (const ShapeFact &fact : variant.when) {
      std::set<std::string> symbols;
      fact.collectSymbols(symbols);
      for (const std::string &symbol : symbols)
        if (std::find(dims.begin(), dims.end(), symbol) == dims.end())
          broken("accepted a fact over '" + symbol + "'", text);
      // The runner evaluates the facts at every shape it launches; a shape
      // the expression cannot take (a division by zero) is an error there,
      // not a crash.
      for (int64_t value : {0, 1, 7, 128, 4096}) {
        SymbolValues shape;
        for (size_t d = 0; d < dims.size(); ++d)
          shape[dims[d]] =
              value * static_cast<int64_t>(d + 1) + static_cast<int64_t>(d);
        std::string ignored;
        (void)fact.holds(shape, ignored);
      }
    }
  }
  return 0;
}
