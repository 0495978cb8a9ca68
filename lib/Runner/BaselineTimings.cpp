//===- BaselineTimings.cpp - Screening baselines kept across runs ---------===//

#include "kbench/Runner/BaselineTimings.h"

#include "kbench/Runner/BaselinePlan.h"
#include "kbench/Runner/Report.h"
#include "kbench/Support/InputError.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace kbench::runner {

namespace {

const char *kFormat = "kbench-baseline-timings";
constexpr int kVersion = 1;

/// The entries of `path`: empty when the file does not exist. Throws
/// InputError naming the file and the field that is wrong.
nlohmann::json readEntries(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    return nlohmann::json::array();
  std::stringstream text;
  text << in.rdbuf();
  std::string where = "--baseline-timings " + path + ": ";
  nlohmann::json doc =
      nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded())
    throw InputError(where +
                     "not JSON (delete it: the baselines are timed again)");
  if (!doc.is_object() || doc.value("format", "") != kFormat)
    throw InputError(where +
                     "not a baseline timings file (\"format\" is not \"" +
                     std::string(kFormat) + "\")");
  if (!doc.contains("version") || doc["version"] != kVersion)
    throw InputError(
        where + "version " +
        (doc.contains("version") ? doc["version"].dump() : "missing") +
        ", this runner reads version " + std::to_string(kVersion));
  if (!doc.contains("entries") || !doc["entries"].is_array())
    throw InputError(where + "\"entries\" is missing or not an array");
  const nlohmann::json &entries = doc["entries"];
  for (size_t i = 0; i < entries.size(); ++i) {
    const nlohmann::json &e = entries[i];
    std::string at = where + "entries[" + std::to_string(i) + "]";
    if (!e.is_object())
      throw InputError(at + " is not an object");
    for (const char *field : {"key", "gpu_uuid", "driver", "torch"})
      if (!e.contains(field) || !e[field].is_string())
        throw InputError(at + "." + field + " is missing or not a string");
    if (!e.contains("measured_unix_s") ||
        !e["measured_unix_s"].is_number_integer())
      throw InputError(at + ".measured_unix_s is missing or not an integer");
    if (!e.contains("contestants") || !e["contestants"].is_object())
      throw InputError(at + ".contestants is missing or not an object");
    for (const auto &[name, stats] : e["contestants"].items())
      if (!stats.is_object() || !stats.contains("median_us") ||
          !stats["median_us"].is_number())
        throw InputError(at + ".contestants." + name +
                         " has no numeric median_us");
  }
  return entries;
}

bool sameMachine(const nlohmann::json &e, const TimingMachine &m) {
  return e["gpu_uuid"] == m.gpuUuid && e["driver"] == m.driver &&
         e["torch"] == m.torch;
}

} // namespace

std::string baselineTimingKey(const Task &task, const SymbolValues &dims,
                              const std::string &torchVersion,
                              const std::string &flush) {
  std::string name = compiledPackageName(task, dims, torchVersion);
  const std::string suffix = ".pt2";
  if (name.size() > suffix.size() &&
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
    name.resize(name.size() - suffix.size());
  return name + " flush=" + flush;
}

BaselineTimingFile::BaselineTimingFile(std::string path, TimingMachine machine,
                                       int64_t nowUnix)
    : file(std::move(path)), machine(std::move(machine)), now(nowUnix),
      entries(readEntries(file)) {}

void BaselineTimingFile::check(const std::string &path) {
  (void)readEntries(path);
}

const nlohmann::json *BaselineTimingFile::entry(const std::string &key) const {
  // An empty UUID (a driver without cuDeviceGetUuid) names no GPU for sure.
  if (machine.gpuUuid.empty())
    return nullptr;
  for (const nlohmann::json &e : entries) {
    if (e["key"] != key || !sameMachine(e, machine))
      continue;
    int64_t age = now - e["measured_unix_s"].get<int64_t>();
    if (age >= 0 && age <= kMaxAgeSeconds)
      return &e;
  }
  return nullptr;
}

const nlohmann::json *BaselineTimingFile::find(const std::string &key) const {
  const nlohmann::json *e = entry(key);
  return e ? &(*e)["contestants"] : nullptr;
}

std::string BaselineTimingFile::measuredAt(const std::string &key) const {
  const nlohmann::json *e = entry(key);
  return e ? e->value("measured_at", "") : "";
}

std::string BaselineTimingFile::record(const std::string &key,
                                       const nlohmann::json &contestants) {
  if (machine.gpuUuid.empty())
    return "the GPU has no UUID here: nothing recorded";
  nlohmann::json fresh = {{"key", key},
                          {"gpu_uuid", machine.gpuUuid},
                          {"gpu", machine.gpu},
                          {"driver", machine.driver},
                          {"torch", machine.torch},
                          {"measured_at", utcTimestamp(now)},
                          {"measured_unix_s", now},
                          {"contestants", contestants}};
  // Another evaluator may have written the file since it was read: start
  // from what is there now, so that its entries are kept.
  try {
    entries = readEntries(file);
  } catch (const InputError &e) {
    return e.what();
  }
  nlohmann::json kept = nlohmann::json::array();
  for (const nlohmann::json &e : entries)
    if (!(e["key"] == key && sameMachine(e, machine)))
      kept.push_back(e);
  kept.push_back(fresh);
  entries = std::move(kept);

  nlohmann::json doc = {
      {"format", kFormat}, {"version", kVersion}, {"entries", entries}};
  std::string temporary = file + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temporary);
    out << doc.dump(1) << "\n";
    if (!out.good()) {
      std::remove(temporary.c_str());
      return "cannot write " + temporary;
    }
  }
  if (std::rename(temporary.c_str(), file.c_str()) != 0) {
    std::remove(temporary.c_str());
    return "cannot rename " + temporary + " to " + file;
  }
  return "";
}

} // namespace kbench::runner
