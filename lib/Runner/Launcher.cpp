//===- Launcher.cpp - Host and GPU kernel modules -------------------------===//
//
// Two small KernelModule implementations behind one bind(): the host one keeps
// dlsym'd C entry points, the GPU one CUfunctions from a module loaded from
// the cubin (or the PTX when the driver refuses the cubin, with the JIT log in
// the error when both fail) and encodes the tensor maps of tma_descriptor
// arguments. bind() fills one 128-byte slot per argument.
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/Launcher.h"

#include "kbench/Runner/CudaDriver.h"
#include "kbench/Support/KernelConfig.h"

#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <sstream>

namespace kbench::runner {

using HostEntry = void (*)(void **, int64_t, int64_t, int64_t);

void LaunchSequence::run() const {
  CudaDriver *cu = nullptr;
  if (onGpu) {
    std::string error;
    cu = CudaDriver::get(error);
  }
  for (const Entry &e : entries) {
    void **params = const_cast<void **>(e.params.data());
    if (cu)
      cu->launch(e.function, e.grid, e.block, e.sharedMemory, params, e.kernel);
    else
      reinterpret_cast<HostEntry>(e.function)(params, e.grid[0], e.grid[1], e.grid[2]);
  }
}

bool tensorMapCanAddress(const void *address, const TensorMapGeometry &geometry) {
  const uint64_t unit = static_cast<uint64_t>(kSm90aLimits.tensorMapUnitBytes);
  if (reinterpret_cast<uintptr_t>(address) % unit != 0)
    return false;
  for (uint64_t stride : geometry.globalStrides)
    if (stride % unit != 0)
      return false;
  return true;
}

bool KernelModule::encodeTensorMap(const ResolvedLaunch::TensorMapSpec &,
                                   const TensorMapGeometry &, void *, void *,
                                   std::string &error) const {
  error = "internal: a host module has no tensor maps";
  return false;
}

namespace {

std::string list(const std::vector<int64_t> &values) {
  std::string text;
  for (int64_t v : values)
    text += (text.empty() ? "" : ", ") + std::to_string(v);
  return "[" + text + "]";
}

/// `a + b`, held at the int64 limits instead of wrapping.
int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t sum;
  if (__builtin_add_overflow(a, b, &sum))
    return b < 0 ? INT64_MIN : INT64_MAX;
  return sum;
}

/// Refuses a view (every extent > 0) that reaches elements outside its
/// buffer: the driver would encode it, and TMA would then read or write
/// memory the buffer does not own. `what` names the kernel and param.
void checkViewInsideBuffer(const std::string &what, const std::string &buffer,
                           const ResolvedLaunch::TensorMapSpec &map) {
  // The lowest and highest flat index the view reaches.
  int64_t lowest = 0, highest = 0;
  for (size_t d = 0; d < map.shape.size(); ++d) {
    int64_t reach;
    if (__builtin_mul_overflow(map.shape[d] - 1, map.strides[d], &reach))
      reach = map.strides[d] < 0 ? INT64_MIN : INT64_MAX;
    int64_t &end = reach < 0 ? lowest : highest;
    end = saturatingAdd(end, reach);
  }
  if (lowest >= 0 && highest < map.bufferElements)
    return;
  throw InputError(what + ": the view of buffer '" + buffer + "' (shape " + list(map.shape) +
                   ", strides " + list(map.strides) + ") reaches elements " +
                   std::to_string(lowest) + ".." + std::to_string(highest) +
                   ", but the buffer has " + std::to_string(map.bufferElements) +
                   " elements (0.." + std::to_string(map.bufferElements - 1) +
                   "); the view must stay inside its buffer at every shape the kernel runs");
}

} // namespace

void KernelModule::bindArg(const KernelSpec &kernel, size_t index,
                           const ResolvedLaunch::Arg &arg,
                           const std::map<std::string, void *> &pointers,
                           const std::map<std::string, uint64_t> &scalars,
                           LaunchSequence::ParamSlot &slot) const {
  auto bufferAddress = [&]() {
    auto it = pointers.find(arg.buffer);
    if (it == pointers.end())
      throw InputError("internal: no storage for buffer '" + arg.buffer + "'");
    return it->second;
  };
  switch (arg.kind) {
  case KernelParamSpec::Kind::Memref: {
    void *address = bufferAddress();
    std::memcpy(slot.bytes, &address, sizeof(address));
    return;
  }
  case KernelParamSpec::Kind::Dim:
    std::memcpy(slot.bytes, &arg.dim, sizeof(arg.dim));
    return;
  case KernelParamSpec::Kind::Scalar: {
    auto it = scalars.find(arg.buffer);
    if (it == scalars.end())
      throw InputError("internal: no value for scalar '" + arg.buffer + "'");
    std::memcpy(slot.bytes, &it->second, sizeof(it->second));
    return;
  }
  case KernelParamSpec::Kind::TmaDescriptor: {
    void *address = bufferAddress();
    const ResolvedLaunch::TensorMapSpec &map = arg.tensorMap;
    const std::string what =
        "kernel '" + kernel.name + "' param '" + kernel.params[index].name + "'";
    // The slot stays all zeros, which the kernel reads as "no tensor map":
    // for a view with an empty axis (floordiv(M, 64) at M = 16) the kernel
    // has no box to load, and for one TMA cannot address it copies without.
    for (int64_t extent : map.shape)
      if (extent <= 0)
        return;
    checkViewInsideBuffer(what, arg.buffer, map);
    TensorMapGeometry geometry = tensorMapGeometry(map.dtype, map.shape, map.strides, map.box);
    if (!tensorMapCanAddress(address, geometry))
      return;
    std::string error;
    if (!encodeTensorMap(map, geometry, address, slot.bytes, error))
      throw InputError(what + ": cannot encode the tensor map over buffer '" + arg.buffer +
                       "': " + error);
    return;
  }
  case KernelParamSpec::Kind::Workspace:
    // checkManifestAgainstTask refuses them before any launch.
    throw InputError("internal: cannot pass a workspace param");
  }
}

LaunchSequence KernelModule::bind(const std::vector<ResolvedLaunch> &launches,
                                  const std::map<std::string, void *> &pointers,
                                  const std::map<std::string, uint64_t> &scalars) const {
  LaunchSequence seq;
  seq.onGpu = onGpu();
  for (const ResolvedLaunch &l : launches) {
    const KernelSpec &k = manifest->kernels[l.kernel];
    LaunchSequence::Entry e;
    e.kernel = k.name;
    e.function = function(l.kernel);
    e.grid = l.grid;
    e.block = k.block;
    e.sharedMemory = k.dynamicSharedMemory;
    e.storage.resize(l.args.size());
    for (size_t i = 0; i < l.args.size(); ++i)
      bindArg(k, i, l.args[i], pointers, scalars, e.storage[i]);
    seq.entries.push_back(std::move(e));
  }
  // Pointers into storage only once every vector has its final buffer.
  for (LaunchSequence::Entry &e : seq.entries)
    for (LaunchSequence::ParamSlot &slot : e.storage)
      e.params.push_back(slot.bytes);
  return seq;
}

//===----------------------------------------------------------------------===//
// Host modules
//===----------------------------------------------------------------------===//

namespace {

class HostModule : public KernelModule {
public:
  HostModule(const Manifest &m) {
    manifest = &m;
    std::filesystem::path path = std::filesystem::absolute(m.dir / "kernel.so");
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *why = dlerror();
      throw InputError(path.string() + ": cannot be loaded: " + (why ? why : "unknown error"));
    }
    for (size_t i = 0; i < m.kernels.size(); ++i) {
      void *fn = dlsym(handle, m.kernels[i].symbol.c_str());
      if (!fn)
        throw InputError(path.string() + ": no symbol '" + m.kernels[i].symbol + "' (" +
                         m.file + ": kernels[" + std::to_string(i) + "].symbol)");
      functions.push_back(fn);
    }
  }
  std::string loadedFrom() const override { return "kernel.so"; }

protected:
  void *function(size_t kernel) const override { return functions[kernel]; }
  bool onGpu() const override { return false; }

private:
  void *handle = nullptr; // kept open for the life of the process
  std::vector<void *> functions;
};

std::string readBytes(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class GpuModule : public KernelModule {
public:
  GpuModule(const Manifest &m, CudaDriver &cu) : cu(cu) {
    manifest = &m;
    std::error_code ec;
    std::string cubinError = "no kernel.cubin";
    std::filesystem::path cubin = m.dir / "kernel.cubin";
    std::filesystem::path ptx = m.dir / "kernel.ptx";
    if (std::filesystem::exists(cubin, ec)) {
      module = cu.loadModule(readBytes(cubin), cubinError);
      if (module)
        from = "kernel.cubin";
    }
    if (!module) {
      if (!std::filesystem::exists(ptx, ec))
        throw InputError(m.dir.string() + ": kernel.cubin was refused (" + cubinError +
                         ") and there is no kernel.ptx to fall back to");
      std::string image = readBytes(ptx);
      image.push_back('\0'); // PTX is loaded as a C string
      std::string ptxError;
      module = cu.loadModule(image, ptxError);
      if (!module)
        throw InputError(ptx.string() + ": the driver refused it (" + ptxError +
                         "); kernel.cubin: " + cubinError);
      from = "kernel.ptx (kernel.cubin: " + cubinError + ")";
    }
    for (size_t i = 0; i < m.kernels.size(); ++i) {
      const KernelSpec &k = m.kernels[i];
      std::string error;
      CudaDriver::Function fn = cu.getFunction(module, k.symbol, error);
      if (!fn)
        throw InputError(m.dir.string() + ": the module has no kernel entry '" + k.symbol +
                         "' (" + m.file + ": kernels[" + std::to_string(i) + "].symbol): " +
                         error);
      // Above the default per-block size, the kernel must opt in first.
      if (k.dynamicSharedMemory > kSm90aLimits.staticSharedMemoryPerBlock)
        cu.setMaxDynamicSharedMemory(fn, static_cast<int>(k.dynamicSharedMemory), k.name);
      int maxThreads = cu.maxThreadsPerBlock(fn);
      int64_t threads = k.block[0] * k.block[1] * k.block[2];
      if (maxThreads > 0 && threads > maxThreads)
        throw InputError(m.file + ": kernels[" + std::to_string(i) + "].block: " +
                         std::to_string(threads) + " threads per block, but '" + k.name +
                         "' can launch at most " + std::to_string(maxThreads) +
                         " with its register use");
      functions.push_back(fn);
    }
  }
  ~GpuModule() override {
    if (module)
      cu.unloadModule(module);
  }
  std::string loadedFrom() const override { return from; }
  nlohmann::json attributes() const override {
    nlohmann::json result = nlohmann::json::object();
    for (size_t i = 0; i < functions.size(); ++i)
      result[manifest->kernels[i].name] = cu.functionAttributes(functions[i]);
    return result;
  }

protected:
  void *function(size_t kernel) const override { return functions[kernel]; }
  bool onGpu() const override { return true; }
  bool encodeTensorMap(const ResolvedLaunch::TensorMapSpec &map,
                       const TensorMapGeometry &geometry, void *address, void *map128,
                       std::string &error) const override {
    return cu.encodeTiledTensorMap(map128, map.dtype, address, geometry,
                                   static_cast<int>(map.swizzleBytes), error);
  }

private:
  CudaDriver &cu;
  CudaDriver::Module module = nullptr;
  std::string from;
  std::vector<void *> functions;
};

} // namespace

std::unique_ptr<KernelModule> KernelModule::load(const Manifest &manifest) {
  if (manifest.target == "host")
    return std::make_unique<HostModule>(manifest);
  std::string error;
  CudaDriver *cu = CudaDriver::get(error);
  if (!cu)
    throw InputError(error);
  return std::make_unique<GpuModule>(manifest, *cu);
}

} // namespace kbench::runner
