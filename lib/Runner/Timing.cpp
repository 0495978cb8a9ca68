//===- Timing.cpp - CUDA-event timing and calibration ---------------------===//
//
// Everything here runs on stream 0: cuLaunchKernel(hStream = 0), driver
// events and memsets on stream 0, and LibTorch eager ops on its default
// stream, which is the legacy default stream. So one event pair brackets a
// candidate's launch sequence or a baseline's ops alike, and the flush before
// each run is ordered before it without a host sync.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Timing.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <algorithm>
#include <cmath>

namespace kbench::runner {

TimingStats summarize(std::vector<double> samples) {
  TimingStats s;
  s.n = static_cast<int>(samples.size());
  if (samples.empty())
    return s;
  std::sort(samples.begin(), samples.end());
  auto quantile = [&](double p) {
    double pos = p * (samples.size() - 1);
    size_t lo = static_cast<size_t>(std::floor(pos));
    size_t hi = std::min(lo + 1, samples.size() - 1);
    return samples[lo] + (pos - lo) * (samples[hi] - samples[lo]);
  };
  s.median = quantile(0.5);
  s.q1 = quantile(0.25);
  s.q3 = quantile(0.75);
  s.min = samples.front();
  double sum = 0;
  for (double v : samples)
    sum += v;
  s.mean = sum / samples.size();
  return s;
}

nlohmann::json toJson(const TimingStats &s) {
  return {{"median_us", s.median}, {"iqr_us", s.q3 - s.q1}, {"q1_us", s.q1},
          {"q3_us", s.q3},         {"min_us", s.min},       {"mean_us", s.mean},
          {"n", s.n}};
}

namespace {

/// Events of one batch, created once and reused.
class EventPool {
public:
  EventPool(CudaDriver &cu, size_t count) : cu(cu) {
    for (size_t i = 0; i < count; ++i)
      events.push_back(cu.createEvent());
  }
  ~EventPool() {
    for (CudaDriver::Event e : events)
      cu.destroyEvent(e);
  }
  CudaDriver::Event operator[](size_t i) const { return events[i]; }

private:
  CudaDriver &cu;
  std::vector<CudaDriver::Event> events;
};

/// Empties the L2 of anything a contestant touched. A read of `flush` evicts
/// every line and writes dirty ones back now, outside the events, leaving
/// clean lines of a buffer no contestant uses. A memset evicts too but
/// leaves the buffer's own dirty lines, written back during the next run.
void flushL2(CudaDriver &cu, const at::Tensor &flush, L2Flush mode, unsigned value) {
  if (mode == L2Flush::Write) {
    cu.memsetD32(flush.data_ptr(), value, static_cast<size_t>(flush.numel()));
    return;
  }
  (void)at::sum(flush);
}

double elapsedUs(CudaDriver &cu, CudaDriver::Event start, CudaDriver::Event end) {
  return static_cast<double>(cu.elapsedMs(start, end)) * 1e3;
}

/// What comes before every run of `c`, outside the events: its prepare
/// (the candidate's outputs poisoned again), then the L2 flush, which also
/// evicts the lines the poison wrote.
void beforeRun(CudaDriver &cu, const Contestant &c, const at::Tensor &flush, L2Flush mode,
               unsigned value) {
  if (c.prepare)
    c.prepare();
  flushL2(cu, flush, mode, value);
}

/// Median time of `c` over `reps` runs, each after beforeRun (microseconds).
double probe(CudaDriver &cu, const Contestant &c, const at::Tensor &flush, L2Flush mode,
             int reps) {
  EventPool ev(cu, 2 * reps);
  for (int i = 0; i < reps; ++i) {
    beforeRun(cu, c, flush, mode, i);
    cu.record(ev[2 * i]);
    c.run();
    cu.record(ev[2 * i + 1]);
  }
  cu.synchronize("synchronizing after the timing probe");
  std::vector<double> t;
  for (int i = 0; i < reps; ++i)
    t.push_back(elapsedUs(cu, ev[2 * i], ev[2 * i + 1]));
  return summarize(t).median;
}

} // namespace

const char *l2FlushName(L2Flush flush) {
  return flush == L2Flush::Read ? "read" : "write";
}

std::optional<L2Flush> parseL2Flush(const std::string &name) {
  if (name == "read")
    return L2Flush::Read;
  if (name == "write")
    return L2Flush::Write;
  return std::nullopt;
}

nlohmann::json timeInterleaved(CudaDriver &cu, const std::vector<Contestant> &contestants,
                               const at::Tensor &flush, const TimingProtocol &p) {
  const size_t k = contestants.size();
  for (int w = 0; w < p.warmup; ++w)
    for (const Contestant &c : contestants) {
      beforeRun(cu, c, flush, p.flush, w);
      c.run();
    }
  cu.synchronize("synchronizing after warmup");

  double estimate = probe(cu, contestants[0], flush, p.flush, p.probe);
  int reps = p.maxReps;
  if (estimate > 0)
    reps = static_cast<int>(std::ceil(p.minSeconds * 1e6 / estimate));
  reps = std::clamp(reps, p.minReps, p.maxReps);

  std::vector<std::vector<double>> samples(k);
  EventPool ev(cu, 2 * k * p.batch);
  for (int done = 0; done < reps;) {
    int batch = std::min(p.batch, reps - done);
    for (int r = 0; r < batch; ++r) {
      for (size_t j = 0; j < k; ++j) {
        size_t c = (j + done + r) % k; // rotate the order every round
        size_t slot = 2 * (r * k + c);
        beforeRun(cu, contestants[c], flush, p.flush, static_cast<unsigned>(done + r));
        cu.record(ev[slot]);
        contestants[c].run();
        cu.record(ev[slot + 1]);
      }
    }
    cu.synchronize("synchronizing after timed runs");
    for (int r = 0; r < batch; ++r)
      for (size_t c = 0; c < k; ++c) {
        size_t slot = 2 * (r * k + c);
        samples[c].push_back(elapsedUs(cu, ev[slot], ev[slot + 1]));
      }
    done += batch;
  }

  nlohmann::json result = {{"protocol", p.name},
                           {"reps", reps},
                           {"warmup", p.warmup},
                           {"probe_median_us", estimate},
                           {"flush", l2FlushName(p.flush)},
                           {"outputs_repoisoned", true},
                           {"flush_bytes", flush.numel() * 4}};
  for (size_t c = 0; c < k; ++c)
    result["contestants"][contestants[c].name] = toJson(summarize(samples[c]));
  return result;
}

nlohmann::json timeScreened(CudaDriver &cu, const std::vector<Contestant> &contestants,
                            const at::Tensor &flush, const TimingProtocol &p,
                            nlohmann::json &baselines) {
  nlohmann::json result = timeInterleaved(cu, {contestants.front()}, flush, p);
  // The baselines do not change from one candidate to the next, so a batch
  // measures them once, and well (the full protocol), instead of spending
  // half of every screening round on them.
  std::vector<Contestant> missing;
  for (size_t i = 1; i < contestants.size(); ++i)
    if (!baselines.contains(contestants[i].name))
      missing.push_back(contestants[i]);
  if (!missing.empty()) {
    TimingProtocol full = TimingProtocol::full();
    full.flush = p.flush;
    nlohmann::json measured = timeInterleaved(cu, missing, flush, full);
    for (const auto &[name, stats] : measured["contestants"].items())
      baselines[name] = stats;
  }
  for (size_t i = 1; i < contestants.size(); ++i)
    result["contestants"][contestants[i].name] = baselines[contestants[i].name];
  result["baseline_timing"] = {{"measured", "once per shape and worker, alone, full protocol"},
                         {"now", !missing.empty()}};
  return result;
}

nlohmann::json calibrate(CudaDriver &cu, int device) {
  at::Device dev(at::kCUDA, static_cast<c10::DeviceIndex>(device));
  c10::NoGradGuard noGrad;
  nlohmann::json result;

  // Copy bandwidth: read + write bytes over the median time of a 1 GiB copy.
  {
    const int64_t bytes = int64_t(1) << 30;
    at::Tensor src = at::empty({bytes / 4}, at::TensorOptions().dtype(at::kFloat).device(dev));
    at::Tensor dst = at::empty_like(src);
    src.fill_(1.0);
    auto copy = [&] { cu.copyDeviceToDevice(dst.data_ptr(), src.data_ptr(), bytes); };
    for (int i = 0; i < 3; ++i)
      copy();
    EventPool ev(cu, 40);
    std::vector<double> t;
    for (int i = 0; i < 20; ++i) {
      cu.record(ev[2 * i]);
      copy();
      cu.record(ev[2 * i + 1]);
    }
    cu.synchronize("synchronizing after the copy benchmark");
    for (int i = 0; i < 20; ++i)
      t.push_back(elapsedUs(cu, ev[2 * i], ev[2 * i + 1]));
    TimingStats s = summarize(t);
    result["copy"] = {{"bytes", bytes}, {"time", toJson(s)},
                      {"bandwidth_bytes_per_s", 2.0 * bytes / (s.median * 1e-6)}};
  }

  // GEMM rates through cuBLAS (at::mm), 8192^3.
  struct Gemm {
    const char *name;
    at::ScalarType type;
    bool tf32;
  };
  const Gemm gemms[] = {{"bf16", at::kBFloat16, false},
                        {"f16", at::kHalf, false},
                        {"f32", at::kFloat, false},
                        {"tf32", at::kFloat, true}};
  const int64_t n = 8192;
  for (const Gemm &g : gemms) {
    at::TensorOptions opts = at::TensorOptions().dtype(g.type).device(dev);
    at::Tensor a = at::randn({n, n}, opts), b = at::randn({n, n}, opts);
    at::Tensor c = at::empty({n, n}, opts);
    at::globalContext().setAllowTF32CuBLAS(g.tf32);
    auto mm = [&] { at::mm_out(c, a, b); };
    for (int i = 0; i < 3; ++i)
      mm();
    EventPool ev(cu, 20);
    std::vector<double> t;
    for (int i = 0; i < 10; ++i) {
      cu.record(ev[2 * i]);
      mm();
      cu.record(ev[2 * i + 1]);
    }
    cu.synchronize("synchronizing after the GEMM benchmark");
    for (int i = 0; i < 10; ++i)
      t.push_back(elapsedUs(cu, ev[2 * i], ev[2 * i + 1]));
    TimingStats s = summarize(t);
    result["gemm"][g.name] = {{"m", n}, {"n", n}, {"k", n}, {"time", toJson(s)},
                              {"flops_per_s", 2.0 * n * n * n / (s.median * 1e-6)}};
  }
  at::globalContext().setAllowTF32CuBLAS(false);
  return result;
}

} // namespace kbench::runner
