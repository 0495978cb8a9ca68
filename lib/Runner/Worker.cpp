//===- Worker.cpp - The check protocol and the timing phase ---------------===//
//
// One case (shape x seed x distribution) is, in this order:
//   1. inputs drawn for the seed, transformed for the distribution, cloned;
//   2. outputs NaN-poisoned, temporaries zeroed, candidate run 1, sync;
//   3. the reference on the clones, in fp32 and (float tasks) in fp64;
//      a gated distribution whose fp32 and fp64 references disagree is
//      skipped here, before run 2;
//   4. fresh poisoned outputs, candidate run 2, sync;
//   5. inputs compared bitwise with their clones; each output of each run
//      compared with the reference; run 1's RMS error against fp64 compared
//      with the reference's own (the accuracy rule); the two runs compared
//      with each other; the unrefereeable rule on nominal distributions.
// A CUDA error at a sync ends the worker (the context is gone) with a
// "fatal" message naming the case; the supervisor turns it into a verdict.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Worker.h"

#include "kbench/Runner/Baselines.h"
#include "kbench/Runner/Compare.h"
#include "kbench/Runner/CudaDriver.h"
#include "kbench/Runner/Launcher.h"
#include "kbench/Runner/Reference.h"
#include "kbench/Runner/Timing.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/DeviceGuard.h>
#include <torch/version.h>

#include <chrono>
#include <cstring>
#include <dlfcn.h>
#include <unistd.h>

namespace kbench::runner {

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// JSON lines on a pipe; write(2) directly, so a message is out before a
/// crash that may follow it.
class Channel {
public:
  explicit Channel(int fd) : fd(fd) {}
  void send(const nlohmann::json &message) {
    std::string line = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    line.push_back('\n');
    const char *p = line.data();
    size_t left = line.size();
    while (left > 0) {
      ssize_t n = ::write(fd, p, left);
      if (n <= 0)
        return; // the supervisor is gone; nothing useful left to do
      p += n;
      left -= static_cast<size_t>(n);
    }
  }

private:
  int fd;
};

/// Where tensors live and how to wait for the candidate.
struct Device {
  at::Device device = at::Device(at::kCPU);
  CudaDriver *cu = nullptr;
  /// Keeps the GPU current for the worker's life: LibTorch's own guards
  /// restore it after each op, so the driver calls of this thread stay on
  /// that device's primary context even for --device N > 0.
  std::shared_ptr<c10::DeviceGuard> guard;
  bool gpu() const { return device.is_cuda(); }
  void sync(const std::string &what) const {
    if (cu)
      cu->synchronize(what);
  }
};

/// Opens the device for `target`; the reference's TF32 is off from here on.
Device openDevice(const std::string &target, int index, nlohmann::json &env) {
  Device d;
  env["torch"] = TORCH_VERSION;
  env["target"] = target;
  env["cpu_threads"] = at::get_num_threads();
  char host[256] = {0};
  gethostname(host, sizeof(host) - 1);
  env["host"] = host;
  setTf32(false);
  if (target == "host")
    return d;
  std::string error;
  d.cu = CudaDriver::get(error);
  if (!d.cu)
    throw InputError(error);
  int count = d.cu->deviceCount();
  if (index < 0 || index >= count)
    throw InputError("--device " + std::to_string(index) + ": this machine has " +
                     std::to_string(count) + " GPU(s)");
  // LibTorch registers CUDA from libtorch_cuda.so; a linker that drops
  // unreferenced libraries leaves it unloaded, so load it by name.
  if (!at::hasCUDA())
    dlopen("libtorch_cuda.so", RTLD_NOW | RTLD_GLOBAL);
  if (!at::hasCUDA())
    throw InputError("this kbench-run links a LibTorch without CUDA (Debian's libtorch-dev is "
                     "CPU-only); on a GPU machine build it against torch's own LibTorch: "
                     "scripts/gpu-eval.sh does");
  d.device = at::Device(at::kCUDA, static_cast<c10::DeviceIndex>(index));
  d.guard = std::make_shared<c10::DeviceGuard>(d.device);
  // Creates the runtime's primary context, which the driver calls then share.
  at::empty({1}, at::TensorOptions().device(d.device)).zero_();
  d.cu->usePrimaryContext(index);
  // No persisting-L2 window may survive the flushes (llm.c #851).
  env["persisting_l2_limit_set_to_0"] = d.cu->disablePersistingL2();
  env.update(d.cu->describe(index));
  return d;
}

nlohmann::json caseId(const ShapeCase &sc, int seedIndex, uint64_t seed, Distribution dist) {
  return {{"set", sc.set},   {"index", sc.index},  {"dims", sc.dims},
          {"shape", sc.label()}, {"seed_index", seedIndex}, {"seed", seed},
          {"distribution", distributionName(dist)}};
}

int verdictRank(Verdict v) {
  switch (v) {
  case Verdict::Unwritten:
    return 1;
  case Verdict::InputModified:
    return 2;
  case Verdict::NonFinite:
    return 3;
  case Verdict::Mismatch:
    return 4;
  case Verdict::Inaccurate:
    return 5;
  case Verdict::Nondeterministic:
    return 6;
  case Verdict::Unrefereeable:
    return 7;
  default:
    return 8;
  }
}

Verdict classify(const ErrorStats &s) {
  if (s.poisoned > 0)
    return Verdict::Unwritten;
  if (s.nonFinite > 0)
    return Verdict::NonFinite;
  return Verdict::Mismatch;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.4g", v);
  return buf;
}

class CaseRunner {
public:
  CaseRunner(const EvalPlan &plan, const Device &dev, const KernelModule &module, Channel &ch)
      : plan(plan), task(*plan.task), dev(dev), module(module), ch(ch) {}

  /// The JSON of the case being run, for fatal messages.
  nlohmann::json current;
  std::string step;

  void progress(const nlohmann::json &id, const std::string &what) {
    current = id;
    step = what;
    ch.send({{"type", "progress"}, {"case", id}, {"step", what}});
  }

  /// Output and temporary buffers for one run: outputs poisoned, temporaries 0.
  TensorMap allocate(const ShapeCase &sc) const {
    TensorMap bufs;
    for (const TensorSpec &o : task.outputs) {
      at::Tensor t = at::empty(o.extents(sc.dims),
                               at::TensorOptions().dtype(toScalarType(o.dtype)).device(dev.device));
      poison(t);
      bufs[o.name] = t;
    }
    for (const BufferSpec &b : plan.manifest->buffers)
      if (b.role == BufferSpec::Role::Temporary)
        bufs[b.name] = at::zeros(bufferExtents(b, sc.dims),
                                 at::TensorOptions().dtype(toScalarType(b.dtype)).device(dev.device));
    return bufs;
  }

  LaunchSequence bind(const std::vector<ResolvedLaunch> &launches, const TensorMap &inputs,
                      const TensorMap &buffers) const {
    std::map<std::string, void *> pointers;
    std::map<std::string, uint64_t> scalars;
    for (const auto &[name, t] : inputs) {
      pointers[name] = t.data_ptr();
      if (t.dim() == 0) {
        at::Tensor host = t.cpu();
        uint64_t bits = 0;
        std::memcpy(&bits, host.data_ptr(), host.element_size());
        scalars[name] = bits;
      }
    }
    for (const auto &[name, t] : buffers)
      pointers[name] = t.data_ptr();
    return module.bind(launches, pointers, scalars);
  }

  void runCandidate(const std::vector<ResolvedLaunch> &launches, const TensorMap &inputs,
                    const TensorMap &buffers) const {
    LaunchSequence seq = bind(launches, inputs, buffers);
    seq.run();
    dev.sync("synchronizing after the candidate's launches");
  }

  /// One case; returns false when it failed.
  bool run(const ShapeCase &sc, const std::vector<ResolvedLaunch> &launches,
           const TensorMap &base, int seedIndex, Distribution dist) {
    auto t0 = std::chrono::steady_clock::now();
    nlohmann::json id = caseId(sc, seedIndex, plan.seeds[seedIndex], dist);
    nlohmann::json msg = id;
    msg["type"] = "case";

    TensorMap inputs = applyDistribution(task, base, dist);
    TensorMap clones;
    for (const auto &[name, t] : inputs)
      clones[name] = t.clone();

    progress(id, "candidate run 1");
    TensorMap run1 = allocate(sc);
    runCandidate(launches, inputs, run1);

    progress(id, "reference");
    TensorMap ref = plan.reference->run(clones, sc.dims);
    TensorMap ref64;
    bool anyFloat = false;
    TensorMap clones64;
    for (const auto &[name, t] : clones) {
      bool f = c10::isFloatingType(t.scalar_type());
      anyFloat = anyFloat || f;
      clones64[name] = f ? t.to(at::kDouble) : t;
    }
    if (anyFloat)
      ref64 = plan.reference->run(clones64, sc.dims, /*checkDtypes=*/false);

    nlohmann::json outputs = nlohmann::json::object();
    std::string gate;
    for (const TensorSpec &o : task.outputs) {
      if (!ref64.count(o.name) || !isFloat(o.dtype))
        continue;
      Tolerance tol = task.toleranceFor(o);
      ErrorStats g = compareTensors(ref.at(o.name), ref64.at(o.name), tol, false);
      outputs[o.name]["ref_vs_fp64"] = {{"max_abs_err", g.maxAbs},
                                        {"max_rel_err", g.maxRel},
                                        {"bad", g.bad},
                                        {"pass", g.pass()}};
      if (!g.pass() && gate.empty())
        gate = "output '" + o.name + "': the fp32 reference is outside the tolerance of the "
               "fp64 reference (" + std::to_string(g.bad) + " elements, max abs err " +
               number(g.maxAbs) + ")";
    }
    if (isFp64Gated(dist) && !gate.empty()) {
      msg["verdict"] = verdictName(Verdict::Skipped);
      msg["detail"] = gate + ": this input is past the task's validity ceiling";
      msg["outputs"] = outputs;
      msg["seconds"] = secondsSince(t0);
      ch.send(msg);
      return true;
    }

    progress(id, "candidate run 2");
    TensorMap run2 = allocate(sc);
    runCandidate(launches, inputs, run2);

    progress(id, "compare");
    Verdict verdict = Verdict::Pass;
    std::vector<std::string> failures;
    auto fail = [&](Verdict v, const std::string &text) {
      failures.push_back(text);
      if (verdict == Verdict::Pass || verdictRank(v) < verdictRank(verdict))
        verdict = v;
    };

    bool inputsUnchanged = true;
    for (const TensorSpec &in : task.inputs) {
      auto diff = bitwiseDifference(inputs.at(in.name), clones.at(in.name));
      if (!diff)
        continue;
      inputsUnchanged = false;
      fail(Verdict::InputModified,
           "input '" + in.name + "' was written by the candidate: " +
               std::to_string(diff->second) + " elements differ from its clone, first at " +
               indexString(diff->first));
    }

    for (const TensorSpec &o : task.outputs) {
      Tolerance tol = task.toleranceFor(o);
      const at::Tensor &r = ref.at(o.name);
      ErrorStats s1 = compareTensors(run1.at(o.name), r, tol, true);
      ErrorStats s2 = compareTensors(run2.at(o.name), r, tol, true);
      nlohmann::json &oj = outputs[o.name];
      oj["run1"] = toJson(s1);
      oj["run2"] = toJson(s2);
      if (!s1.refFinite) {
        fail(Verdict::Error, "output '" + o.name + "': the reference itself is NaN or Inf "
                             "for this input; the task's inputs overflow it");
        continue;
      }
      if (isNominal(dist) && isUnrefereeable(tol, s1.rmsRef))
        fail(Verdict::Unrefereeable,
             "output '" + o.name + "': atol " + number(tol.atol) + " >= 0.1 * RMS(ref) = " +
                 number(0.1 * s1.rmsRef) + ", so a kernel writing zeros would pass; lower the "
                 "task's atol or pick shapes with larger outputs");
      if (!s1.pass() && !s2.pass())
        fail(classify(s1), "runs 1 and 2: " + describeFailure(o.name, s1, tol));
      else if (!s1.pass())
        fail(classify(s1), "run 1: " + describeFailure(o.name, s1, tol));
      else if (!s2.pass())
        fail(classify(s2), "run 2 (after the reference ran): " +
                               describeFailure(o.name, s2, tol));
      // The accuracy rule, once the elementwise bound holds (run 1; run 2
      // must agree with it below).
      if (s1.pass() && ref64.count(o.name) && hasAccuracyRule(o.dtype) && tol.fp64Ratio > 0) {
        AccuracyStats acc =
            measureAccuracy(run1.at(o.name), r, ref64.at(o.name), o.dtype, tol);
        oj["accuracy"] = toJson(acc);
        if (!acc.pass())
          fail(Verdict::Inaccurate, describeInaccuracy(o.name, acc));
      }
      auto differ = bitwiseDifference(run1.at(o.name), run2.at(o.name));
      oj["runs_bitwise_equal"] = !differ.has_value();
      if (s1.pass() && s2.pass() && differ) {
        ErrorStats agree = compareTensors(run2.at(o.name), run1.at(o.name), tol, false);
        if (!agree.pass())
          fail(Verdict::Nondeterministic,
               "output '" + o.name + "': runs 1 and 2 disagree beyond the tolerance at " +
                   std::to_string(agree.bad) + " elements, first at " +
                   indexString(differ->first));
      }
    }

    msg["verdict"] = verdictName(verdict);
    if (!failures.empty()) {
      std::string detail;
      for (const std::string &f : failures)
        detail += (detail.empty() ? "" : "; ") + f;
      msg["detail"] = detail;
    }
    msg["outputs"] = outputs;
    msg["inputs_unchanged"] = inputsUnchanged;
    msg["seconds"] = secondsSince(t0);
    ch.send(msg);
    return verdict == Verdict::Pass;
  }

private:
  const EvalPlan &plan;
  const Task &task;
  const Device &dev;
  const KernelModule &module;
  Channel &ch;
};

TensorMap toDevice(const TensorMap &m, const at::Device &device) {
  TensorMap out;
  for (const auto &[name, t] : m)
    out[name] = t.to(device).contiguous();
  return out;
}

void timeShapes(const EvalPlan &plan, const Device &dev, CaseRunner &runner,
                const std::set<std::string> &failedShapes, Channel &ch) {
  const Task &task = *plan.task;
  int64_t flushWords = (2 * dev.cu->l2Bytes(dev.device.index()) + 3) / 4;
  at::Tensor flush = at::zeros({flushWords}, at::TensorOptions().dtype(at::kFloat).device(dev.device));
  TimingProtocol protocol;
  protocol.flush = plan.l2Flush;
  for (const ShapeCase &sc : plan.shapes) {
    if (std::find(plan.timedSets.begin(), plan.timedSets.end(), sc.set) == plan.timedSets.end())
      continue;
    nlohmann::json id = {{"set", sc.set}, {"index", sc.index}, {"dims", sc.dims},
                         {"shape", sc.label()}};
    if (failedShapes.count(sc.label())) {
      ch.send({{"type", "timing"}, {"shape_id", id}, {"skipped", "a check failed at this shape"}});
      continue;
    }
    runner.progress(id, "timing");
    std::vector<ResolvedLaunch> launches = resolveLaunches(*plan.manifest, sc.dims);
    TensorMap inputs = toDevice(
        applyDistribution(task, drawInputs(task, sc.dims, plan.seeds[0]), Distribution::Randn),
        dev.device);
    TensorMap buffers = runner.allocate(sc);
    LaunchSequence seq = runner.bind(launches, inputs, buffers);
    auto package = plan.compiledPackages.find(sc.label());
    nlohmann::json compiled;
    std::vector<Contestant> contestants = {{"candidate", [&seq] { seq.run(); }}};
    for (Contestant &c : baselineContestants(
             *plan.reference, task, inputs, sc.dims,
             package == plan.compiledPackages.end() ? "" : package->second, compiled))
      contestants.push_back(std::move(c));
    nlohmann::json t = timeInterleaved(*dev.cu, contestants, flush, protocol);
    setTf32(false);
    if (!compiled.is_null())
      t["baselines"]["torch_compile"] = compiled;
    t["type"] = "timing";
    t["shape_id"] = id;
    ch.send(t);
  }
}

} // namespace

int runWorker(const EvalPlan &plan, int fd) {
  Channel ch(fd);
  auto t0 = std::chrono::steady_clock::now();
  const Task &task = *plan.task;
  CaseRunner *active = nullptr;
  try {
    nlohmann::json env;
    Device dev = openDevice(plan.target, plan.device, env);
    env["type"] = "env";
    ch.send(env);
    std::unique_ptr<KernelModule> module = KernelModule::load(*plan.manifest);
    ch.send({{"type", "module"},
             {"loaded_from", module->loadedFrom()},
             {"attributes", module->attributes()}});
    ch.send({{"type", "phase"}, {"name", "setup"}, {"seconds", secondsSince(t0)}});

    CaseRunner runner(plan, dev, *module, ch);
    active = &runner;
    std::set<std::string> failedShapes;
    auto t1 = std::chrono::steady_clock::now();
    for (const ShapeCase &sc : plan.shapes) {
      std::vector<ResolvedLaunch> launches = resolveLaunches(*plan.manifest, sc.dims);
      for (size_t s = 0; s < plan.seeds.size(); ++s) {
        runner.progress({{"shape", sc.label()}, {"seed_index", s}}, "drawing inputs");
        TensorMap base = toDevice(drawInputs(task, sc.dims, plan.seeds[s]), dev.device);
        for (Distribution d : plan.distributions)
          if (!runner.run(sc, launches, base, static_cast<int>(s), d))
            failedShapes.insert(sc.label());
      }
    }
    ch.send({{"type", "phase"}, {"name", "correctness"}, {"seconds", secondsSince(t1)}});

    if (plan.timing && dev.gpu()) {
      auto t2 = std::chrono::steady_clock::now();
      timeShapes(plan, dev, runner, failedShapes, ch);
      ch.send({{"type", "phase"}, {"name", "timing"}, {"seconds", secondsSince(t2)}});
    }
    ch.send({{"type", "done"}, {"seconds", secondsSince(t0)}});
    return 0;
  } catch (const CudaError &e) {
    ch.send({{"type", "fatal"},
             {"verdict", verdictName(Verdict::Fault)},
             {"message", e.what()},
             {"case", active ? active->current : nlohmann::json()},
             {"step", active ? active->step : ""}});
    return 3;
  } catch (const InputError &e) {
    ch.send({{"type", "fatal"},
             {"verdict", verdictName(Verdict::Error)},
             {"message", e.what()},
             {"case", active ? active->current : nlohmann::json()},
             {"step", active ? active->step : ""}});
    return 2;
  } catch (const c10::Error &e) {
    ch.send({{"type", "fatal"},
             {"verdict", verdictName(Verdict::Error)},
             {"message", std::string("LibTorch: ") + e.what_without_backtrace()},
             {"case", active ? active->current : nlohmann::json()},
             {"step", active ? active->step : ""}});
    return 2;
  } catch (const std::exception &e) {
    ch.send({{"type", "fatal"},
             {"verdict", verdictName(Verdict::Error)},
             {"message", e.what()},
             {"case", active ? active->current : nlohmann::json()},
             {"step", active ? active->step : ""}});
    return 2;
  }
}

int runCalibration(int device, int fd) {
  Channel ch(fd);
  try {
    nlohmann::json env;
    Device dev = openDevice("sm_90a", device, env);
    env["type"] = "env";
    ch.send(env);
    nlohmann::json c = calibrate(*dev.cu, device);
    c["type"] = "calibration";
    ch.send(c);
    ch.send({{"type", "done"}});
    return 0;
  } catch (const CudaError &e) {
    ch.send({{"type", "fatal"}, {"verdict", "fault"}, {"message", e.what()}});
    return 3;
  } catch (const std::exception &e) {
    ch.send({{"type", "fatal"}, {"verdict", "error"}, {"message", e.what()}});
    return 2;
  }
}

} // namespace kbench::runner
