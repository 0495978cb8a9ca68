//===- Launcher.cpp - Host and GPU kernel modules -------------------------===//
//
// Two small KernelModule implementations behind one bind(): the host one keeps
// dlsym'd C entry points, the GPU one CUfunctions from a module loaded from
// the cubin (or the PTX when the driver refuses the cubin, with the JIT log in
// the error when both fail).
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
    for (const ResolvedLaunch::Arg &a : l.args) {
      uint64_t slot = 0;
      switch (a.kind) {
      case KernelParamSpec::Kind::Memref: {
        auto it = pointers.find(a.buffer);
        if (it == pointers.end())
          throw InputError("internal: no storage for buffer '" + a.buffer + "'");
        void *p = it->second;
        std::memcpy(&slot, &p, sizeof(p));
        break;
      }
      case KernelParamSpec::Kind::Dim:
        std::memcpy(&slot, &a.dim, sizeof(a.dim));
        break;
      case KernelParamSpec::Kind::Scalar: {
        auto it = scalars.find(a.buffer);
        if (it == scalars.end())
          throw InputError("internal: no value for scalar '" + a.buffer + "'");
        slot = it->second;
        break;
      }
      case KernelParamSpec::Kind::TmaDescriptor:
      case KernelParamSpec::Kind::Workspace:
        // checkManifestAgainstTask refuses them before any launch.
        throw InputError(std::string("internal: cannot pass a ") +
                         bundle::paramKindName(a.kind) + " param");
      }
      e.storage.push_back(slot);
    }
    seq.entries.push_back(std::move(e));
  }
  // Pointers into storage only once every vector has its final buffer.
  for (LaunchSequence::Entry &e : seq.entries)
    for (uint64_t &slot : e.storage)
      e.params.push_back(&slot);
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
