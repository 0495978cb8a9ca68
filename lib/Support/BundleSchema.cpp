//===- BundleSchema.cpp - Write and read manifest.json --------------------===//
//
// The writer and the validating reader of docs/bundle.md. A bundle is compiled
// on one machine and run on another, so the reader trusts nothing: unknown
// fields, duplicate names, dangling launch references and out-of-range block
// and shared-memory sizes (the sm_90a table of KernelConfig.h) are errors
// that name the field. Checks against a task live with the runner
// (kbench/Runner/Manifest.h).
//
//===----------------------------------------------------------------------===//

#include "kbench/Support/BundleSchema.h"

#include "kbench/Support/JsonField.h"
#include "kbench/Support/KernelConfig.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

namespace kbench::bundle {

using namespace field;

std::string formatTag() {
  return std::string(kFormatName) + "/" + std::to_string(kFormatVersion);
}

namespace {
const std::pair<const char *, KernelParamSpec::Kind> kParamKinds[] = {
    {"memref", KernelParamSpec::Kind::Memref},
    {"dim", KernelParamSpec::Kind::Dim},
    {"scalar", KernelParamSpec::Kind::Scalar},
    {"tma_descriptor", KernelParamSpec::Kind::TmaDescriptor},
    {"workspace", KernelParamSpec::Kind::Workspace},
};
const std::pair<const char *, BufferSpec::Role> kRoles[] = {
    {"input", BufferSpec::Role::Input},
    {"output", BufferSpec::Role::Output},
    {"temporary", BufferSpec::Role::Temporary},
};

template <typename Enum, size_t N>
const char *spell(const std::pair<const char *, Enum> (&table)[N], Enum value) {
  for (const auto &[name, v] : table)
    if (v == value)
      return name;
  return "";
}

template <typename Enum, size_t N>
Enum parseEnum(const Field &f, const std::pair<const char *, Enum> (&table)[N],
               const char *what) {
  std::string text = f.string();
  std::string known;
  for (const auto &[name, v] : table) {
    if (text == name)
      return v;
    known += std::string(known.empty() ? "" : ", ") + name;
  }
  f.fail("unknown " + std::string(what) + " '" + text + "' (" + known + ")");
}
} // namespace

const char *paramKindName(KernelParamSpec::Kind kind) { return spell(kParamKinds, kind); }
const char *bufferRoleName(BufferSpec::Role role) { return spell(kRoles, role); }

const BufferSpec *BundleManifest::findBuffer(const std::string &name) const {
  for (const BufferSpec &b : buffers)
    if (b.name == name)
      return &b;
  return nullptr;
}

KernelSpec *BundleManifest::findKernelBySymbol(const std::string &symbol) {
  for (KernelSpec &k : kernels)
    if (k.symbol == symbol)
      return &k;
  return nullptr;
}

std::vector<const LaunchSpec *> BundleManifest::launchesOf(size_t variant) const {
  std::vector<const LaunchSpec *> result;
  for (const LaunchSpec &l : launches)
    if (l.variant == variant)
      result.push_back(&l);
  return result;
}

std::string BundleManifest::variantName(size_t variant) const {
  return variant < variants.size() ? variants[variant].name : "";
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

static nlohmann::json exprs(const std::vector<ShapeExpr> &list) {
  nlohmann::json out = nlohmann::json::array();
  for (const ShapeExpr &e : list)
    out.push_back(e.str());
  return out;
}

nlohmann::json toJson(const ResourceUsage &r) {
  nlohmann::json out = nlohmann::json::object();
  out[kRegisters] = r.registers;
  out[kSpillStores] = r.spillStores;
  out[kSpillLoads] = r.spillLoads;
  out[kStackFrame] = r.stackFrame;
  out[kSharedMemory] = r.sharedMemory;
  if (r.injectedWgmmaWaits != 0)
    out[kInjectedWgmmaWaits] = r.injectedWgmmaWaits;
  return out;
}

static nlohmann::json toJson(const KernelSpec &k) {
  nlohmann::json params = nlohmann::json::array();
  for (const KernelParamSpec &p : k.params) {
    nlohmann::json entry = {{kName, p.name}, {kKind, paramKindName(p.kind)}};
    switch (p.kind) {
    case KernelParamSpec::Kind::TmaDescriptor:
      entry[kSwizzle] = p.swizzleBytes;
      if (!p.viewShape.empty() || !p.viewStrides.empty())
        entry[kView] = {{kShape, exprs(p.viewShape)}, {kStrides, exprs(p.viewStrides)}};
      [[fallthrough]];
    case KernelParamSpec::Kind::Memref:
      entry[kDtype] = dtypeName(p.dtype);
      entry[kDims] = exprs(p.dims);
      break;
    case KernelParamSpec::Kind::Scalar:
      entry[kDtype] = dtypeName(p.dtype);
      break;
    case KernelParamSpec::Kind::Dim:
    case KernelParamSpec::Kind::Workspace:
      break;
    }
    params.push_back(std::move(entry));
  }
  nlohmann::json requires = nlohmann::json::array();
  for (const ShapeFact &f : k.requirements)
    requires.push_back(f.str());
  nlohmann::json out = nlohmann::json::object();
  out[kName] = k.name;
  out[kSymbol] = k.symbol;
  out[kParams] = std::move(params);
  out[kGrid] = exprs({k.grid.begin(), k.grid.end()});
  out[kBlock] = k.block;
  out[kDynamicSharedMemory] = k.dynamicSharedMemory;
  out[kRequires] = std::move(requires);
  if (k.resources)
    out[kResources] = toJson(*k.resources);
  return out;
}

nlohmann::json toJson(const BundleManifest &m) {
  nlohmann::json out = nlohmann::json::object();
  out[kFormat] = formatTag();
  out[kTarget] = m.target;
  out[kTask] = m.task;
  if (m.compiler) {
    out[kCompiler] = {{kName, m.compiler->name}};
    if (!m.compiler->version.empty())
      out[kCompiler][kVersion] = m.compiler->version;
  }
  if (!m.irHash.empty())
    out[kIrHash] = m.irHash;
  if (!m.verification.empty())
    out[kVerification] = m.verification;
  nlohmann::json buffers = nlohmann::json::array();
  for (const BufferSpec &b : m.buffers)
    buffers.push_back({{kName, b.name},
                       {kDtype, dtypeName(b.dtype)},
                       {kShape, exprs(b.shape)},
                       {kRole, bufferRoleName(b.role)}});
  out[kBuffers] = std::move(buffers);
  if (!m.workspaces.empty()) {
    nlohmann::json workspaces = nlohmann::json::array();
    for (const WorkspaceSpec &w : m.workspaces)
      workspaces.push_back(
          {{kName, w.name}, {kBytes, w.bytes.str()}, {"zeroed", w.zeroed}});
    out[kWorkspaces] = std::move(workspaces);
  }
  nlohmann::json kernels = nlohmann::json::array();
  for (const KernelSpec &k : m.kernels)
    kernels.push_back(toJson(k));
  out[kKernels] = std::move(kernels);
  auto launchesJson = [&](size_t variant) {
    nlohmann::json launches = nlohmann::json::array();
    for (const LaunchSpec *l : m.launchesOf(variant))
      launches.push_back(
          {{kKernel, l->kernel < m.kernels.size() ? m.kernels[l->kernel].name : ""},
           {kArgs, l->args}});
    return launches;
  };
  if (m.variants.empty()) {
    out[kLaunches] = launchesJson(0);
    return out;
  }
  nlohmann::json dispatch = nlohmann::json::array();
  for (size_t v = 0; v < m.variants.size(); ++v) {
    nlohmann::json variant = {{kName, m.variants[v].name}};
    if (!m.variants[v].when.empty()) {
      nlohmann::json when = nlohmann::json::array();
      for (const ShapeFact &f : m.variants[v].when)
        when.push_back(f.str());
      variant[kWhen] = std::move(when);
    }
    variant[kLaunches] = launchesJson(v);
    dispatch.push_back(std::move(variant));
  }
  out[kDispatch] = std::move(dispatch);
  return out;
}

std::string renderManifest(const BundleManifest &manifest) {
  return toJson(manifest).dump(2) + "\n";
}

void writeManifestFile(const std::filesystem::path &dir, const BundleManifest &manifest) {
  std::filesystem::path file = dir / kManifestFile;
  std::ofstream out(file);
  out << renderManifest(manifest);
  if (!out)
    throw InputError(file.string() + ": cannot be written");
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

namespace {

/// The swizzle spans a tensor map can encode, in bytes (0 = no swizzle).
constexpr int64_t kSwizzleSpans[] = {0, 32, 64, 128};

int64_t parseSwizzle(const Field &f) {
  int64_t bytes = f.integer();
  for (int64_t span : kSwizzleSpans)
    if (bytes == span)
      return bytes;
  f.fail(std::to_string(bytes) +
         " is not a swizzle span; use 0 (none), 32, 64 or 128 (bytes)");
}

/// A tma_descriptor's `view`: shape and strides, one expression per axis
/// each. Whether the rank fits the box is the runner's check (Manifest.cpp).
void parseView(const Field &f, KernelParamSpec &param) {
  f.allowOnly({kShape, kStrides});
  for (const Field &d : f.at(kShape).elements())
    param.viewShape.push_back(parseExprField(d));
  for (const Field &d : f.at(kStrides).elements())
    param.viewStrides.push_back(parseExprField(d));
  if (param.viewShape.empty())
    f.at(kShape).fail("a view has at least one axis; leave 'view' out for the dense buffer");
  if (param.viewStrides.size() != param.viewShape.size())
    f.at(kStrides).fail(std::to_string(param.viewStrides.size()) + " strides for " +
                        std::to_string(param.viewShape.size()) +
                        " shape axes; a view has one stride per axis");
}

KernelParamSpec parseParam(const Field &p) {
  p.allowOnly({kName, kKind, kDtype, kDims, kSwizzle, kView});
  KernelParamSpec param;
  param.name = p.at(kName).name();
  param.kind = parseEnum(p.at(kKind), kParamKinds, "kind");
  for (const char *key : {kSwizzle, kView})
    if (std::optional<Field> f = p.get(key);
        f && param.kind != KernelParamSpec::Kind::TmaDescriptor)
      f->fail("only a tma_descriptor param has a " + std::string(key) + ", not a " +
              paramKindName(param.kind) + " param");
  switch (param.kind) {
  case KernelParamSpec::Kind::TmaDescriptor:
    if (std::optional<Field> swizzle = p.get(kSwizzle))
      param.swizzleBytes = parseSwizzle(*swizzle);
    if (std::optional<Field> view = p.get(kView))
      parseView(*view, param);
    [[fallthrough]];
  case KernelParamSpec::Kind::Memref:
    param.dtype = parseDTypeField(p.at(kDtype));
    for (const Field &d : p.at(kDims).elements())
      param.dims.push_back(parseExprField(d));
    break;
  case KernelParamSpec::Kind::Scalar:
    param.dtype = parseDTypeField(p.at(kDtype));
    break;
  case KernelParamSpec::Kind::Dim:
    param.dtype = DType::I64;
    break;
  case KernelParamSpec::Kind::Workspace:
    break;
  }
  return param;
}

ResourceUsage parseResources(const Field &f) {
  f.allowOnly({kRegisters, kSpillStores, kSpillLoads, kStackFrame,
               kSharedMemory, kInjectedWgmmaWaits});
  ResourceUsage r;
  auto read = [&](const char *key, int64_t &out) {
    if (auto v = f.get(key))
      out = v->integer();
  };
  read(kRegisters, r.registers);
  read(kSpillStores, r.spillStores);
  read(kSpillLoads, r.spillLoads);
  read(kStackFrame, r.stackFrame);
  read(kSharedMemory, r.sharedMemory);
  read(kInjectedWgmmaWaits, r.injectedWgmmaWaits);
  return r;
}

KernelSpec parseKernel(const Field &f) {
  f.allowOnly({kName, kSymbol, kParams, kGrid, kBlock, kDynamicSharedMemory, kRequires,
               kResources});
  KernelSpec k;
  k.name = f.at(kName).name();
  k.symbol = f.get(kSymbol) ? f.at(kSymbol).name() : k.name;
  std::set<std::string> seen;
  for (const Field &p : f.at(kParams).elements()) {
    KernelParamSpec param = parseParam(p);
    if (!seen.insert(param.name).second)
      p.at(kName).fail("param '" + param.name + "' is declared twice");
    k.params.push_back(std::move(param));
  }
  std::vector<Field> grid = f.at(kGrid).elements();
  if (grid.size() != 3)
    f.at(kGrid).fail("needs 3 expressions (x, y, z), got " + std::to_string(grid.size()));
  for (int i = 0; i < 3; ++i)
    k.grid[i] = parseExprField(grid[i]);
  if (auto block = f.get(kBlock)) {
    std::vector<Field> b = block->elements();
    if (b.size() != 3)
      block->fail("needs 3 sizes (x, y, z), got " + std::to_string(b.size()));
    int64_t limit = kSm90aLimits.maxThreadsPerBlock;
    for (int i = 0; i < 3; ++i) {
      k.block[i] = b[i].integer();
      if (k.block[i] < 1 || k.block[i] > limit)
        b[i].fail("block sizes are 1.." + std::to_string(limit) + ", got " +
                  std::to_string(k.block[i]));
    }
    int64_t threads = k.block[0] * k.block[1] * k.block[2];
    if (threads > limit)
      block->fail("a block of " + std::to_string(threads) + " threads exceeds the " +
                  std::to_string(limit) + " of " + kSm90aLimits.target);
  }
  if (auto smem = f.get(kDynamicSharedMemory)) {
    k.dynamicSharedMemory = smem->integer();
    if (k.dynamicSharedMemory < 0 ||
        k.dynamicSharedMemory > kSm90aLimits.sharedMemoryPerBlock)
      smem->fail(std::to_string(k.dynamicSharedMemory) + " bytes is outside 0.." +
                 std::to_string(kSm90aLimits.sharedMemoryPerBlock) +
                 " (the shared memory of one CTA on " + kSm90aLimits.target + ")");
  }
  if (auto req = f.get(kRequires)) {
    for (const Field &r : req->elements())
      k.requirements.push_back(parseFactField(r, "K % 8 == 0"));
  }
  if (auto res = f.get(kResources))
    k.resources = parseResources(*res);
  return k;
}

/// The launch sequence of variant `variant` (0 without dispatch), appended
/// to m.launches; kernel names resolve against m.kernels.
void parseLaunches(const Field &list, size_t variant, BundleManifest &m) {
  std::vector<Field> launches = list.elements();
  if (launches.empty())
    list.fail("a launch sequence needs at least one launch");
  for (const Field &l : launches) {
    l.allowOnly({kKernel, kArgs});
    LaunchSpec launch;
    launch.field = l.getPath();
    launch.variant = variant;
    std::string kernel = l.at(kKernel).name();
    bool found = false;
    for (size_t i = 0; i < m.kernels.size(); ++i)
      if (m.kernels[i].name == kernel) {
        launch.kernel = i;
        found = true;
      }
    if (!found)
      l.at(kKernel).fail("no kernel named '" + kernel + "' in 'kernels'");
    for (const Field &a : l.at(kArgs).elements())
      launch.args.push_back(a.name());
    const KernelSpec &ks = m.kernels[launch.kernel];
    if (launch.args.size() != ks.params.size())
      l.at(kArgs).fail(std::to_string(launch.args.size()) + " arguments for kernel '" +
                       ks.name + "', which takes " + std::to_string(ks.params.size()));
    m.launches.push_back(std::move(launch));
  }
}

} // namespace

BundleManifest parseManifest(const nlohmann::json &doc, const std::string &file) {
  Field root(doc, "", file);
  root.expectObject();
  root.allowOnly({kFormat, kTarget, kTask, kCompiler, kIrHash, kVerification, kBuffers,
                  kWorkspaces, kKernels, kLaunches, kDispatch});
  BundleManifest m;
  m.file = file;
  std::string format = root.at(kFormat).string();
  if (format != formatTag())
    root.at(kFormat).fail("unsupported bundle format '" + format + "'; this build reads " +
                          formatTag() + " (docs/bundle.md); recompile the bundle");
  m.target = root.at(kTarget).string();
  if (m.target != "sm_90a" && m.target != "host")
    root.at(kTarget).fail("unknown target '" + m.target + "' (sm_90a, host)");
  m.task = root.at(kTask).name();
  if (auto c = root.get(kCompiler)) {
    c->allowOnly({kName, kVersion, "mlir"});
    m.compiler = CompilerInfo{c->at(kName).string(),
                              c->get(kVersion) ? c->at(kVersion).string() : ""};
  }
  if (auto h = root.get(kIrHash))
    m.irHash = h->string();
  if (auto v = root.get(kVerification)) {
    m.verification = v->string();
    if (m.verification != "proved" && m.verification != "skipped")
      v->fail("unknown verification '" + m.verification + "' (proved, skipped)");
  }

  std::set<std::string> names;
  for (const Field &b : root.at(kBuffers).elements()) {
    b.allowOnly({kName, kDtype, kShape, kRole});
    BufferSpec buf;
    buf.name = b.at(kName).name();
    buf.dtype = parseDTypeField(b.at(kDtype));
    for (const Field &d : b.at(kShape).elements())
      buf.shape.push_back(parseExprField(d));
    buf.role = parseEnum(b.at(kRole), kRoles, "role");
    if (!names.insert(buf.name).second)
      b.at(kName).fail("buffer '" + buf.name + "' is declared twice");
    m.buffers.push_back(std::move(buf));
  }
  if (auto workspaces = root.get(kWorkspaces)) {
    for (const Field &w : workspaces->elements()) {
      w.allowOnly({kName, kBytes, "zeroed"});
      WorkspaceSpec ws;
      ws.name = w.at(kName).name();
      ws.bytes = parseExprField(w.at(kBytes));
      if (auto zeroed = w.get("zeroed"))
        ws.zeroed = zeroed->boolean();
      if (!names.insert(ws.name).second)
        w.at(kName).fail("'" + ws.name + "' names a buffer or workspace already");
      m.workspaces.push_back(std::move(ws));
    }
  }

  std::vector<Field> kernels = root.at(kKernels).elements();
  if (kernels.empty())
    root.at(kKernels).fail("a bundle needs at least one kernel");
  for (const Field &k : kernels)
    m.kernels.push_back(parseKernel(k));

  bool hasLaunches = root.get(kLaunches).has_value();
  std::optional<Field> dispatch = root.get(kDispatch);
  if (hasLaunches == dispatch.has_value())
    root.fail(hasLaunches ? "a bundle has 'launches' or 'dispatch', not both"
                          : "a bundle needs 'launches' (or 'dispatch', a list of variants)");
  if (hasLaunches) {
    parseLaunches(root.at(kLaunches), 0, m);
    return m;
  }
  std::vector<Field> variants = dispatch->elements();
  if (variants.empty())
    dispatch->fail("a dispatch bundle needs at least one variant");
  std::set<std::string> variantNames;
  for (size_t v = 0; v < variants.size(); ++v) {
    const Field &f = variants[v];
    f.allowOnly({kName, kWhen, kLaunches});
    VariantSpec variant;
    variant.field = f.getPath();
    variant.name = f.at(kName).name();
    if (!variantNames.insert(variant.name).second)
      f.at(kName).fail("variant '" + variant.name + "' is listed twice");
    if (auto when = f.get(kWhen))
      for (const Field &w : when->elements())
        variant.when.push_back(parseFactField(w, "M >= 128"));
    bool last = v + 1 == variants.size();
    if (last && !variant.when.empty())
      f.at(kWhen).fail("the last variant is the fallback for every other shape and takes "
                       "no 'when'");
    if (!last && variant.when.empty())
      f.failAt(kWhen, "every variant but the last needs 'when' facts (a variant without "
                      "them would hide the ones after it)");
    m.variants.push_back(std::move(variant));
    parseLaunches(f.at(kLaunches), v, m);
  }
  return m;
}

BundleManifest parseManifestFile(const std::filesystem::path &bundleDir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(bundleDir, ec))
    throw InputError(bundleDir.string() + ": no such bundle folder (expected the output of "
                                          "'kbench compile': manifest.json + kernel files)");
  std::filesystem::path file = bundleDir / kManifestFile;
  BundleManifest m = parseManifest(readJsonFile(file, "bundle manifest"), file.string());
  m.dir = bundleDir;
  return m;
}

std::optional<BundleManifest> tryParseManifestFile(const std::filesystem::path &bundleDir,
                                                   std::string &error) {
  try {
    return parseManifestFile(bundleDir);
  } catch (const InputError &e) {
    error = e.what();
    return std::nullopt;
  }
}

bool tryWriteManifestFile(const std::filesystem::path &dir, const BundleManifest &manifest,
                          std::string &error) {
  try {
    writeManifestFile(dir, manifest);
    return true;
  } catch (const InputError &e) {
    error = e.what();
    return false;
  }
}

std::optional<size_t> trySelectVariant(const BundleManifest &m,
                                       const SymbolValues &dims,
                                       std::string &error) {
  for (size_t v = 0; v < m.variants.size(); ++v) {
    bool all = true;
    for (const ShapeFact &fact : m.variants[v].when) {
      std::string why;
      std::optional<bool> holds = fact.holds(dims, why);
      if (!holds) {
        error = m.file + ": " + m.variants[v].field + ": when '" + fact.str() +
                "' cannot be evaluated: " + why;
        return std::nullopt;
      }
      all = all && *holds;
    }
    if (all)
      return v;
  }
  // The reader makes the last variant a fallback without facts.
  return m.variants.empty() ? 0 : m.variants.size() - 1;
}

size_t selectVariant(const BundleManifest &m, const SymbolValues &dims) {
  std::string error;
  std::optional<size_t> variant = trySelectVariant(m, dims, error);
  if (!variant)
    throw InputError(error);
  return *variant;
}

std::vector<std::string> violatedRequires(const BundleManifest &m,
                                          const SymbolValues &dims) {
  std::vector<std::string> result;
  // Only the kernels the chosen variant launches must hold at this shape.
  std::set<size_t> launched;
  for (const LaunchSpec *l : m.launchesOf(selectVariant(m, dims)))
    launched.insert(l->kernel);
  for (size_t kernelIndex : launched) {
    const KernelSpec &k = m.kernels[kernelIndex];
    for (const ShapeFact &fact : k.requirements) {
      std::string error;
      std::optional<bool> holds = fact.holds(dims, error);
      std::set<std::string> symbols;
      fact.collectSymbols(symbols);
      std::string values;
      for (const std::string &s : symbols) {
        auto it = dims.find(s);
        values +=
            (values.empty() ? "" : ", ") + s + "=" +
            (it == dims.end() ? std::string("?") : std::to_string(it->second));
      }
      if (!holds)
        result.push_back("kernel '" + k.name + "' requires '" + fact.str() +
                         "', which cannot be evaluated: " + error);
      else if (!*holds)
        result.push_back(
            "kernel '" + k.name + "' requires '" + fact.str() + "', false at " +
            values +
            " (the bundle was compiled for shapes this one is not; pick a "
            "schedule whose requires hold on every task shape)");
    }
  }
  return result;
}

std::optional<std::string> whyNotRunnableAt(const BundleManifest &manifest,
                                            const SymbolValues &dims) {
  try {
    std::vector<std::string> violated = violatedRequires(manifest, dims);
    if (violated.empty())
      return std::nullopt;
    return violated.front();
  } catch (const InputError &e) {
    return std::string(e.what());
  }
}

} // namespace kbench::bundle
