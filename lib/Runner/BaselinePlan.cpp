//===- BaselinePlan.cpp - Which torch.compile package each shape gets -----===//
//
// Plain C++ and one LibTorch header of macros (torch/version.h): the
// supervisor and the report use it before and after the worker runs.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/BaselinePlan.h"

#include <torch/version.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <ostream>

namespace kbench::runner {

namespace {

/// FNV-1a, 64 bits: short, stable and easy to match in Python.
uint64_t fnv1a64(const std::string &text) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string loaderDescription(bool haveLoader) {
  if (haveLoader)
    return "AOTIModelPackageLoader of LibTorch " + linkedTorchVersion();
  return "unavailable: this kbench-run links LibTorch " + linkedTorchVersion() +
         ", which has no AOTInductor package loader "
         "(torch/csrc/inductor/aoti_package/model_package_loader.h); build it against torch "
         ">= 2.6, as scripts/gpu-eval.sh does";
}

} // namespace

std::string linkedTorchVersion() {
  return std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
         std::to_string(TORCH_VERSION_PATCH);
}

bool haveCompiledBaselineLoader() { return KBENCH_HAVE_AOTI != 0; }

std::string compiledBaselineKeyText(const Task &task, const SymbolValues &dims) {
  nlohmann::json ops = nlohmann::json::array();
  for (const RefOp &op : task.reference) {
    nlohmann::json kwargs = nlohmann::json::object();
    for (const auto &[key, value] : op.kwargs)
      kwargs[key] = value;
    ops.push_back({{"op", op.op}, {"args", op.args}, {"kwargs", kwargs}, {"out", op.outs}});
  }
  nlohmann::json inputs = nlohmann::json::array();
  for (const TensorSpec &in : task.inputs)
    inputs.push_back({in.name, dtypeName(in.dtype), in.extents(dims)});
  nlohmann::json outputs = nlohmann::json::array();
  for (const TensorSpec &o : task.outputs)
    outputs.push_back(o.name);
  nlohmann::json key = {{"reference", ops}, {"inputs", inputs}, {"outputs", outputs}};
  // A tf32 task's package is compiled with TF32 on, so it is another package;
  // other tasks keep the key they always had.
  if (task.allowTf32)
    key["allow_tf32"] = true;
  // nlohmann::json objects are ordered maps: dump() sorts the keys.
  return key.dump(-1, ' ', /*ensure_ascii=*/true);
}

std::string compiledPackageName(const Task &task, const SymbolValues &dims,
                                const std::string &torchVersion) {
  char hash[17];
  std::snprintf(hash, sizeof(hash), "%016llx",
                static_cast<unsigned long long>(fnv1a64(compiledBaselineKeyText(task, dims))));
  std::string shape, dtypes;
  for (const auto &[name, value] : dims)
    shape += (shape.empty() ? "" : "_") + name + std::to_string(value);
  for (const TensorSpec &in : task.inputs)
    dtypes += (dtypes.empty() ? "" : ".") + std::string(dtypeName(in.dtype));
  return task.name + "-" + hash + "-" + shape + "-" + dtypes + "-torch" + torchVersion + ".pt2";
}

nlohmann::json compiledBaselinePlan(const Task &task, const std::vector<std::string> &timedSets,
                                    const std::string &dir, bool haveLoader) {
  nlohmann::json plan = {{"name", "torch_compile"},
                         {"dir", dir.empty() ? nlohmann::json() : nlohmann::json(dir)},
                         {"loader", loaderDescription(haveLoader)},
                         {"torch", linkedTorchVersion()},
                         {"shapes", nlohmann::json::array()}};
  for (const std::string &set : timedSets) {
    auto it = task.shapes.find(set);
    if (it == task.shapes.end())
      continue;
    for (const ShapeCase &sc : it->second) {
      std::string name = compiledPackageName(task, sc.dims, linkedTorchVersion());
      std::string path = dir.empty() ? name : (std::filesystem::path(dir) / name).string();
      nlohmann::json entry = {{"set", sc.set}, {"index", sc.index}, {"shape", sc.label()},
                              {"package", path}};
      if (!haveLoader) {
        entry["status"] = "unavailable";
        entry["detail"] = "LibTorch " + linkedTorchVersion() + " has no AOTInductor loader";
      } else if (dir.empty()) {
        entry["status"] = "missing";
        entry["detail"] = "no --compiled-baselines DIR was given";
      } else if (!std::filesystem::is_regular_file(path)) {
        entry["status"] = "missing";
        entry["detail"] = "no package " + path + "; build it with scripts/gpu-aoti-package.py";
      } else {
        entry["status"] = "found";
      }
      plan["shapes"].push_back(entry);
    }
  }
  return plan;
}

void recordCompiledBaseline(nlohmann::json &plan, const nlohmann::json &timing) {
  if (!timing.contains("baselines") || !timing["baselines"].contains("torch_compile"))
    return;
  std::string shape = timing["shape_id"].value("shape", std::string());
  for (nlohmann::json &entry : plan["shapes"])
    if (entry.value("shape", std::string()) == shape)
      entry.update(timing["baselines"]["torch_compile"]);
}

void finishCompiledBaselines(nlohmann::json &plan, bool timed, const nlohmann::json &timing) {
  nlohmann::json counts = nlohmann::json::object();
  for (nlohmann::json &entry : plan["shapes"]) {
    if (entry["status"] == "found") {
      std::string why = "timing did not run (host bundles are never timed; --no-timing)";
      if (timed) {
        why = "the shape was not timed (its shape set was not run, or its requires facts "
              "failed)";
        for (const nlohmann::json &t : timing)
          if (t["shape_id"].value("shape", std::string()) == entry["shape"] &&
              t.contains("skipped"))
            why = "the shape was not timed: " + t["skipped"].get<std::string>();
      }
      entry["status"] = "not_timed";
      entry["detail"] = "the package exists, but " + why;
    }
    std::string status = entry["status"].get<std::string>();
    counts[status] = counts.value(status, 0) + 1;
  }
  plan["counts"] = counts;
}

void printCompiledBaselines(std::ostream &os, const nlohmann::json &plan) {
  os << "  torch.compile baseline (" << plan.value("loader", std::string("?")) << "):";
  if (plan["shapes"].empty())
    os << " no timed shapes";
  nlohmann::json counts = plan.value("counts", nlohmann::json::object());
  for (const auto &[status, n] : counts.items())
    os << " " << status << " x" << n.get<int>();
  os << "\n";
  int shown = 0, notShown = 0;
  for (const nlohmann::json &entry : plan["shapes"]) {
    std::string status = entry["status"].get<std::string>();
    if (status == "measured" || status == "unavailable")
      continue;
    if (shown++ >= 5) {
      ++notShown;
      continue;
    }
    os << "    " << status << " " << entry["shape"].get<std::string>() << ": "
       << entry.value("detail", std::string()) << "\n";
  }
  if (notShown > 0)
    os << "    ... " << notShown << " more in report.json\n";
}

} // namespace kbench::runner
