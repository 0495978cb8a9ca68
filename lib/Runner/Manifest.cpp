//===- Manifest.cpp - Parse a bundle manifest and check it against a task -===//
//
// The runner's checks of a bundle (parsed by the shared schema,
// BundleSchema.cpp) against a task. A bundle is compiled on one machine and
// run on another, possibly against a task that changed since; so the runner
// trusts nothing in the manifest: every buffer is matched with the task's
// tensor of the same name, every launch argument with its kernel param, and
// every memref param's dims with the buffer's extents at every task shape.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Manifest.h"

#include "kbench/Support/KernelConfig.h"

#include <set>

namespace kbench::runner {

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

  // Room in the format that this runner does not fill yet.
  if (!m.workspaces.empty())
    throw InputError(file + ": workspaces: '" + m.workspaces.front().name +
                     "': this runner does not allocate workspaces yet (docs/bundle.md)");
  for (const KernelSpec &k : m.kernels)
    for (const KernelParamSpec &p : k.params)
      if (p.kind == KernelParamSpec::Kind::TmaDescriptor ||
          p.kind == KernelParamSpec::Kind::Workspace)
        throw InputError(file + ": kernel '" + k.name + "' param '" + p.name + "': kind '" +
                         bundle::paramKindName(p.kind) +
                         "' is not passed by this runner yet (docs/bundle.md)");

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
      case KernelParamSpec::Kind::TmaDescriptor:
      case KernelParamSpec::Kind::Workspace:
        break; // Refused above.
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
      int64_t limit = i == 0 ? kSm90aLimits.maxGridX : kSm90aLimits.maxGridYZ;
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
