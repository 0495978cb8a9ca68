//===- Compare.cpp - Tolerance checks, poison and verdict text ------------===//
//
// All comparisons are a handful of ATen ops in fp64 on the tensors' device,
// whose results come back to the host in one transfer per comparison; the
// element loop never runs on the CPU for GPU tensors, which keeps a
// candidate's check well under a second.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Compare.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>
#include <limits>
#include <sstream>

namespace kbench::runner {

const char *verdictName(Verdict verdict) {
  switch (verdict) {
  case Verdict::Pass:
    return "pass";
  case Verdict::Skipped:
    return "skipped";
  case Verdict::Unwritten:
    return "unwritten";
  case Verdict::InputModified:
    return "input_modified";
  case Verdict::NonFinite:
    return "nonfinite";
  case Verdict::Mismatch:
    return "mismatch";
  case Verdict::Inaccurate:
    return "inaccurate";
  case Verdict::Nondeterministic:
    return "nondeterministic";
  case Verdict::Unrefereeable:
    return "unrefereeable";
  case Verdict::RequiresViolated:
    return "requires_violated";
  case Verdict::Crash:
    return "crash";
  case Verdict::Timeout:
    return "timeout";
  case Verdict::Fault:
    return "fault";
  case Verdict::Error:
    return "error";
  }
  return "error";
}

bool isFailure(Verdict verdict) {
  return verdict != Verdict::Pass && verdict != Verdict::Skipped;
}

bool isUnrefereeable(Tolerance tol, double rmsRef) { return tol.atol >= 0.1 * rmsRef; }

namespace {

/// The poison's integer view and bit pattern for a dtype.
std::pair<at::ScalarType, int64_t> poisonPattern(at::ScalarType type) {
  switch (type) {
  case at::kFloat:
    return {at::kInt, 0x7FC5EED5};
  case at::kDouble:
    return {at::kLong, 0x7FF8BAD05EED5EEDLL};
  case at::kHalf:
    return {at::kShort, 0x7E5B};
  case at::kBFloat16:
    return {at::kShort, 0x7FCB};
  case at::kBool:
  case at::kByte:
  case at::kChar:
    return {at::kByte, 0x5A};
  case at::kShort:
    return {at::kShort, 0x5A5A};
  case at::kInt:
    return {at::kInt, 0x5A5A5A5A};
  default:
    return {at::kLong, 0x5A5A5A5A5A5A5A5ALL};
  }
}

at::Tensor bits(const at::Tensor &t) {
  auto [view, pattern] = poisonPattern(t.scalar_type());
  (void)pattern;
  return t.contiguous().view(view);
}

std::vector<int64_t> unravel(int64_t flat, at::IntArrayRef sizes) {
  std::vector<int64_t> index(sizes.size());
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    index[d] = flat % sizes[d];
    flat /= sizes[d];
  }
  return index;
}

std::string number(double v) {
  std::ostringstream os;
  os.precision(6);
  os << v;
  return os.str();
}

std::string boxString(const std::vector<std::pair<int64_t, int64_t>> &box) {
  std::string s = "[";
  for (size_t i = 0; i < box.size(); ++i) {
    s += i ? ", " : "";
    s += std::to_string(box[i].first);
    if (box[i].second != box[i].first)
      s += ".." + std::to_string(box[i].second);
  }
  return s + "]";
}

} // namespace

std::string indexString(const std::vector<int64_t> &index) {
  std::string s = "[";
  for (size_t i = 0; i < index.size(); ++i)
    s += (i ? ", " : "") + std::to_string(index[i]);
  return s + "]";
}

void poison(const at::Tensor &t) {
  auto [view, pattern] = poisonPattern(t.scalar_type());
  t.view(view).fill_(pattern);
}

ErrorStats compareTensors(const at::Tensor &out, const at::Tensor &ref, Tolerance tol,
                          bool poisonCheck) {
  ErrorStats s;
  c10::NoGradGuard noGrad;
  at::Tensor o = out.detach().to(at::kDouble);
  at::Tensor r = ref.detach().to(at::kDouble);
  s.count = o.numel();
  if (s.count == 0)
    return s;
  at::Tensor diff = (o - r).abs();
  at::Tensor bound = r.abs() * tol.rtol + tol.atol;
  // NaN compares false, so NaN in either tensor lands in `bad`.
  at::Tensor badMask = (diff <= bound).logical_not();
  at::Tensor finiteOut = at::isfinite(o);
  at::Tensor poisoned;
  if (poisonCheck) {
    auto [view, pattern] = poisonPattern(out.scalar_type());
    (void)view;
    poisoned = bits(out) == pattern;
    // An integer reference may legitimately equal the pattern.
    if (!at::isFloatingType(out.scalar_type()))
      poisoned = poisoned.logical_and(bits(ref) != pattern);
  }
  at::Tensor finiteDiff = at::isfinite(diff);
  at::Tensor relMask = (r.abs() > tol.atol).logical_and(finiteDiff);
  at::Tensor rel = diff / r.abs().clamp_min(std::numeric_limits<double>::min());
  // Worst element: the largest excess over the bound; a non-finite difference
  // is worse than any finite one.
  at::Tensor excess = (diff - bound).masked_fill(finiteDiff.logical_not(),
                                                 std::numeric_limits<double>::infinity());
  at::Tensor flat = excess.flatten().argmax().view({1});

  // Every statistic is computed on the tensors' device and copied back in
  // one transfer: one host sync per comparison instead of one per number,
  // which is most of a check's time at small shapes on a GPU. Counts and
  // the index travel as doubles, exact below 2^53 elements.
  enum Stat {
    Bad,
    RefFinite,
    MeanSquare,
    NonFinite,
    Poisoned,
    MaxAbs,
    MaxRel,
    Flat,
    Got,
    Expected,
    NumStats
  };
  std::vector<at::Tensor> stats(NumStats);
  stats[Bad] = badMask.sum().to(at::kDouble);
  stats[RefFinite] = at::isfinite(r).all().to(at::kDouble);
  stats[MeanSquare] = (r * r).mean();
  stats[NonFinite] = finiteOut.logical_not().sum().to(at::kDouble);
  stats[Poisoned] =
      poisonCheck ? poisoned.sum().to(at::kDouble) : at::zeros_like(stats[Bad]);
  stats[MaxAbs] = diff.masked_fill(finiteDiff.logical_not(), 0.0).max();
  stats[MaxRel] = rel.masked_fill(relMask.logical_not(), 0.0).max();
  stats[Flat] = flat.to(at::kDouble).squeeze(0);
  stats[Got] = o.flatten().index_select(0, flat).squeeze(0);
  stats[Expected] = r.flatten().index_select(0, flat).squeeze(0);
  at::Tensor host = at::stack(stats).cpu();
  const double *v = host.data_ptr<double>();

  s.bad = static_cast<int64_t>(v[Bad]);
  s.refFinite = v[RefFinite] != 0;
  s.rmsRef = std::sqrt(v[MeanSquare]);
  s.nonFinite = static_cast<int64_t>(v[NonFinite]);
  if (poisonCheck) {
    s.poisoned = static_cast<int64_t>(v[Poisoned]);
    if (at::isFloatingType(out.scalar_type()))
      s.nonFinite -= s.poisoned;
  }
  s.maxAbs = v[MaxAbs];
  s.maxRel = v[MaxRel];
  s.worst = unravel(static_cast<int64_t>(v[Flat]), o.sizes());
  s.worstGot = v[Got];
  s.worstExpected = v[Expected];

  // Only a failing comparison pays for its bounding box.
  if (s.bad > 0 && o.dim() > 0) {
    for (int64_t d = 0; d < o.dim(); ++d) {
      at::Tensor along = badMask.movedim(d, 0).reshape({o.size(d), -1}).any(1);
      at::Tensor where = along.nonzero().flatten();
      s.badBox.emplace_back(where[0].item<int64_t>(), where[-1].item<int64_t>());
    }
  }
  return s;
}

bool hasAccuracyRule(DType dtype) {
  return dtype == DType::F32 || dtype == DType::F16 || dtype == DType::BF16;
}

/// Unit roundoff (half an ulp at 1) of a floating dtype.
static double unitRoundoff(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return std::ldexp(1.0, -11);
  case DType::BF16:
    return std::ldexp(1.0, -8);
  case DType::F64:
    return std::ldexp(1.0, -53);
  default:
    return std::ldexp(1.0, -24);
  }
}

AccuracyStats measureAccuracy(const at::Tensor &out, const at::Tensor &ref,
                              const at::Tensor &ref64, DType dtype,
                              Tolerance tol, bool tf32Operands) {
  AccuracyStats a;
  a.limit = tol.fp64Ratio;
  if (out.numel() == 0)
    return a;
  c10::NoGradGuard noGrad;
  at::Tensor exact = ref64.detach().to(at::kDouble);
  auto meanSquare = [](const at::Tensor &t) { return (t * t).mean(); };
  // One transfer for the three numbers (as in compareTensors).
  at::Tensor host = at::stack({meanSquare(out.detach().to(at::kDouble) - exact),
                               meanSquare(ref.detach().to(at::kDouble) - exact),
                               meanSquare(exact)})
                        .cpu();
  const double *v = host.data_ptr<double>();
  a.candidateRms = std::sqrt(v[0]);
  a.referenceRms = std::sqrt(v[1]);
  double exactRms = std::sqrt(v[2]);
  // A reference that happens to be exact (a copy, a max) must not demand an
  // exact candidate: one rounding of every element is always allowed.
  // A task that accepts tf32 operands accepts one tf32 rounding as well.
  double roundoff = tf32Operands && dtype == DType::F32 ? std::ldexp(1.0, -11)
                                                        : unitRoundoff(dtype);
  a.floorRms = roundoff * exactRms;
  double scale = std::max(a.referenceRms, a.floorRms);
  a.ratio = scale > 0 ? a.candidateRms / scale : (a.candidateRms > 0 ? INFINITY : 0);
  return a;
}

std::string describeInaccuracy(const std::string &output, const AccuracyStats &a) {
  std::ostringstream os;
  os << "output '" << output << "': RMS error against the fp64 reference is "
     << number(a.candidateRms) << ", " << number(a.ratio) << "x the reference's own ("
     << number(std::max(a.referenceRms, a.floorRms)) << "); the limit is " << number(a.limit)
     << "x (tolerance.fp64_ratio): every element is within atol/rtol, but the kernel loses "
        "precision (an intermediate in a narrower type, a dropped compensation term?)";
  return os.str();
}

nlohmann::json toJson(const AccuracyStats &a) {
  return {{"rms_err_vs_fp64", a.candidateRms},
          {"reference_rms_err_vs_fp64", a.referenceRms},
          {"floor_rms", a.floorRms},
          {"ratio", a.ratio},
          {"limit", a.limit},
          {"pass", a.pass()}};
}

std::string describeFailure(const std::string &output, const ErrorStats &s, Tolerance tol) {
  std::ostringstream os;
  os << "output '" << output << "': ";
  std::string where = s.badBox.empty() ? "" : " in " + boxString(s.badBox);
  std::string worst = "worst " + indexString(s.worst) + ": got " + number(s.worstGot) +
                      ", expected " + number(s.worstExpected);
  if (s.poisoned > 0) {
    os << s.poisoned << " of " << s.count
       << " elements still hold the NaN poison: never written by the kernel" << where;
    return os.str();
  }
  if (s.nonFinite > 0) {
    os << s.nonFinite << " of " << s.count << " elements are NaN or Inf where the reference "
       << "is finite" << where << "; " << worst;
    return os.str();
  }
  os << s.bad << " of " << s.count << " elements outside |out - ref| <= " << number(tol.atol)
     << " + " << number(tol.rtol) << " * |ref|" << where << "; " << worst
     << " (max abs err " << number(s.maxAbs) << ", max rel err " << number(s.maxRel) << ")";
  return os.str();
}

nlohmann::json toJson(const ErrorStats &s) {
  nlohmann::json j = {{"elements", s.count},
                      {"bad", s.bad},
                      {"max_abs_err", s.maxAbs},
                      {"max_rel_err", s.maxRel},
                      {"worst_index", s.worst},
                      {"worst_got", std::isfinite(s.worstGot) ? nlohmann::json(s.worstGot)
                                                              : nlohmann::json("nan/inf")},
                      {"worst_expected", s.worstExpected},
                      {"rms_ref", s.rmsRef}};
  if (s.poisoned)
    j["unwritten"] = s.poisoned;
  if (s.nonFinite)
    j["nonfinite"] = s.nonFinite;
  if (!s.badBox.empty()) {
    nlohmann::json box = nlohmann::json::array();
    for (auto [lo, hi] : s.badBox)
      box.push_back({lo, hi});
    j["bad_box"] = box;
  }
  return j;
}

std::optional<std::pair<std::vector<int64_t>, int64_t>> bitwiseDifference(const at::Tensor &a,
                                                                           const at::Tensor &b) {
  at::Tensor ba = bits(a), bb = bits(b);
  if (ba.sizes() != bb.sizes())
    return std::make_pair(std::vector<int64_t>{}, a.numel());
  at::Tensor differ = ba != bb;
  int64_t count = differ.sum().item<int64_t>();
  if (count == 0)
    return std::nullopt;
  int64_t flat = differ.flatten().to(at::kByte).argmax().item<int64_t>();
  return std::make_pair(unravel(flat, a.sizes()), count);
}

} // namespace kbench::runner
