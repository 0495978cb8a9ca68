//===- CudaDriver.cpp - Load libcuda.so.1 and wrap the driver API ---------===//
//
// dlopen + dlsym of the few driver entry points the runner uses. Each is looked
// up under the versioned name cuda.h maps it to (cuEventElapsedTime_v2) and,
// for drivers older than the header, under its plain name. The only file of
// the runner that includes cuda.h (CudaDriver.h says why).
//
//===----------------------------------------------------------------------===//

#include "kbench/Runner/CudaDriver.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

#if KBENCH_HAVE_CUDA
#include <cuda.h>
#endif

namespace kbench::runner {

bool haveCudaSupport() { return KBENCH_HAVE_CUDA != 0; }

TensorMapGeometry tensorMapGeometry(DType dtype, const std::vector<int64_t> &shapeOuterFirst,
                                    const std::vector<int64_t> &stridesOuterFirst,
                                    const std::vector<int64_t> &boxOuterFirst) {
  TensorMapGeometry g;
  const uint64_t elementBytes = dtypeSize(dtype);
  for (size_t axis = shapeOuterFirst.size(); axis-- > 0;) {
    g.globalDim.push_back(static_cast<uint64_t>(shapeOuterFirst[axis]));
    g.boxDim.push_back(static_cast<uint32_t>(boxOuterFirst[axis]));
    // The innermost axis has no stride entry: its elements are contiguous.
    if (axis + 1 < shapeOuterFirst.size())
      g.globalStrides.push_back(static_cast<uint64_t>(stridesOuterFirst[axis]) * elementBytes);
  }
  return g;
}

#if KBENCH_HAVE_CUDA

/// Function pointers into libcuda.so.1. Member names are the cuda.h names, so
/// the _v2 macros of cuda.h apply to them as they do to calls.
struct CudaDriver::Api {
// clang-format off
#define KBENCH_CUDA_FUNCTIONS(X)                                                           \
  X(cuInit) X(cuDriverGetVersion) X(cuDeviceGetCount) X(cuDeviceGet) X(cuDeviceGetName)     \
  X(cuDeviceGetPCIBusId) X(cuDeviceGetUuid) X(cuDeviceGetAttribute) X(cuDeviceTotalMem)      \
  X(cuDevicePrimaryCtxRetain) X(cuCtxSetCurrent) X(cuCtxSynchronize) X(cuCtxSetLimit)      \
  X(cuCtxResetPersistingL2Cache) X(cuModuleLoadDataEx) X(cuModuleGetFunction)              \
  X(cuModuleUnload) X(cuFuncSetAttribute) X(cuFuncGetAttribute) X(cuLaunchKernel)          \
  X(cuEventCreate) X(cuEventRecord) X(cuEventElapsedTime) X(cuEventDestroy)                \
  X(cuMemsetD32Async) X(cuMemcpyDtoDAsync) X(cuTensorMapEncodeTiled) X(cuGetErrorName)      \
  X(cuGetErrorString)
// clang-format on
#define KBENCH_DECLARE(fn) decltype(&::fn) fn = nullptr;
  KBENCH_CUDA_FUNCTIONS(KBENCH_DECLARE)
#undef KBENCH_DECLARE

  std::string name(CUresult r) const {
    const char *text = nullptr;
    cuGetErrorName(r, &text);
    return text ? text : "CUDA error " + std::to_string(r);
  }

  /// "CUDA_ERROR_INVALID_VALUE (invalid argument)".
  std::string describe(CUresult r) const {
    const char *text = nullptr;
    cuGetErrorString(r, &text);
    return name(r) + " (" + (text ? text : "no description") + ")";
  }

  void check(CUresult r, const std::string &what) const {
    if (r == CUDA_SUCCESS)
      return;
    // Errors after which the context cannot be used again.
    bool sticky = r == CUDA_ERROR_ILLEGAL_ADDRESS || r == CUDA_ERROR_LAUNCH_FAILED ||
                  r == CUDA_ERROR_MISALIGNED_ADDRESS || r == CUDA_ERROR_ILLEGAL_INSTRUCTION ||
                  r == CUDA_ERROR_HARDWARE_STACK_ERROR || r == CUDA_ERROR_INVALID_PC ||
                  r == CUDA_ERROR_INVALID_ADDRESS_SPACE || r == CUDA_ERROR_ASSERT ||
                  r == CUDA_ERROR_LAUNCH_TIMEOUT;
    throw CudaError(what + ": " + describe(r), static_cast<int>(r), sticky);
  }
};

#define KBENCH_STR2(x) #x
#define KBENCH_STR(x) KBENCH_STR2(x)

static const char *kNoDriverAdvice =
    "sm_90a bundles need an NVIDIA GPU; run host bundles with --target host, or evaluate on a "
    "GPU machine (scripts/gpu-eval.sh)";

CudaDriver *CudaDriver::get(std::string &error) {
  static CudaDriver driver;
  static Api api;
  static std::string loadError;
  static std::once_flag once;
  std::call_once(once, [] {
    // Lets CI pin the "no GPU" path on machines that have a driver.
    if (const char *off = std::getenv("KBENCH_RUN_NO_CUDA"); off && *off && *off != '0') {
      loadError = std::string("no CUDA driver (KBENCH_RUN_NO_CUDA is set): ") + kNoDriverAdvice;
      return;
    }
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!lib) {
      const char *why = dlerror();
      loadError = std::string("no CUDA driver on this machine (") + (why ? why : "") + "): " +
                  kNoDriverAdvice;
      return;
    }
    bool ok = true;
#define KBENCH_LOAD(fn)                                                                    \
  if (ok) {                                                                                \
    void *p = dlsym(lib, KBENCH_STR(fn));                                                  \
    if (!p)                                                                                \
      p = dlsym(lib, #fn);                                                                 \
    if (!p) {                                                                              \
      loadError = std::string("libcuda.so.1 lacks ") + KBENCH_STR(fn) +                    \
                  "; the NVIDIA driver is too old for this runner";                        \
      ok = false;                                                                          \
    } else {                                                                               \
      api.fn = reinterpret_cast<decltype(api.fn)>(p);                                      \
    }                                                                                      \
  }
    KBENCH_CUDA_FUNCTIONS(KBENCH_LOAD)
#undef KBENCH_LOAD
    if (!ok)
      return;
    CUresult r = api.cuInit(0);
    if (r != CUDA_SUCCESS) {
      loadError = "cuInit failed: " + api.name(r) + " (no usable NVIDIA GPU: check nvidia-smi)";
      return;
    }
    int count = 0;
    if (api.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0)
      loadError = "the CUDA driver reports no GPU";
    driver.api = &api;
  });
  if (!loadError.empty()) {
    error = loadError;
    return nullptr;
  }
  return &driver;
}

int CudaDriver::deviceCount() {
  int count = 0;
  api->check(api->cuDeviceGetCount(&count), "cuDeviceGetCount");
  return count;
}

void CudaDriver::usePrimaryContext(int device) {
  CUdevice dev;
  api->check(api->cuDeviceGet(&dev, device), "cuDeviceGet");
  CUcontext ctx;
  api->check(api->cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
  api->check(api->cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
}

bool CudaDriver::disablePersistingL2() {
  bool ok = api->cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, 0) == CUDA_SUCCESS;
  api->cuCtxResetPersistingL2Cache();
  return ok;
}

void CudaDriver::synchronize(const std::string &what) {
  api->check(api->cuCtxSynchronize(), what);
}

CudaDriver::Module CudaDriver::loadModule(const std::string &image, std::string &error) {
  char log[8192] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log))};
  CUmodule module = nullptr;
  CUresult r = api->cuModuleLoadDataEx(&module, image.data(), 2, options, values);
  if (r != CUDA_SUCCESS) {
    error = api->name(r) + (log[0] ? std::string("; JIT log: ") + log : std::string());
    return nullptr;
  }
  return module;
}

void CudaDriver::unloadModule(Module module) {
  api->cuModuleUnload(static_cast<CUmodule>(module));
}

CudaDriver::Function CudaDriver::getFunction(Module module, const std::string &symbol,
                                             std::string &error) {
  CUfunction fn = nullptr;
  CUresult r = api->cuModuleGetFunction(&fn, static_cast<CUmodule>(module), symbol.c_str());
  if (r != CUDA_SUCCESS) {
    error = api->name(r);
    return nullptr;
  }
  return fn;
}

void CudaDriver::setMaxDynamicSharedMemory(Function function, int bytes,
                                           const std::string &kernel) {
  api->check(api->cuFuncSetAttribute(static_cast<CUfunction>(function),
                                     CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes),
             "allowing " + std::to_string(bytes) + " bytes of dynamic shared memory for '" +
                 kernel + "'");
}

nlohmann::json CudaDriver::functionAttributes(Function function) {
  auto attr = [&](CUfunction_attribute a) {
    int v = 0;
    api->cuFuncGetAttribute(&v, a, static_cast<CUfunction>(function));
    return v;
  };
  return {{"registers", attr(CU_FUNC_ATTRIBUTE_NUM_REGS)},
          {"local_bytes", attr(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)},
          {"static_shared_bytes", attr(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)},
          {"max_threads_per_block", attr(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)}};
}

int CudaDriver::maxThreadsPerBlock(Function function) {
  int v = 0;
  api->cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                          static_cast<CUfunction>(function));
  return v;
}

void CudaDriver::launch(Function function, const std::array<int64_t, 3> &grid,
                        const std::array<int64_t, 3> &block, int64_t sharedMemory,
                        void **params, const std::string &kernel) {
  api->check(api->cuLaunchKernel(static_cast<CUfunction>(function),
                                 static_cast<unsigned>(grid[0]), static_cast<unsigned>(grid[1]),
                                 static_cast<unsigned>(grid[2]), static_cast<unsigned>(block[0]),
                                 static_cast<unsigned>(block[1]), static_cast<unsigned>(block[2]),
                                 static_cast<unsigned>(sharedMemory), /*hStream=*/nullptr, params,
                                 nullptr),
             "cuLaunchKernel of '" + kernel + "'");
}

CudaDriver::Event CudaDriver::createEvent() {
  CUevent e = nullptr;
  api->check(api->cuEventCreate(&e, CU_EVENT_DEFAULT), "cuEventCreate");
  return e;
}

void CudaDriver::destroyEvent(Event event) { api->cuEventDestroy(static_cast<CUevent>(event)); }

void CudaDriver::record(Event event) {
  api->check(api->cuEventRecord(static_cast<CUevent>(event), /*hStream=*/nullptr),
             "cuEventRecord");
}

float CudaDriver::elapsedMs(Event start, Event end) {
  float ms = 0;
  api->check(api->cuEventElapsedTime(&ms, static_cast<CUevent>(start), static_cast<CUevent>(end)),
             "cuEventElapsedTime");
  return ms;
}

static CUtensorMapDataType tensorMapDataType(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case DType::F16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case DType::BF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case DType::F64:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  case DType::I32:
    return CU_TENSOR_MAP_DATA_TYPE_INT32;
  case DType::I64:
    return CU_TENSOR_MAP_DATA_TYPE_INT64;
  case DType::I8:
  case DType::I1: // one byte per element, like i8
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  }
  return CU_TENSOR_MAP_DATA_TYPE_UINT8;
}

static CUtensorMapSwizzle tensorMapSwizzle(int swizzleBytes) {
  switch (swizzleBytes) {
  case 32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  default: // 0; the manifest reader allows no other value
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

bool CudaDriver::encodeTiledTensorMap(void *map128, DType dtype, void *address,
                                      const TensorMapGeometry &geometry, int swizzleBytes,
                                      std::string &error) {
  static_assert(sizeof(CUtensorMap) == 128, "a tensor map param is 128 bytes");
  const size_t rank = geometry.globalDim.size();
  std::vector<cuuint64_t> globalDim(geometry.globalDim.begin(), geometry.globalDim.end());
  std::vector<cuuint64_t> globalStrides(geometry.globalStrides.begin(),
                                        geometry.globalStrides.end());
  std::vector<cuuint32_t> boxDim(geometry.boxDim.begin(), geometry.boxDim.end());
  std::vector<cuuint32_t> elementStrides(rank, 1);
  CUresult r = api->cuTensorMapEncodeTiled(
      static_cast<CUtensorMap *>(map128), tensorMapDataType(dtype),
      static_cast<cuuint32_t>(rank), address, globalDim.data(), globalStrides.data(),
      boxDim.data(), elementStrides.data(), CU_TENSOR_MAP_INTERLEAVE_NONE,
      tensorMapSwizzle(swizzleBytes), CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r == CUDA_SUCCESS)
    return true;
  error = api->describe(r);
  return false;
}

void CudaDriver::memsetD32(void *pointer, unsigned value, size_t words) {
  api->check(api->cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(pointer), value, words,
                                   /*hStream=*/nullptr),
             "cuMemsetD32Async");
}

void CudaDriver::copyDeviceToDevice(void *dst, const void *src, size_t bytes) {
  api->check(api->cuMemcpyDtoDAsync(reinterpret_cast<CUdeviceptr>(dst),
                                    reinterpret_cast<CUdeviceptr>(src), bytes,
                                    /*hStream=*/nullptr),
             "cuMemcpyDtoDAsync");
}

int64_t CudaDriver::l2Bytes(int device) {
  CUdevice dev;
  api->check(api->cuDeviceGet(&dev, device), "cuDeviceGet");
  int l2 = 0;
  api->check(api->cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev),
             "cuDeviceGetAttribute(L2_CACHE_SIZE)");
  return l2;
}

nlohmann::json CudaDriver::describe(int device) {
  CUdevice dev;
  api->check(api->cuDeviceGet(&dev, device), "cuDeviceGet");
  char name[256] = {0};
  api->cuDeviceGetName(name, sizeof(name), dev);
  auto attr = [&](CUdevice_attribute a) {
    int v = 0;
    api->cuDeviceGetAttribute(&v, a, dev);
    return v;
  };
  int version = 0;
  api->cuDriverGetVersion(&version);
  size_t memory = 0;
  api->cuDeviceTotalMem(&memory, dev);
  char bus[64] = {0};
  api->cuDeviceGetPCIBusId(bus, sizeof(bus), dev);
  // The UUID names this physical GPU as nvidia-smi does ("GPU-8-4-4-4-12" hex
  // digits): what a measurement kept across runs is tied to
  // (BaselineTimings.h).
  std::string uuid;
  CUuuid raw;
  if (api->cuDeviceGetUuid(&raw, dev) == CUDA_SUCCESS) {
    static const char *hex = "0123456789abcdef";
    uuid = "GPU-";
    for (int i = 0; i < 16; ++i) {
      if (i == 4 || i == 6 || i == 8 || i == 10)
        uuid += '-';
      unsigned char b = static_cast<unsigned char>(raw.bytes[i]);
      uuid += hex[b >> 4];
      uuid += hex[b & 15];
    }
  }
  nlohmann::json env = {
      {"gpu", name},
      {"gpu_uuid", uuid},
      {"device", device},
      {"pci_bus_id", bus},
      {"compute_capability",
       std::to_string(attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)) +
           "." +
           std::to_string(attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR))},
      {"sms", attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)},
      {"l2_bytes", attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)},
      {"max_persisting_l2_bytes",
       attr(CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE)},
      {"sm_clock_khz", attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE)},
      {"memory_clock_khz", attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE)},
      {"memory_bytes", memory},
      {"cuda_driver_api", std::to_string(version / 1000) + "." +
                              std::to_string(version % 1000 / 10)},
  };

  // NVML: the driver version string, current clocks, temperature and power.
  // Optional: without libnvidia-ml only these fields are missing.
  if (void *nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)) {
    using Init = int (*)();
    using ByBus = int (*)(const char *, void **);
    using Uint = int (*)(void *, int, unsigned *);
    using Power = int (*)(void *, unsigned *);
    using Version = int (*)(char *, unsigned);
    auto init = reinterpret_cast<Init>(dlsym(nvml, "nvmlInit_v2"));
    auto byBus = reinterpret_cast<ByBus>(dlsym(nvml, "nvmlDeviceGetHandleByPciBusId_v2"));
    auto temp = reinterpret_cast<Uint>(dlsym(nvml, "nvmlDeviceGetTemperature"));
    auto clock = reinterpret_cast<Uint>(dlsym(nvml, "nvmlDeviceGetClockInfo"));
    auto power = reinterpret_cast<Power>(dlsym(nvml, "nvmlDeviceGetPowerUsage"));
    auto driverVersion = reinterpret_cast<Version>(dlsym(nvml, "nvmlSystemGetDriverVersion"));
    void *handle = nullptr;
    if (init && byBus && init() == 0 && byBus(bus, &handle) == 0) {
      unsigned v = 0;
      char text[96] = {0};
      if (driverVersion && driverVersion(text, sizeof(text)) == 0)
        env["driver"] = text;
      if (temp && temp(handle, /*NVML_TEMPERATURE_GPU=*/0, &v) == 0)
        env["temperature_c"] = v;
      if (clock && clock(handle, /*NVML_CLOCK_SM=*/1, &v) == 0)
        env["sm_clock_now_mhz"] = v;
      if (clock && clock(handle, /*NVML_CLOCK_MEM=*/2, &v) == 0)
        env["memory_clock_now_mhz"] = v;
      if (power && power(handle, &v) == 0)
        env["power_w"] = v / 1000.0;
    }
  }
  return env;
}

#else // !KBENCH_HAVE_CUDA

CudaDriver *CudaDriver::get(std::string &error) {
  error = "this kbench-run was built without the CUDA driver API header (cuda.h), so it runs "
          "host bundles only; rebuild it with -DKBENCH_CUDA_INCLUDE_DIR=<folder with cuda.h>";
  return nullptr;
}

// Unreachable without a driver: get() never returns one.
[[noreturn]] static void unreachable() {
  throw CudaError("internal: CUDA call in a runner built without cuda.h", 0, false);
}
int CudaDriver::deviceCount() { unreachable(); }
void CudaDriver::usePrimaryContext(int) { unreachable(); }
bool CudaDriver::disablePersistingL2() { unreachable(); }
void CudaDriver::synchronize(const std::string &) { unreachable(); }
CudaDriver::Module CudaDriver::loadModule(const std::string &, std::string &) { unreachable(); }
void CudaDriver::unloadModule(Module) { unreachable(); }
CudaDriver::Function CudaDriver::getFunction(Module, const std::string &, std::string &) {
  unreachable();
}
void CudaDriver::setMaxDynamicSharedMemory(Function, int, const std::string &) { unreachable(); }
nlohmann::json CudaDriver::functionAttributes(Function) { unreachable(); }
int CudaDriver::maxThreadsPerBlock(Function) { unreachable(); }
void CudaDriver::launch(Function, const std::array<int64_t, 3> &, const std::array<int64_t, 3> &,
                        int64_t, void **, const std::string &) {
  unreachable();
}
CudaDriver::Event CudaDriver::createEvent() { unreachable(); }
void CudaDriver::destroyEvent(Event) { unreachable(); }
void CudaDriver::record(Event) { unreachable(); }
float CudaDriver::elapsedMs(Event, Event) { unreachable(); }
bool CudaDriver::encodeTiledTensorMap(void *, DType, void *, const TensorMapGeometry &, int,
                                      std::string &) {
  unreachable();
}
void CudaDriver::memsetD32(void *, unsigned, size_t) { unreachable(); }
void CudaDriver::copyDeviceToDevice(void *, const void *, size_t) { unreachable(); }
int64_t CudaDriver::l2Bytes(int) { unreachable(); }
nlohmann::json CudaDriver::describe(int) { unreachable(); }

#endif // KBENCH_HAVE_CUDA

} // namespace kbench::runner
