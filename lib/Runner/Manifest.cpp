//===- Manifest.cpp - Parse a bundle manifest and check it against a task -===//
//
// The runner's checks of a bundle (parsed by the shared schema,
// BundleSchema.cpp) against a task. A bundle is compiled on one machine and
// run on another, possibly against a task that changed since; so the runner
// trusts nothing in the manifest: every buffer is matched with the task's
// tensor of the same name, every launch argument with its kernel param,
// every memref param's dims with the buffer's extents at every task shape,
// and every tma_descriptor's box with what a tensor map can encode.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Manifest.h"

#include "kbench/Support/KernelConfig.h"

#include <set>

namespace kbench::runner {

namespace {

/// "<file>: kernel 'k' param 'p': ", the prefix of a param's own problems.
std::string paramWhere(const std::string &file, const KernelSpec &k, const KernelParamSpec &p) {
  return file + ": kernel '" + k.name + "' param '" + p.name + "': ";
}

/// A tma_descriptor's box, checked against what cuTensorMapEncodeTiled
/// accepts, so that a box no tensor map can have is refused before any
/// launch rather than at the first bind.
void checkTensorMapBox(const std::string &file, const KernelSpec &k, const KernelParamSpec &p) {
  const std::string where = paramWhere(file, k, p);
  const int64_t maxRank = kSm90aLimits.maxTensorMapRank;
  const int64_t maxExtent = kSm90aLimits.maxTensorMapBoxExtent;
  const int64_t unit = kSm90aLimits.tensorMapUnitBytes;
  if (p.dims.empty() || static_cast<int64_t>(p.dims.size()) > maxRank)
    throw InputError(where + "a tensor map box has 1.." + std::to_string(maxRank) +
                     " axes, got " + std::to_string(p.dims.size()));
  std::vector<int64_t> box;
  for (size_t d = 0; d < p.dims.size(); ++d) {
    const std::string axis = "dims[" + std::to_string(d) + "] '" + p.dims[d].str() + "'";
    std::set<std::string> symbols;
    p.dims[d].collectSymbols(symbols);
    if (!symbols.empty())
      throw InputError(where + axis +
                       " is not a constant: a TMA box is fixed when the kernel is compiled");
    std::string error;
    std::optional<int64_t> extent = p.dims[d].evaluate({}, error);
    if (!extent)
      throw InputError(where + axis + ": " + error);
    if (*extent < 1 || *extent > maxExtent)
      throw InputError(where + axis + " is " + std::to_string(*extent) +
                       ", outside the 1.." + std::to_string(maxExtent) +
                       " elements a TMA box axis may have");
    box.push_back(*extent);
  }
  const std::string innermost = "the box's innermost extent (dims[" +
                                std::to_string(box.size() - 1) + "] = " +
                                std::to_string(box.back()) + " " + dtypeName(p.dtype) + ")";
  int64_t innerBytes = box.back() * static_cast<int64_t>(dtypeSize(p.dtype));
  if (innerBytes % unit != 0)
    throw InputError(where + innermost + " is " + std::to_string(innerBytes) +
                     " bytes, not a multiple of the " + std::to_string(unit) +
                     " bytes TMA moves at a time");
  if (p.swizzleBytes > 0 && innerBytes > p.swizzleBytes)
    throw InputError(where + innermost + " is " + std::to_string(innerBytes) +
                     " bytes, wider than its swizzle span of " +
                     std::to_string(p.swizzleBytes) +
                     " bytes; a swizzled box row must fit in one span");
  if (p.viewShape.empty())
    return;
  // With a view, the box has one extent per view axis; the buffer's rank
  // does not matter (checkTensorMapArg).
  if (p.viewShape.size() != box.size())
    throw InputError(where + "view rank " + std::to_string(p.viewShape.size()) +
                     ", box rank " + std::to_string(box.size()) +
                     " (the box needs one extent per view axis, outermost first)");
  const ShapeExpr &inner = p.viewStrides.back();
  std::set<std::string> symbols;
  inner.collectSymbols(symbols);
  std::string error;
  std::optional<int64_t> innerStride =
      symbols.empty() ? inner.evaluate({}, error) : std::nullopt;
  if (innerStride != 1)
    throw InputError(where + "view.strides[" + std::to_string(p.viewStrides.size() - 1) +
                     "] '" + inner.str() +
                     "' is not the constant 1: TMA reads the innermost axis contiguously, "
                     "so the view's innermost stride must be one element");
}

/// The param kinds a kernel of `m` may take on this runner: workspaces are
/// not allocated yet, tensor maps exist on sm_90a only, and a tensor map's
/// box must be one the driver can encode.
void checkParamKinds(const Manifest &m) {
  if (!m.workspaces.empty())
    throw InputError(m.file + ": workspaces: '" + m.workspaces.front().name +
                     "': this runner does not allocate workspaces yet (docs/bundle.md)");
  for (const KernelSpec &k : m.kernels) {
    for (const KernelParamSpec &p : k.params) {
      if (p.kind == KernelParamSpec::Kind::Workspace)
        throw InputError(paramWhere(m.file, k, p) + "kind 'workspace' is not passed by this "
                                                    "runner yet (docs/bundle.md)");
      if (p.kind != KernelParamSpec::Kind::TmaDescriptor)
        continue;
      if (m.target == "host")
        throw InputError(paramWhere(m.file, k, p) +
                         "kind 'tma_descriptor' is for sm_90a bundles only: the host lowering "
                         "does not use TMA, so a host kernel never takes a tensor map "
                         "(recompile the bundle)");
      checkTensorMapBox(m.file, k, p);
    }
  }
}

/// A tma_descriptor launch argument: the buffer the tensor map covers, with
/// the param's dtype and, without a view, one box axis per buffer axis.
void checkTensorMapArg(const std::string &where, const KernelParamSpec &p,
                       const BufferSpec *b) {
  if (!b)
    throw InputError(where + "names no buffer (a tma_descriptor covers a buffer)");
  if (b->dtype != p.dtype)
    throw InputError(where + "buffer dtype " + dtypeName(b->dtype) + ", tensor map dtype " +
                     dtypeName(p.dtype));
  if (p.viewShape.empty() && b->shape.size() != p.dims.size())
    throw InputError(where + "buffer rank " + std::to_string(b->shape.size()) + ", box rank " +
                     std::to_string(p.dims.size()) +
                     " (the box needs one extent per buffer axis, outermost first)");
}

/// What bind() encodes a tma_descriptor from, at `dims`.
ResolvedLaunch::TensorMapSpec resolveTensorMap(const Manifest &m, const KernelParamSpec &p,
                                               const std::string &buffer,
                                               const SymbolValues &dims,
                                               const std::string &where) {
  const BufferSpec *b = m.findBuffer(buffer);
  if (!b)
    throw InputError(where + " names no buffer");
  auto evaluate = [&](const std::vector<ShapeExpr> &exprs, const std::string &what) {
    std::vector<int64_t> values;
    for (size_t d = 0; d < exprs.size(); ++d) {
      std::string error;
      std::optional<int64_t> v = exprs[d].evaluate(dims, error);
      if (!v)
        throw InputError(where + " (param '" + p.name + "') " + what + "[" +
                         std::to_string(d) + "] '" + exprs[d].str() + "': " + error);
      values.push_back(*v);
    }
    return values;
  };
  ResolvedLaunch::TensorMapSpec map;
  map.dtype = p.dtype;
  std::vector<int64_t> extents = bufferExtents(*b, dims);
  map.bufferElements = 1;
  for (int64_t e : extents)
    map.bufferElements *= e;
  if (p.viewShape.empty()) {
    map.shape = extents;
    map.strides.assign(extents.size(), 1);
    for (size_t d = extents.size(); d-- > 1;)
      map.strides[d - 1] = map.strides[d] * extents[d];
  } else {
    map.shape = evaluate(p.viewShape, "view.shape");
    map.strides = evaluate(p.viewStrides, "view.strides");
  }
  map.box = evaluate(p.dims, "box");
  map.swizzleBytes = p.swizzleBytes;
  return map;
}

} // namespace

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

  checkParamKinds(m);

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
        got = bufferExtents(*b, sc.launchDims);
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
  for (const BufferSpec &b : m.buffers) {
    if (b.role != BufferSpec::Role::Temporary)
      continue;
    for (const ShapeCase &sc : shapes) {
      try {
        bufferExtents(b, sc.launchDims);
      } catch (const InputError &e) {
        throw InputError(file + ": " + e.what() + " at " + sc.label() +
                         " (a temporary's shape uses the task's dims and the "
                         "derived_dims of task.json)");
      }
    }
  }

  // Launch arguments against kernel params; every variant writes every output.
  std::vector<std::set<std::string>> writtenBy(m.variantCount());
  for (const LaunchSpec &l : m.launches) {
    std::set<std::string> &written = writtenBy[l.variant];
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
          std::vector<int64_t> extents = bufferExtents(*b, sc.launchDims);
          for (size_t d = 0; d < p.dims.size(); ++d) {
            std::string error;
            std::optional<int64_t> v = p.dims[d].evaluate(sc.launchDims, error);
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
          if (!sc.launchDims.count(arg))
            throw InputError(where + "is not a dim of the task's shapes (" + sc.label() + ")");
        break;
      case KernelParamSpec::Kind::Scalar:
        if (!input || !input->shape.empty() || input->dtype != p.dtype)
          throw InputError(where + "a scalar param takes a rank-0 task input of dtype " +
                           dtypeName(p.dtype));
        break;
      case KernelParamSpec::Kind::TmaDescriptor:
        checkTensorMapArg(where, p, b);
        break;
      case KernelParamSpec::Kind::Workspace:
        break; // Refused by checkParamKinds.
      }
    }
  }
  for (size_t v = 0; v < m.variantCount(); ++v)
    for (const TensorSpec &t : task.outputs)
      if (!writtenBy[v].count(t.name))
        throw InputError(file + ": " +
                         (m.variants.empty() ? std::string("launches")
                                             : m.variants[v].field + ".launches") +
                         ": output '" + t.name +
                         "' is never passed to a kernel, so nothing writes it");

  // Grids must evaluate at every shape (requires facts are checked per shape,
  // as verdicts, by violatedRequires).
  for (const ShapeCase &sc : shapes) {
    try {
      resolveLaunches(m, sc.launchDims);
    } catch (const InputError &e) {
      throw InputError(std::string(e.what()) + " at " + sc.label());
    }
  }
}

std::vector<ResolvedLaunch> resolveLaunches(const Manifest &m, const SymbolValues &dims) {
  std::vector<ResolvedLaunch> result;
  for (const LaunchSpec *launch : m.launchesOf(selectVariant(m, dims))) {
    const LaunchSpec &l = *launch;
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
      const KernelParamSpec &p = k.params[i];
      const std::string where =
          m.file + ": " + l.field + ".args[" + std::to_string(i) + "] '" + l.args[i] + "'";
      ResolvedLaunch::Arg arg;
      arg.kind = p.kind;
      if (arg.kind == KernelParamSpec::Kind::Dim) {
        auto it = dims.find(l.args[i]);
        if (it == dims.end())
          throw InputError(where + " has no value");
        arg.dim = it->second;
      } else {
        arg.buffer = l.args[i];
      }
      if (arg.kind == KernelParamSpec::Kind::TmaDescriptor)
        arg.tensorMap = resolveTensorMap(m, p, arg.buffer, dims, where);
      r.args.push_back(std::move(arg));
    }
    result.push_back(std::move(r));
  }
  return result;
}

} // namespace kbench::runner
