//===- Baselines.cpp - Eager and torch.compile baselines ------------------===//
//
// The contestants of one timed shape. The AOTInductor loader is compiled in
// only when the LibTorch found at configure time ships its header
// (KBENCH_HAVE_AOTI, from tools/kbench-run/CMakeLists.txt); without it the
// supervisor never hands the worker a package (BaselinePlan.cpp).
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Baselines.h"

#include "kbench/Runner/BaselinePlan.h"
#include "kbench/Runner/Compare.h"
#include "kbench/Runner/Reference.h"

#include <ATen/ATen.h>

#if KBENCH_HAVE_AOTI
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>
#endif

namespace kbench::runner {

void setTf32(bool on) {
  at::globalContext().setAllowTF32CuBLAS(on);
  at::globalContext().setAllowTF32CuDNN(on);
}

namespace {

#if KBENCH_HAVE_AOTI
/// Loads `package`, runs it once on `inputs` and compares every output with
/// the reference. Returns the loader, or null with `detail` set.
std::shared_ptr<torch::inductor::AOTIModelPackageLoader>
loadChecked(const Reference &reference, const Task &task, const TensorMap &inputs,
            const SymbolValues &dims, const std::vector<at::Tensor> &args,
            const std::string &package, std::string &detail) {
  std::shared_ptr<torch::inductor::AOTIModelPackageLoader> loader;
  std::vector<at::Tensor> outs;
  try {
    loader = std::make_shared<torch::inductor::AOTIModelPackageLoader>(package);
    setTf32(task.allowTf32);
    outs = loader->run(args);
  } catch (const std::exception &e) {
    setTf32(false);
    detail = package + " could not be loaded or run: " + e.what();
    return nullptr;
  }
  if (outs.size() != task.outputs.size()) {
    detail = package + " returns " + std::to_string(outs.size()) + " tensors, the task has " +
             std::to_string(task.outputs.size()) + " outputs";
    return nullptr;
  }
  // The reference as the protocol computes it: TF32 as for the package.
  TensorMap ref = reference.run(inputs, dims);
  setTf32(false);
  for (size_t i = 0; i < outs.size(); ++i) {
    const TensorSpec &o = task.outputs[i];
    const at::Tensor &r = ref.at(o.name);
    if (outs[i].sizes() != r.sizes() || outs[i].scalar_type() != r.scalar_type()) {
      detail = package + ": output '" + o.name + "' is " + c10::str(outs[i].sizes()) + " " +
               c10::toString(outs[i].scalar_type()) + ", the reference's " +
               c10::str(r.sizes()) + " " + c10::toString(r.scalar_type());
      return nullptr;
    }
    Tolerance tol = task.toleranceFor(o);
    ErrorStats s = compareTensors(outs[i], r, tol, /*poisonCheck=*/false);
    if (!s.pass()) {
      detail = package + " disagrees with the reference: " + describeFailure(o.name, s, tol);
      return nullptr;
    }
  }
  return loader;
}
#endif

} // namespace

std::vector<Contestant> baselineContestants(const Reference &reference, const Task &task,
                                            const TensorMap &inputs, const SymbolValues &dims,
                                            const std::string &package, nlohmann::json &status) {
  std::function<void()> eager = reference.timedClosure(inputs, dims);
  std::vector<Contestant> contestants = {{"eager_tf32_off", [eager] {
                                            setTf32(false);
                                            eager();
                                          }}};
  if (reference.hasFp32Matmul())
    contestants.push_back({"eager_tf32_on", [eager] {
                             setTf32(true);
                             eager();
                           }});
  if (package.empty())
    return contestants;
#if KBENCH_HAVE_AOTI
  // The package takes the task's inputs in task.json order.
  std::vector<at::Tensor> args;
  for (const TensorSpec &in : task.inputs)
    args.push_back(inputs.at(in.name));
  std::string detail;
  auto loader = loadChecked(reference, task, inputs, dims, args, package, detail);
  if (!loader) {
    status = {{"status", "rejected"}, {"detail", detail}};
    return contestants;
  }
  status = {{"status", "measured"}, {"check", "outputs match the reference"}};
  // TF32 as the package was compiled: off, or on for a task that opts into
  // tf32 (its extern matmuls call cuBLAS, which reads the global flag at run
  // time).
  bool tf32 = task.allowTf32;
  contestants.push_back({"torch_compile", [loader, args, tf32] {
                           setTf32(tf32);
                           loader->run(args);
                         }});
#else
  status = {{"status", "unavailable"},
            {"detail", "LibTorch " + linkedTorchVersion() + " has no AOTInductor loader"}};
#endif
  return contestants;
}

} // namespace kbench::runner
