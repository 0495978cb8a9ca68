//===- SupportTargets.cpp - Fuzz targets of the JSON contracts -------------===//
//
// task.json and manifest.json are read by the runner before anything touches
// LibTorch or the GPU, from files an agent may have written by hand. Their
// readers promise one kind of failure: an InputError naming the file and the
// field. Any other exception (an nlohmann type error escaping, a
// std::out_of_range) is a bug, and so is a crash: both end the process here.
//
//===----------------------------------------------------------------------===//

#include "FuzzTargets.h"

#include "kbench/Support/BundleSchema.h"
#include "kbench/Support/InputError.h"
#include "kbench/Support/Task.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>

using namespace kbench;

/// The document in `data`, or nothing when it is not JSON (the readers'
/// callers report that before the reader runs).
static std::optional<nlohmann::json> parseJson(const uint8_t *data, size_t size) {
  nlohmann::json doc = nlohmann::json::parse(data, data + size, nullptr,
                                             /*allow_exceptions=*/false);
  if (doc.is_discarded())
    return std::nullopt;
  return doc;
}

[[noreturn]] static void escaped(const char *reader, const std::exception &e) {
  std::fprintf(stderr, "%s let an exception other than InputError escape: %s\n", reader,
               e.what());
  std::abort();
}

int kbench::fuzz::fuzzTaskJson(const uint8_t *data, size_t size) {
  std::optional<nlohmann::json> doc = parseJson(data, size);
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
  std::optional<nlohmann::json> doc = parseJson(data, size);
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
