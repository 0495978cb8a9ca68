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

#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <sstream>

namespace kbench::runner {

using HostEntry = void (*)(void **, int64_t, int64_t, int64_t);

void LaunchSequence::run() const {
  for (const Entry &e : entries) {
    void **params = const_cast<void **>(e.params.data());
    if (!onGpu) {
      reinterpret_cast<HostEntry>(e.function)(params, e.grid[0], e.grid[1], e.grid[2]);
      continue;
    }
#if KBENCH_HAVE_CUDA
    std::string error;
    CudaDriver *cu = CudaDriver::get(error);
    cu->check(cu->cuLaunchKernel(static_cast<CUfunction>(e.function),
                                 static_cast<unsigned>(e.grid[0]),
                                 static_cast<unsigned>(e.grid[1]),
                                 static_cast<unsigned>(e.grid[2]),
                                 static_cast<unsigned>(e.block[0]),
                                 static_cast<unsigned>(e.block[1]),
                                 static_cast<unsigned>(e.block[2]),
                                 static_cast<unsigned>(e.sharedMemory),
                                 /*hStream=*/nullptr, params, nullptr),
              "cuLaunchKernel of '" + e.kernel + "'");
#endif
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

#if KBENCH_HAVE_CUDA
class GpuModule : public KernelModule {
public:
  GpuModule(const Manifest &m, CudaDriver &cu) : cu(cu) {
    manifest = &m;
    std::error_code ec;
    std::string cubinError;
    std::filesystem::path cubin = m.dir / "kernel.cubin";
    std::filesystem::path ptx = m.dir / "kernel.ptx";
    if (std::filesystem::exists(cubin, ec)) {
      std::string image = readBytes(cubin);
      CUresult r = loadImage(image, nullptr);
      if (r == CUDA_SUCCESS)
        from = "kernel.cubin";
      else
        cubinError = errorName(r);
    } else {
      cubinError = "no kernel.cubin";
    }
    if (from.empty()) {
      if (!std::filesystem::exists(ptx, ec))
        throw InputError(m.dir.string() + ": kernel.cubin was refused (" + cubinError +
                         ") and there is no kernel.ptx to fall back to");
      std::string image = readBytes(ptx);
      image.push_back('\0'); // PTX is loaded as a C string
      std::string log;
      CUresult r = loadImage(image, &log);
      if (r != CUDA_SUCCESS)
        throw InputError(ptx.string() + ": the driver refused it (" + errorName(r) +
                         "); kernel.cubin: " + cubinError + "; JIT log: " + log);
      from = "kernel.ptx (kernel.cubin refused: " + cubinError + ")";
    }
    for (size_t i = 0; i < m.kernels.size(); ++i) {
      const KernelSpec &k = m.kernels[i];
      CUfunction fn = nullptr;
      CUresult r = cu.cuModuleGetFunction(&fn, module, k.symbol.c_str());
      if (r != CUDA_SUCCESS)
        throw InputError(m.dir.string() + "/" + from.substr(0, from.find(' ')) +
                         ": no kernel entry '" + k.symbol + "' (" + m.file + ": kernels[" +
                         std::to_string(i) + "].symbol): " + errorName(r));
      if (k.dynamicSharedMemory > 48 * 1024)
        cu.check(cu.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                       static_cast<int>(k.dynamicSharedMemory)),
                 "setting " + std::to_string(k.dynamicSharedMemory) +
                     " bytes of dynamic shared memory on '" + k.name + "'");
      int maxThreads = 0;
      cu.cuFuncGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn);
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
      cu.cuModuleUnload(module);
  }
  std::string loadedFrom() const override { return from; }
  nlohmann::json attributes() const override {
    nlohmann::json result = nlohmann::json::object();
    for (size_t i = 0; i < functions.size(); ++i) {
      int regs = 0, local = 0, maxThreads = 0, shared = 0;
      CUfunction fn = static_cast<CUfunction>(functions[i]);
      cu.cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
      cu.cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn);
      cu.cuFuncGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn);
      cu.cuFuncGetAttribute(&shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn);
      result[manifest->kernels[i].name] = {{"registers", regs},
                                           {"local_bytes", local},
                                           {"static_shared_bytes", shared},
                                           {"max_threads_per_block", maxThreads}};
    }
    return result;
  }

protected:
  void *function(size_t kernel) const override { return functions[kernel]; }
  bool onGpu() const override { return true; }

private:
  CUresult loadImage(const std::string &image, std::string *log) {
    char errorLog[8192] = {0};
    CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {errorLog, reinterpret_cast<void *>(sizeof(errorLog))};
    CUresult r = cu.cuModuleLoadDataEx(&module, image.data(), 2, options, values);
    if (log)
      *log = errorLog;
    if (r != CUDA_SUCCESS)
      module = nullptr;
    return r;
  }
  std::string errorName(CUresult r) const {
    const char *name = nullptr;
    cu.cuGetErrorName(r, &name);
    return name ? name : "CUDA error " + std::to_string(r);
  }

  CudaDriver &cu;
  CUmodule module = nullptr;
  std::string from;
  std::vector<void *> functions;
};
#endif

} // namespace

std::unique_ptr<KernelModule> KernelModule::load(const Manifest &manifest) {
  if (manifest.target == "host")
    return std::make_unique<HostModule>(manifest);
#if KBENCH_HAVE_CUDA
  std::string error;
  CudaDriver *cu = CudaDriver::get(error);
  if (!cu)
    throw InputError(error);
  return std::make_unique<GpuModule>(manifest, *cu);
#else
  throw InputError("this kbench-run was built without the CUDA driver API header (cuda.h), "
                   "so it runs host bundles only; rebuild with the CUDA toolkit present");
#endif
}

} // namespace kbench::runner
