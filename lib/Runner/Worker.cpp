//===- Worker.cpp - The check protocol and the timing phase ---------------===//
//
// One case (shape x seed x distribution) is, in this order:
//   1. inputs drawn for the seed, transformed for the distribution, cloned;
//      the candidate gets the clones;
//   2. outputs NaN-poisoned, temporaries zeroed, candidate run 1, sync;
//   3. the reference on the untouched inputs, in fp32 and (float tasks) in
//      fp64; a gated distribution whose fp32 and fp64 references disagree
//      is skipped here, before run 2;
//   4. fresh outputs, every other element holding the reference's value and
//      the rest poisoned (a kernel that skips work when its output seems to
//      hold the answer leaves poison), candidate run 2, sync;
//   5. the candidate's inputs compared bitwise with the untouched ones; each output of each run
//      compared with the reference; run 1's RMS error against fp64 compared
//      with the reference's own (the accuracy rule); the two runs compared
//      with each other; the unrefereeable rule on nominal distributions.
// A CUDA error at a sync ends the worker (the context is gone) with a
// "fatal" message naming the case; the supervisor turns it into a verdict.
//
// Steps 1 and 3 do not depend on the candidate: they are prepared once per
// case through a CaseCache, which a batch worker (runBatchWorker) keeps for
// every bundle it runs and a single run keeps for none.
//
// Past 600 lines because the case protocol and the process around it (one
// bundle, or a batch) share the file-local runner; split them when the
// protocol grows again.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Worker.h"

#include "kbench/Runner/BaselinePlan.h"
#include "kbench/Runner/BaselineTimings.h"
#include "kbench/Runner/Baselines.h"
#include "kbench/Runner/CaseCache.h"
#include "kbench/Runner/Compare.h"
#include "kbench/Runner/CudaDriver.h"
#include "kbench/Runner/GpuLock.h"
#include "kbench/Runner/Launcher.h"
#include "kbench/Runner/Reference.h"
#include "kbench/Runner/Timing.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/DeviceGuard.h>
#include <torch/version.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <thread>
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
  /// The GPU's memory (cuDeviceTotalMem); 0 on the host target.
  size_t memoryBytes = 0;
  bool gpu() const { return device.is_cuda(); }
  void sync(const std::string &what) const {
    if (cu)
      cu->synchronize(what);
  }
};

/// Opens the device for `target`; TF32 is off from here on, except around the
/// reference of a task that opts into it.
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
  d.memoryBytes = env.value("memory_bytes", size_t(0));
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

/// The case and step being run, for fatal messages; outlives the runner.
struct Where {
  nlohmann::json current;
  std::string step;
};

TensorMap toDevice(const TensorMap &m, const at::Device &device) {
  TensorMap out;
  for (const auto &[name, t] : m)
    out[name] = t.to(device).contiguous();
  return out;
}

TensorMap cloneAll(const TensorMap &m) {
  TensorMap out;
  for (const auto &[name, t] : m)
    out[name] = t.clone();
  return out;
}

std::string caseKey(const ShapeCase &sc, int seedIndex, Distribution dist) {
  return sc.label() + " seed#" + std::to_string(seedIndex) + " " + distributionName(dist);
}

class CaseRunner {
public:
  CaseRunner(const EvalPlan &plan, const Device &dev, const KernelModule &module,
             CaseCache &cache, Where &where, Channel &ch)
      : cache(cache), plan(plan), task(*plan.task), dev(dev), module(module), where(where),
        ch(ch) {}

  CaseCache &cache;

  void progress(const nlohmann::json &id, const std::string &what) {
    where.current = id;
    where.step = what;
    ch.send({{"type", "progress"}, {"case", id}, {"step", what}});
  }

  /// The case's inputs, from the cache or drawn now (its references are
  /// computed later, by reference()). Base draws are kept for the next
  /// distribution of the same shape and seed.
  std::shared_ptr<PreparedCase> prepare(const ShapeCase &sc, int seedIndex, Distribution dist) {
    std::string key = caseKey(sc, seedIndex, dist);
    std::shared_ptr<PreparedCase> p = cache.find(key);
    if (p)
      return p;
    std::string baseKey = sc.label() + " seed#" + std::to_string(seedIndex);
    if (baseKey != lastBaseKey) {
      progress({{"shape", sc.label()}, {"seed_index", seedIndex}}, "drawing inputs");
      lastBase = toDevice(drawInputs(task, sc.dims, plan.seeds[seedIndex]), dev.device);
      lastBaseKey = baseKey;
    }
    p = std::make_shared<PreparedCase>();
    p->inputs = applyDistribution(task, lastBase, dist);
    cache.offer(key, p);
    return p;
  }

  /// Step 3 for `p`, unless a previous bundle did it: the references in the
  /// task's dtypes and in fp64, and the fp64 gate.
  void reference(PreparedCase &p, const ShapeCase &sc) const {
    if (p.referenced)
      return;
    // A task that opts into tf32 is referenced as cuBLAS computes it with
    // TF32 on, so the accuracy rule measures a tf32 candidate against a tf32
    // reference; the fp64 reference below is exact either way.
    {
      setTf32(task.allowTf32);
      struct Tf32Off {
        ~Tf32Off() { setTf32(false); }
      } off; // also when the reference throws
      p.ref = plan.reference->run(p.inputs, sc.dims);
    }
    bool anyFloat = false;
    TensorMap inputs64;
    for (const auto &[name, t] : p.inputs) {
      bool f = c10::isFloatingType(t.scalar_type());
      anyFloat = anyFloat || f;
      inputs64[name] = f ? t.to(at::kDouble) : t;
    }
    if (anyFloat)
      p.ref64 = plan.reference->run(inputs64, sc.dims, /*checkDtypes=*/false);
    for (const TensorSpec &o : task.outputs) {
      if (!p.ref64.count(o.name) || !isFloat(o.dtype))
        continue;
      Tolerance tol = task.toleranceFor(o);
      ErrorStats g = compareTensors(p.ref.at(o.name), p.ref64.at(o.name), tol, false);
      p.outputs[o.name]["ref_vs_fp64"] = {{"max_abs_err", g.maxAbs},
                                          {"max_rel_err", g.maxRel},
                                          {"bad", g.bad},
                                          {"pass", g.pass()}};
      if (!g.pass() && p.gate.empty())
        p.gate = "output '" + o.name + "': the fp32 reference is outside the tolerance of the "
                 "fp64 reference (" + std::to_string(g.bad) + " elements, max abs err " +
                 number(g.maxAbs) + ")";
    }
    p.referenced = true;
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
        bufs[b.name] = at::zeros(bufferExtents(b, sc.launchDims),
                                 at::TensorOptions()
                                     .dtype(toScalarType(b.dtype))
                                     .device(dev.device));
    return bufs;
  }

  /// Run 2's outputs: every other element (which half alternates with the
  /// seed) already holds the reference's value, the rest the poison. An
  /// honest kernel overwrites both halves; one that reads its output and
  /// skips work when the output seems to hold the answer (the cached-output
  /// cheat, which repeated timing would reward) leaves poison behind.
  TensorMap allocateHalfAnswered(const ShapeCase &sc, const TensorMap &ref,
                                 int seedIndex) const {
    TensorMap bufs = allocate(sc);
    for (const TensorSpec &o : task.outputs) {
      at::Tensor flat = bufs.at(o.name).view({-1});
      at::Tensor answer = ref.at(o.name).to(flat.options()).reshape({-1});
      int64_t first = seedIndex % 2;
      if (flat.numel() > first)
        flat.slice(0, first, flat.numel(), 2).copy_(answer.slice(0, first, answer.numel(), 2));
    }
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
  bool run(const ShapeCase &sc, const std::vector<ResolvedLaunch> &launches, int seedIndex,
           Distribution dist) {
    auto t0 = std::chrono::steady_clock::now();
    nlohmann::json id = caseId(sc, seedIndex, plan.seeds[seedIndex], dist);
    nlohmann::json msg = id;
    msg["type"] = "case";
    if (!plan.manifest->variants.empty())
      msg["variant"] = plan.manifest->variantName(
          selectVariant(*plan.manifest, sc.launchDims));

    // The candidate runs on clones; the prepared inputs stay pristine, for
    // the reference and for the bitwise comparison of step 5.
    std::shared_ptr<PreparedCase> prepared = prepare(sc, seedIndex, dist);
    TensorMap inputs = cloneAll(prepared->inputs);

    progress(id, "candidate run 1");
    TensorMap run1 = allocate(sc);
    runCandidate(launches, inputs, run1);

    progress(id, "reference");
    reference(*prepared, sc);
    cache.offer(caseKey(sc, seedIndex, dist), prepared); // counted with its references
    const TensorMap &ref = prepared->ref;
    const TensorMap &ref64 = prepared->ref64;
    nlohmann::json outputs = prepared->outputs;
    if (isFp64Gated(dist) && !prepared->gate.empty()) {
      msg["verdict"] = verdictName(Verdict::Skipped);
      msg["detail"] = prepared->gate + ": this input is past the task's validity ceiling";
      msg["outputs"] = outputs;
      msg["seconds"] = secondsSince(t0);
      ch.send(msg);
      return true;
    }

    progress(id, "candidate run 2");
    TensorMap run2 = allocateHalfAnswered(sc, ref, seedIndex);
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
      auto diff = bitwiseDifference(inputs.at(in.name), prepared->inputs.at(in.name));
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
        fail(classify(s2), "run 2 (after the reference ran, into outputs half holding "
                           "the answer): " +
                               describeFailure(o.name, s2, tol));
      // The accuracy rule, once the elementwise bound holds (run 1; run 2
      // must agree with it below).
      if (s1.pass() && ref64.count(o.name) && hasAccuracyRule(o.dtype) && tol.fp64Ratio > 0) {
        AccuracyStats acc = measureAccuracy(
            run1.at(o.name), r, ref64.at(o.name), o.dtype, tol, task.allowTf32);
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
  Where &where;
  Channel &ch;
  std::string lastBaseKey;
  TensorMap lastBase;
};

/// The screening protocol at one shape: the baselines' timings come from
/// this worker's earlier bundles, else from the --baseline-timings file when
/// the same GPU, driver and LibTorch measured every contestant there, else
/// they are timed now (and kept in the file).
nlohmann::json timeScreenedKeepingBaselines(
    const Device &dev, CaseCache &cache, const Task &task, const ShapeCase &sc,
    const std::vector<Contestant> &contestants, const at::Tensor &flush,
    const TimingProtocol &protocol) {
  std::string key = baselineTimingKey(task, sc.dims, linkedTorchVersion(),
                                      l2FlushName(protocol.flush));
  nlohmann::json &known = cache.baselines(key);
  BaselineTimingFile *file = cache.timingFile();
  if (file && known.empty())
    if (const nlohmann::json *stored = file->find(key)) {
      bool complete = std::all_of(
          contestants.begin() + 1, contestants.end(),
          [&](const Contestant &c) { return stored->contains(c.name); });
      if (complete)
        known = *stored;
    }
  nlohmann::json t = timeScreened(*dev.cu, contestants, flush, protocol, known);
  if (!file)
    return t;
  nlohmann::json &how = t["baseline_timing"];
  how["file"] = file->path();
  if (how.value("now", false)) {
    std::string error = file->record(key, known);
    if (!error.empty())
      how["file_error"] = error;
  } else if (const nlohmann::json *stored = file->find(key);
             stored && *stored == known) {
    // Read from the file by this bundle or an earlier one of the worker, or
    // measured by an earlier one and kept there: either way these are the
    // file's numbers, from the time it says.
    how["measured"] =
        "once per shape and GPU, alone, full protocol, kept in the file";
    how["measured_at"] = file->measuredAt(key);
  }
  return t;
}

void timeShapes(const EvalPlan &plan, const Device &dev, CaseRunner &runner,
                const std::set<std::string> &failedShapes, Channel &ch) {
  int64_t flushWords = (2 * dev.cu->l2Bytes(dev.device.index()) + 3) / 4;
  at::Tensor flush = at::zeros({flushWords}, at::TensorOptions().dtype(at::kFloat).device(dev.device));
  const Task &task = *plan.task;
  TimingProtocol protocol = plan.timingProtocol;
  protocol.flush = plan.l2Flush;
  for (const ShapeCase &sc : plan.timedShapes) {
    nlohmann::json id = {{"set", sc.set}, {"index", sc.index}, {"dims", sc.dims},
                         {"shape", sc.label()}};
    if (failedShapes.count(sc.label())) {
      ch.send({{"type", "timing"}, {"shape_id", id}, {"skipped", "a check failed at this shape"}});
      continue;
    }
    // Prepared first: a draw announces its own step.
    TensorMap inputs = cloneAll(runner.prepare(sc, 0, Distribution::Randn)->inputs);
    runner.progress(id, "timing");
    std::vector<ResolvedLaunch> launches =
        resolveLaunches(*plan.manifest, sc.launchDims);
    TensorMap buffers = runner.allocate(sc);
    LaunchSequence seq = runner.bind(launches, inputs, buffers);
    auto package = plan.compiledPackages.find(sc.label());
    nlohmann::json compiled;
    // Every run of the candidate starts from poisoned outputs, as in the
    // checks: a kernel that reads its output and skips work when it already
    // holds the last run's result cannot do so here.
    std::vector<Contestant> contestants = {
        {"candidate", [&seq] { seq.run(); }, [&buffers, &task] {
           for (const TensorSpec &o : task.outputs)
             poison(buffers.at(o.name));
         }}};
    for (Contestant &c : baselineContestants(
             *plan.reference, task, inputs, sc.dims,
             package == plan.compiledPackages.end() ? "" : package->second, compiled))
      contestants.push_back(std::move(c));
    nlohmann::json t =
        protocol.baselinesOnce
            ? timeScreenedKeepingBaselines(dev, runner.cache, task, sc,
                                           contestants, flush, protocol)
            : timeInterleaved(*dev.cu, contestants, flush, protocol);
    setTf32(false);
    if (!compiled.is_null())
      t["baselines"]["torch_compile"] = compiled;
    t["type"] = "timing";
    t["shape_id"] = id;
    // A dispatch bundle says which of its variants ran at this shape.
    if (!plan.manifest->variants.empty())
      t["variant"] = plan.manifest->variantName(
          selectVariant(*plan.manifest, sc.launchDims));
    ch.send(t);
  }
}

/// How one bundle ended, for the worker's exit status and for whether a
/// batch worker may go on with the next bundle.
enum class Outcome {
  Done,
  BadInput, ///< the bundle's own files or the task (InputError): the device is fine
  Fault,    ///< a CUDA error: the context is gone
  Failed,   ///< anything else (LibTorch, ...): not worth trusting the process
};

int exitStatus(Outcome o) {
  switch (o) {
  case Outcome::Done:
    return 0;
  case Outcome::Fault:
    return 3;
  default:
    return 2;
  }
}

/// Sends the "fatal" message of the exception being handled (call it from a
/// catch block) and classifies it.
Outcome reportFailure(Channel &ch, const Where &where) {
  auto fatal = [&](Verdict v, const std::string &message) {
    ch.send({{"type", "fatal"},
             {"verdict", verdictName(v)},
             {"message", message},
             {"case", where.current},
             {"step", where.step}});
  };
  try {
    throw;
  } catch (const CudaError &e) {
    fatal(Verdict::Fault, e.what());
    return Outcome::Fault;
  } catch (const InputError &e) {
    fatal(Verdict::Error, e.what());
    return Outcome::BadInput;
  } catch (const c10::Error &e) {
    fatal(Verdict::Error, std::string("LibTorch: ") + e.what_without_backtrace());
    return Outcome::Failed;
  } catch (const std::exception &e) {
    fatal(Verdict::Error, e.what());
    return Outcome::Failed;
  } catch (...) {
    fatal(Verdict::Error, "an exception that is not a std::exception");
    return Outcome::Failed;
  }
}

Device openDeviceAndSay(const std::string &target, int device, Channel &ch,
                        nlohmann::json *said = nullptr) {
  nlohmann::json env;
  Device dev = openDevice(target, device, env);
  env["type"] = "env";
  ch.send(env);
  if (said)
    *said = env;
  return dev;
}

/// The timed region of one bundle, under the GPU's timing lock (GpuLock.h)
/// so that evaluators sharing the GPU never time at the same moment. The
/// host target has nothing to time; KBENCH_GPU_LOCK_ON_HOST makes it take
/// the lock anyway, to test the lock with concurrent host runs.
void timeUnderLock(const EvalPlan &plan, const Device &dev, CaseRunner &runner,
                   const std::set<std::string> &failedShapes, Channel &ch) {
  double hostHold = GpuLock::hostHoldSeconds();
  if (!dev.gpu() && hostHold <= 0)
    return;
  // A batch times the tune shape without checking it; that is worth GPU
  // time only for a candidate whose checks all passed.
  EvalPlan timed = plan;
  timed.timedShapes.clear();
  for (const ShapeCase &sc : plan.timedShapes) {
    bool checked = std::any_of(plan.shapes.begin(), plan.shapes.end(),
                               [&](const ShapeCase &c) { return c.label() == sc.label(); });
    if (checked || failedShapes.empty()) {
      timed.timedShapes.push_back(sc);
      continue;
    }
    ch.send({{"type", "timing"},
             {"shape_id", {{"set", sc.set}, {"index", sc.index}, {"dims", sc.dims},
                           {"shape", sc.label()}}},
             {"skipped", "not checked, and a check failed at another shape"}});
  }
  if (dev.gpu() && timed.timedShapes.empty())
    return;
  auto t0 = std::chrono::steady_clock::now();
  GpuLock lock(plan.device, [&] {
    runner.progress({{"lock", GpuLock::path(plan.device)}}, "waiting for the GPU timing lock");
  });
  if (dev.gpu())
    timeShapes(timed, dev, runner, failedShapes, ch);
  else
    std::this_thread::sleep_for(std::chrono::duration<double>(hostHold));
  nlohmann::json record = lock.release();
  record["type"] = "lock";
  ch.send(record);
  ch.send({{"type", "phase"}, {"name", "timing"}, {"seconds", secondsSince(t0)}});
}

/// One bundle on an open device: load, checks, timing. A failure is sent as
/// a "fatal" message; what was sent before it stays valid.
Outcome evaluateBundle(const EvalPlan &plan, const Device &dev, CaseCache &cache,
                       std::chrono::steady_clock::time_point t0, Channel &ch) {
  Where where;
  try {
    std::unique_ptr<KernelModule> module = KernelModule::load(*plan.manifest);
    ch.send({{"type", "module"},
             {"loaded_from", module->loadedFrom()},
             {"attributes", module->attributes()}});
    ch.send({{"type", "phase"}, {"name", "setup"}, {"seconds", secondsSince(t0)}});

    size_t hits0 = cache.hits, misses0 = cache.misses;
    CaseRunner runner(plan, dev, *module, cache, where, ch);
    std::set<std::string> failedShapes;
    auto t1 = std::chrono::steady_clock::now();
    for (const ShapeCase &sc : plan.shapes) {
      std::vector<ResolvedLaunch> launches =
          resolveLaunches(*plan.manifest, sc.launchDims);
      auto limit = plan.seedsBySet.find(sc.set);
      size_t seeds = limit == plan.seedsBySet.end()
                         ? plan.seeds.size()
                         : std::min(limit->second, plan.seeds.size());
      for (size_t s = 0; s < seeds; ++s)
        for (Distribution d : plan.distributions)
          if (!runner.run(sc, launches, static_cast<int>(s), d))
            failedShapes.insert(sc.label());
    }
    ch.send({{"type", "phase"}, {"name", "correctness"}, {"seconds", secondsSince(t1)}});

    if (plan.timing)
      timeUnderLock(plan, dev, runner, failedShapes, ch);
    if (cache.retains())
      ch.send({{"type", "cache"},
               {"case_hits", cache.hits - hits0},
               {"case_misses", cache.misses - misses0},
               {"retained_cases", cache.retainedCases()},
               {"retained_bytes", cache.retainedBytes()},
               {"budget_bytes", cache.budgetBytes()}});
    ch.send({{"type", "done"}, {"seconds", secondsSince(t0)}});
    return Outcome::Done;
  } catch (...) {
    return reportFailure(ch, where);
  }
}

} // namespace

int runWorker(const EvalPlan &plan, int fd) {
  Channel ch(fd);
  auto t0 = std::chrono::steady_clock::now();
  Device dev;
  try {
    dev = openDeviceAndSay(plan.target, plan.device, ch);
  } catch (...) {
    return exitStatus(reportFailure(ch, Where()));
  }
  CaseCache cache(0); // one bundle: nothing to share
  return exitStatus(evaluateBundle(plan, dev, cache, t0, ch));
}

int runBatchWorker(const std::vector<EvalPlan> &plans, size_t first, int fd) {
  Channel ch(fd);
  if (first >= plans.size())
    return 0;
  Device dev;
  CaseCache cache(0);
  try {
    nlohmann::json env;
    dev = openDeviceAndSay(plans[first].target, plans[first].device, ch, &env);
    cache = CaseCache(CaseCache::defaultBudget(dev.memoryBytes));
    const std::string &kept = plans[first].baselineTimingsFile;
    if (!kept.empty() && dev.gpu())
      cache.keepTimingsIn(std::make_unique<BaselineTimingFile>(
          kept,
          TimingMachine{env.value("gpu_uuid", ""), env.value("gpu", ""),
                        env.value("driver", ""), env.value("torch", "")},
          static_cast<int64_t>(std::time(nullptr))));
  } catch (...) {
    return exitStatus(reportFailure(ch, Where()));
  }
  for (size_t i = first; i < plans.size(); ++i) {
    ch.send({{"type", "bundle"}, {"index", i}});
    Outcome o = evaluateBundle(plans[i], dev, cache, std::chrono::steady_clock::now(), ch);
    ch.send({{"type", "bundle_end"}, {"index", i}});
    // A bundle's own bad files leave the device as it was; anything else
    // may not, and the supervisor starts a fresh worker for the rest.
    if (o != Outcome::Done && o != Outcome::BadInput)
      return exitStatus(o);
  }
  return 0;
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
