//===- Manifest.cpp - Parse a bundle manifest and check it against a task -===//
//
// The loader half of docs/bundle.md. A bundle is compiled on one machine and
// run on another, possibly against a task that changed since; so the runner
// trusts nothing in the manifest: every buffer is matched with the task's
// tensor of the same name, every launch argument with its kernel param, and
// every memref param's dims with the buffer's extents at every task shape.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Manifest.h"

#include "JsonField.h"

#include <set>

namespace kbench::runner {

namespace {

ShapeExpr parseExpr(const Field &f) {
  if (f.json().is_number_integer())
    return ShapeExpr::constant(f.integer());
  std::string error;
  std::optional<ShapeExpr> e = ShapeExpr::parse(f.string(), error);
  if (!e)
    f.fail("'" + f.string() + "' is not a shape expression: " + error);
  return *e;
}

DType parseDTypeField(const Field &f) {
  std::optional<DType> d = parseDType(f.string());
  if (!d)
    f.fail("unknown dtype '" + f.string() + "' (f32, f16, bf16, f64, i8, i32, i64, i1)");
  return *d;
}

KernelSpec parseKernel(const Field &f) {
  f.allowOnly({"name", "symbol", "params", "grid", "block", "dynamic_shared_memory", "requires",
               "resources"});
  KernelSpec k;
  k.name = f.at("name").name();
  k.symbol = f.get("symbol") ? f.at("symbol").name() : k.name;
  std::set<std::string> seen;
  for (const Field &p : f.at("params").elements()) {
    p.allowOnly({"name", "kind", "dtype", "dims"});
    KernelParamSpec param;
    param.name = p.at("name").name();
    std::string kind = p.at("kind").string();
    if (kind == "memref") {
      param.kind = KernelParamSpec::Kind::Memref;
      param.dtype = parseDTypeField(p.at("dtype"));
      for (const Field &d : p.at("dims").elements())
        param.dims.push_back(parseExpr(d));
    } else if (kind == "dim") {
      param.kind = KernelParamSpec::Kind::Dim;
      param.dtype = DType::I64;
    } else if (kind == "scalar") {
      param.kind = KernelParamSpec::Kind::Scalar;
      param.dtype = parseDTypeField(p.at("dtype"));
    } else {
      p.at("kind").fail("unknown kind '" + kind + "' (memref, dim, scalar)");
    }
    if (!seen.insert(param.name).second)
      p.at("name").fail("param '" + param.name + "' is declared twice");
    k.params.push_back(std::move(param));
  }
  std::vector<Field> grid = f.at("grid").elements();
  if (grid.size() != 3)
    f.at("grid").fail("needs 3 expressions (x, y, z), got " + std::to_string(grid.size()));
  for (int i = 0; i < 3; ++i)
    k.grid[i] = parseExpr(grid[i]);
  if (auto block = f.get("block")) {
    std::vector<Field> b = block->elements();
    if (b.size() != 3)
      block->fail("needs 3 sizes (x, y, z), got " + std::to_string(b.size()));
    for (int i = 0; i < 3; ++i) {
      k.block[i] = b[i].integer();
      if (k.block[i] < 1 || k.block[i] > 1024)
        b[i].fail("block sizes are 1..1024, got " + std::to_string(k.block[i]));
    }
  }
  if (auto smem = f.get("dynamic_shared_memory")) {
    k.dynamicSharedMemory = smem->integer();
    if (k.dynamicSharedMemory < 0)
      smem->fail("must be >= 0");
  }
  if (auto req = f.get("requires")) {
    for (const Field &r : req->elements()) {
      std::string error;
      std::optional<ShapeFact> fact = ShapeFact::parse(r.string(), error);
      if (!fact)
        r.fail("'" + r.string() + "' is not a fact such as 'K % 8 == 0': " + error);
      k.requirements.push_back(*fact);
    }
  }
  if (auto res = f.get("resources"))
    k.resources = res->json();
  return k;
}

} // namespace

const BufferSpec *Manifest::findBuffer(const std::string &name) const {
  for (const BufferSpec &b : buffers)
    if (b.name == name)
      return &b;
  return nullptr;
}

Manifest parseManifest(const nlohmann::json &doc, const std::string &file) {
  Field root(doc, "", file);
  root.expectObject();
  root.allowOnly({"format", "target", "task", "compiler", "ir_hash", "verification", "buffers",
                  "kernels", "launches"});
  Manifest m;
  m.file = file;
  std::string format = root.at("format").string();
  if (format != "kbench-bundle/1")
    root.at("format").fail("unsupported bundle format '" + format +
                           "'; this runner reads kbench-bundle/1 (docs/bundle.md)");
  m.target = root.at("target").string();
  if (m.target != "sm_90a" && m.target != "host")
    root.at("target").fail("unknown target '" + m.target + "' (sm_90a, host)");
  m.task = root.at("task").name();
  if (auto c = root.get("compiler"))
    m.compiler = c->json();
  if (auto h = root.get("ir_hash"))
    m.irHash = h->string();
  if (auto v = root.get("verification"))
    m.verification = v->string();

  std::set<std::string> names;
  for (const Field &b : root.at("buffers").elements()) {
    b.allowOnly({"name", "dtype", "shape", "role"});
    BufferSpec buf;
    buf.name = b.at("name").name();
    buf.dtype = parseDTypeField(b.at("dtype"));
    for (const Field &d : b.at("shape").elements())
      buf.shape.push_back(parseExpr(d));
    std::string role = b.at("role").string();
    if (role == "input")
      buf.role = BufferSpec::Role::Input;
    else if (role == "output")
      buf.role = BufferSpec::Role::Output;
    else if (role == "temporary")
      buf.role = BufferSpec::Role::Temporary;
    else
      b.at("role").fail("unknown role '" + role + "' (input, output, temporary)");
    if (!names.insert(buf.name).second)
      b.at("name").fail("buffer '" + buf.name + "' is declared twice");
    m.buffers.push_back(std::move(buf));
  }

  std::vector<Field> kernels = root.at("kernels").elements();
  if (kernels.empty())
    root.at("kernels").fail("a bundle needs at least one kernel");
  for (const Field &k : kernels)
    m.kernels.push_back(parseKernel(k));

  std::vector<Field> launches = root.at("launches").elements();
  if (launches.empty())
    root.at("launches").fail("a bundle needs at least one launch");
  for (const Field &l : launches) {
    l.allowOnly({"kernel", "args"});
    LaunchSpec launch;
    launch.field = l.getPath();
    std::string kernel = l.at("kernel").name();
    bool found = false;
    for (size_t i = 0; i < m.kernels.size(); ++i)
      if (m.kernels[i].name == kernel) {
        launch.kernel = i;
        found = true;
      }
    if (!found)
      l.at("kernel").fail("no kernel named '" + kernel + "' in 'kernels'");
    for (const Field &a : l.at("args").elements())
      launch.args.push_back(a.name());
    const KernelSpec &ks = m.kernels[launch.kernel];
    if (launch.args.size() != ks.params.size())
      l.at("args").fail(std::to_string(launch.args.size()) + " arguments for kernel '" +
                        ks.name + "', which takes " + std::to_string(ks.params.size()));
    m.launches.push_back(std::move(launch));
  }
  return m;
}

Manifest parseManifestFile(const std::filesystem::path &bundleDir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(bundleDir, ec))
    throw InputError(bundleDir.string() + ": no such bundle folder (expected the output of "
                                          "'kbench compile': manifest.json + kernel files)");
  std::filesystem::path file = bundleDir / "manifest.json";
  Manifest m = parseManifest(readJsonFile(file, "bundle manifest"), file.string());
  m.dir = bundleDir;
  return m;
}

std::vector<int64_t> bufferExtents(const BufferSpec &buffer, const SymbolValues &dims) {
  std::vector<int64_t> result;
  for (const ShapeExpr &e : buffer.shape) {
    std::string error;
    std::optional<int64_t> v = e.evaluate(dims, error);
    if (!v)
      throw InputError("buffer '" + buffer.name + "' shape '" + e.str() + "': " + error);
    result.push_back(*v);
  }
  return result;
}

void checkManifestAgainstTask(const Manifest &m, const Task &task, const std::string &target) {
  const std::string &file = m.file;
  if (m.task != task.name)
    throw InputError(file + ": task: the bundle is for task '" + m.task + "', not '" +
                     task.name + "' (" + task.file + ")");
  if (m.target != target)
    throw InputError(file + ": target: the bundle is for target '" + m.target +
                     "' but the runner was asked for '" + target +
                     "'; compile the task with --target " + target +
                     " or run with --target " + m.target);
  std::error_code ec;
  if (target == "host") {
    if (!std::filesystem::exists(m.dir / "kernel.so", ec))
      throw InputError((m.dir / "kernel.so").string() +
                       ": no such file (a host bundle holds kernel.so)");
  } else if (!std::filesystem::exists(m.dir / "kernel.cubin", ec) &&
             !std::filesystem::exists(m.dir / "kernel.ptx", ec)) {
    throw InputError(m.dir.string() +
                     ": neither kernel.cubin nor kernel.ptx exists (an sm_90a bundle holds both)");
  }

  std::vector<ShapeCase> shapes;
  for (const auto &[set, cases] : task.shapes)
    shapes.insert(shapes.end(), cases.begin(), cases.end());

  // Buffers against task tensors.
  auto checkTensor = [&](const TensorSpec &t, BufferSpec::Role role) {
    const BufferSpec *b = m.findBuffer(t.name);
    if (!b)
      throw InputError(file + ": buffers: no buffer named '" + t.name + "' (task " +
                       t.field + ")");
    const std::string where = file + ": buffer '" + t.name + "': ";
    if (b->role != role)
      throw InputError(where + "role must be '" +
                       (role == BufferSpec::Role::Input ? "input" : "output") +
                       "' like the task's " + t.field);
    if (b->dtype != t.dtype)
      throw InputError(where + "dtype " + dtypeName(b->dtype) + " but the task's " + t.field +
                       " is " + dtypeName(t.dtype));
    if (b->shape.size() != t.shape.size())
      throw InputError(where + "rank " + std::to_string(b->shape.size()) + " but the task's " +
                       t.field + " has rank " + std::to_string(t.shape.size()));
    for (const ShapeCase &sc : shapes) {
      std::vector<int64_t> want = t.extents(sc.dims);
      std::vector<int64_t> got;
      try {
        got = bufferExtents(*b, sc.dims);
      } catch (const InputError &e) {
        throw InputError(file + ": " + e.what() + " at " + sc.label());
      }
      for (size_t i = 0; i < want.size(); ++i)
        if (want[i] != got[i])
          throw InputError(where + "shape[" + std::to_string(i) + "] '" + b->shape[i].str() +
                           "' is " + std::to_string(got[i]) + " at " + sc.label() +
                           " but the task's " + t.field + " has " + std::to_string(want[i]));
    }
  };
  for (const TensorSpec &t : task.inputs)
    checkTensor(t, BufferSpec::Role::Input);
  for (const TensorSpec &t : task.outputs)
    checkTensor(t, BufferSpec::Role::Output);
  for (const BufferSpec &b : m.buffers)
    if (b.role != BufferSpec::Role::Temporary && !task.findInput(b.name) &&
        !task.findOutput(b.name))
      throw InputError(file + ": buffer '" + b.name +
                       "' is not a task tensor; only temporaries may be extra");

  // Launch arguments against kernel params.
  std::set<std::string> written;
  for (const LaunchSpec &l : m.launches) {
    const KernelSpec &k = m.kernels[l.kernel];
    for (size_t i = 0; i < l.args.size(); ++i) {
      const std::string &arg = l.args[i];
      const KernelParamSpec &p = k.params[i];
      const std::string where = file + ": " + l.field + ".args[" + std::to_string(i) + "] '" +
                                arg + "' (kernel '" + k.name + "' param '" + p.name + "'): ";
      const BufferSpec *b = m.findBuffer(arg);
      const TensorSpec *input = task.findInput(arg);
      switch (p.kind) {
      case KernelParamSpec::Kind::Memref:
        if (!b)
          throw InputError(where + "names no buffer");
        if (b->dtype != p.dtype)
          throw InputError(where + "buffer dtype " + dtypeName(b->dtype) + ", param dtype " +
                           dtypeName(p.dtype));
        if (b->shape.size() != p.dims.size())
          throw InputError(where + "buffer rank " + std::to_string(b->shape.size()) +
                           ", param rank " + std::to_string(p.dims.size()));
        for (const ShapeCase &sc : shapes) {
          std::vector<int64_t> extents = bufferExtents(*b, sc.dims);
          for (size_t d = 0; d < p.dims.size(); ++d) {
            std::string error;
            std::optional<int64_t> v = p.dims[d].evaluate(sc.dims, error);
            if (!v)
              throw InputError(where + "dims[" + std::to_string(d) + "]: " + error);
            if (*v != extents[d])
              throw InputError(where + "dims[" + std::to_string(d) + "] '" + p.dims[d].str() +
                               "' is " + std::to_string(*v) + " but the buffer has " +
                               std::to_string(extents[d]) + " at " + sc.label());
          }
        }
        if (b->role == BufferSpec::Role::Output)
          written.insert(arg);
        break;
      case KernelParamSpec::Kind::Dim:
        for (const ShapeCase &sc : shapes)
          if (!sc.dims.count(arg))
            throw InputError(where + "is not a dim of the task's shapes (" + sc.label() + ")");
        break;
      case KernelParamSpec::Kind::Scalar:
        if (!input || !input->shape.empty() || input->dtype != p.dtype)
          throw InputError(where + "a scalar param takes a rank-0 task input of dtype " +
                           dtypeName(p.dtype));
        break;
      }
    }
  }
  for (const TensorSpec &t : task.outputs)
    if (!written.count(t.name))
      throw InputError(file + ": launches: output '" + t.name +
                       "' is never passed to a kernel, so nothing writes it");

  // Grids must evaluate at every shape (requires facts are checked per shape,
  // as verdicts, by violatedRequires).
  for (const ShapeCase &sc : shapes) {
    try {
      resolveLaunches(m, sc.dims);
    } catch (const InputError &e) {
      throw InputError(std::string(e.what()) + " at " + sc.label());
    }
  }
}

std::vector<std::string> violatedRequires(const Manifest &m, const SymbolValues &dims) {
  std::vector<std::string> result;
  for (const KernelSpec &k : m.kernels) {
    for (const ShapeFact &fact : k.requirements) {
      std::string error;
      std::optional<bool> holds = fact.holds(dims, error);
      std::set<std::string> symbols;
      fact.collectSymbols(symbols);
      std::string values;
      for (const std::string &s : symbols) {
        auto it = dims.find(s);
        values += (values.empty() ? "" : ", ") + s + "=" +
                  (it == dims.end() ? std::string("?") : std::to_string(it->second));
      }
      if (!holds)
        result.push_back("kernel '" + k.name + "' requires '" + fact.str() +
                         "', which cannot be evaluated: " + error);
      else if (!*holds)
        result.push_back("kernel '" + k.name + "' requires '" + fact.str() +
                         "', false at " + values +
                         " (the bundle was compiled for shapes this one is not; pick a "
                         "schedule whose requires hold on every task shape)");
    }
  }
  return result;
}

std::vector<ResolvedLaunch> resolveLaunches(const Manifest &m, const SymbolValues &dims) {
  std::vector<ResolvedLaunch> result;
  for (const LaunchSpec &l : m.launches) {
    const KernelSpec &k = m.kernels[l.kernel];
    ResolvedLaunch r;
    r.kernel = l.kernel;
    static const char *axes[] = {"x", "y", "z"};
    for (int i = 0; i < 3; ++i) {
      std::string error;
      std::optional<int64_t> v = k.grid[i].evaluate(dims, error);
      if (!v)
        throw InputError(m.file + ": kernel '" + k.name + "' grid." + axes[i] + " '" +
                         k.grid[i].str() + "': " + error);
      int64_t limit = i == 0 ? (int64_t(1) << 31) - 1 : 65535;
      if (*v < 1 || *v > limit)
        throw InputError(m.file + ": kernel '" + k.name + "' grid." + axes[i] + " '" +
                         k.grid[i].str() + "' is " + std::to_string(*v) + ", outside 1.." +
                         std::to_string(limit));
      r.grid[i] = *v;
    }
    for (size_t i = 0; i < l.args.size(); ++i) {
      ResolvedLaunch::Arg arg;
      arg.kind = k.params[i].kind;
      if (arg.kind == KernelParamSpec::Kind::Dim) {
        auto it = dims.find(l.args[i]);
        if (it == dims.end())
          throw InputError(m.file + ": " + l.field + ".args[" + std::to_string(i) + "] '" +
                           l.args[i] + "' has no value");
        arg.dim = it->second;
      } else {
        arg.buffer = l.args[i];
      }
      r.args.push_back(std::move(arg));
    }
    result.push_back(std::move(r));
  }
  return result;
}

} // namespace kbench::runner
