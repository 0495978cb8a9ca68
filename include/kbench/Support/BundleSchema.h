//===- BundleSchema.h - The bundle contract, typed ----------------*- C++ -*-===//
//
// The one owner of manifest.json (docs/bundle.md): the format tag and
// version, the field names, typed structs for buffers, kernels, params,
// launches, resources and workspaces, the one writer and the one reader.
// The compiler fills a BundleManifest and writes it with writeManifestFile;
// the runner and the compile cache read with parseManifest, so every reader
// validates with the same messages and no second writer exists. The compiler
// is built without exceptions: it calls the try* entry points, which return
// the message instead of throwing, and never touches nlohmann/json itself.
//
// Plain C++17 + nlohmann/json: the runner links it without LLVM or MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SUPPORT_BUNDLESCHEMA_H
#define KBENCH_SUPPORT_BUNDLESCHEMA_H

#include "kbench/Support/DType.h"
#include "kbench/Support/InputError.h"
#include "kbench/Support/ShapeExpr.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kbench::bundle {

/// The format family and the version this build writes and reads. A reader
/// accepts exactly this version: a bundle is a cache entry, so an old one is
/// recompiled, never migrated.
inline constexpr const char *kFormatName = "kbench-bundle";
inline constexpr int kFormatVersion = 1;
/// "kbench-bundle/1".
std::string formatTag();

/// The manifest file inside a bundle folder.
inline constexpr const char *kManifestFile = "manifest.json";

/// Field names, so that writer and reader cannot spell one differently.
namespace field {
inline constexpr const char *kFormat = "format";
inline constexpr const char *kTarget = "target";
inline constexpr const char *kTask = "task";
inline constexpr const char *kCompiler = "compiler";
inline constexpr const char *kIrHash = "ir_hash";
inline constexpr const char *kVerification = "verification";
inline constexpr const char *kBuffers = "buffers";
inline constexpr const char *kWorkspaces = "workspaces";
inline constexpr const char *kKernels = "kernels";
inline constexpr const char *kLaunches = "launches";
inline constexpr const char *kDispatch = "dispatch";
inline constexpr const char *kWhen = "when";
inline constexpr const char *kName = "name";
inline constexpr const char *kVersion = "version";
inline constexpr const char *kDtype = "dtype";
inline constexpr const char *kShape = "shape";
inline constexpr const char *kRole = "role";
inline constexpr const char *kBytes = "bytes";
inline constexpr const char *kSymbol = "symbol";
inline constexpr const char *kParams = "params";
inline constexpr const char *kKind = "kind";
inline constexpr const char *kDims = "dims";
inline constexpr const char *kSwizzle = "swizzle";
inline constexpr const char *kView = "view";
inline constexpr const char *kStrides = "strides";
inline constexpr const char *kGrid = "grid";
inline constexpr const char *kBlock = "block";
inline constexpr const char *kDynamicSharedMemory = "dynamic_shared_memory";
inline constexpr const char *kRequires = "requires";
inline constexpr const char *kResources = "resources";
inline constexpr const char *kKernel = "kernel";
inline constexpr const char *kArgs = "args";
inline constexpr const char *kRegisters = "registers";
inline constexpr const char *kSpillStores = "spill_stores";
inline constexpr const char *kSpillLoads = "spill_loads";
inline constexpr const char *kStackFrame = "stack_frame";
inline constexpr const char *kSharedMemory = "shared_memory";
inline constexpr const char *kInjectedWgmmaWaits = "injected_wgmma_waits";
} // namespace field

/// A global buffer of the launch sequence.
struct BufferSpec {
  enum class Role { Input, Output, Temporary };
  std::string name;
  DType dtype = DType::F32;
  std::vector<ShapeExpr> shape;
  Role role = Role::Input;
};

/// Scratch memory in bytes, allocated by the runner for the whole launch
/// sequence and passed to kernels by a `workspace` param (split-K partials,
/// semaphores). Nothing emits one yet; the runner refuses bundles that use
/// one until it allocates them.
struct WorkspaceSpec {
  std::string name;
  ShapeExpr bytes = ShapeExpr::constant(0);
  /// Zero-filled before every launch sequence (else uninitialized).
  bool zeroed = true;
};

/// One argument of a kernel, in ABI order (docs/bundle.md, "The kernel ABI").
struct KernelParamSpec {
  enum class Kind {
    Memref,        ///< a pointer to a buffer
    Dim,           ///< an int64_t shape dim
    Scalar,        ///< a rank-0 task input, by value
    TmaDescriptor, ///< by value: a 128-byte CUtensorMap over the buffer the
                   ///< launch argument names, with box `dims`
    Workspace,     ///< a pointer to the workspace the launch argument names
  };
  std::string name;
  Kind kind = Kind::Memref;
  DType dtype = DType::F32;    ///< memref element type or scalar type
  std::vector<ShapeExpr> dims; ///< memref: one dim (expression) per axis;
                               ///< tma_descriptor: the box, one per axis
  /// tma_descriptor only: the shared-memory swizzle span in bytes (0 = none,
  /// 32, 64 or 128). It is part of the param because the kernel's shared
  /// memory addressing was compiled for it; the runner must encode the same.
  int64_t swizzleBytes = 0;
  /// tma_descriptor only, optional: the strided view of the buffer the
  /// tensor map describes instead of the dense buffer, outermost axis first,
  /// one entry per box axis. View element (i0, .., ir-1) is element
  /// sum(i_d * viewStrides[d]) of the dense row-major buffer; strides count
  /// elements of `dtype`, the innermost is 1. Both empty: no view (the map
  /// covers the dense buffer, box rank == buffer rank).
  std::vector<ShapeExpr> viewShape;
  std::vector<ShapeExpr> viewStrides;
};

/// ptxas -v figures of one kernel (GPU bundles only).
struct ResourceUsage {
  int64_t registers = 0;
  int64_t spillStores = 0;
  int64_t spillLoads = 0;
  int64_t stackFrame = 0;
  int64_t sharedMemory = 0;
  /// Full wgmma waits ptxas added on its own (info C7517); written only
  /// when non-zero.
  int64_t injectedWgmmaWaits = 0;
};

struct KernelSpec {
  std::string name;
  std::string symbol;
  std::vector<KernelParamSpec> params;
  std::array<ShapeExpr, 3> grid = {ShapeExpr::constant(1), ShapeExpr::constant(1),
                                   ShapeExpr::constant(1)};
  std::array<int64_t, 3> block = {1, 1, 1};
  int64_t dynamicSharedMemory = 0;
  std::vector<ShapeFact> requirements; ///< the manifest's `requires` facts
  std::optional<ResourceUsage> resources;
};

struct LaunchSpec {
  size_t kernel = 0; ///< index into BundleManifest::kernels
  std::vector<std::string> args;
  std::string field; ///< "launches[0]" (set by the reader, for messages)
  /// Index into BundleManifest::variants; 0 in a bundle without dispatch.
  size_t variant = 0;
};

/// One entry of a dispatch bundle's `dispatch` list (docs/bundle.md,
/// "Shape-specialized dispatch"): the launch sequence compiled from one
/// schedule, used at the shapes where every `when` fact holds and no
/// earlier variant's do. The last variant has no facts: it is the fallback.
struct VariantSpec {
  std::string name;
  std::vector<ShapeFact> when;
  std::string field; ///< "dispatch[0]" (set by the reader, for messages)
};

/// Provenance: which compiler wrote the bundle.
struct CompilerInfo {
  std::string name;
  std::string version; ///< optional ("" when absent)
};

struct BundleManifest {
  std::string target; ///< "sm_90a" or "host"
  std::string task;
  std::optional<CompilerInfo> compiler;
  std::string irHash;
  std::string verification; ///< "proved" or "skipped"
  std::vector<BufferSpec> buffers;
  std::vector<WorkspaceSpec> workspaces;
  std::vector<KernelSpec> kernels;
  /// Every launch of every variant, each tagged with its variant, in
  /// order. Without dispatch, `variants` is empty and all are variant 0.
  std::vector<LaunchSpec> launches;
  /// A dispatch bundle's variants in order (the last one has no `when`);
  /// empty for a bundle with one launch sequence.
  std::vector<VariantSpec> variants;
  /// Set by the reader: the bundle folder and the manifest file.
  std::filesystem::path dir;
  std::string file;

  const BufferSpec *findBuffer(const std::string &name) const;
  /// The kernel whose symbol is `symbol`, or null.
  KernelSpec *findKernelBySymbol(const std::string &symbol);
  /// 1 without dispatch, else the number of variants.
  size_t variantCount() const { return variants.empty() ? 1 : variants.size(); }
  /// The launches of variant `variant`, in order.
  std::vector<const LaunchSpec *> launchesOf(size_t variant) const;
  /// The variant's name, "" without dispatch.
  std::string variantName(size_t variant) const;
};

/// Spellings of the enums ("memref", "temporary").
const char *paramKindName(KernelParamSpec::Kind kind);
const char *bufferRoleName(BufferSpec::Role role);

/// The manifest as JSON, fields in docs/bundle.md order.
nlohmann::json toJson(const BundleManifest &manifest);
nlohmann::json toJson(const ResourceUsage &resources);

/// Writes `<dir>/manifest.json`. Throws InputError when it cannot.
void writeManifestFile(const std::filesystem::path &dir, const BundleManifest &manifest);

/// Parses and validates a manifest; `file` is used in messages. Throws
/// InputError naming the file and the field ("kernels[0].block[0]: ...").
BundleManifest parseManifest(const nlohmann::json &doc, const std::string &file);

/// Reads `<bundleDir>/manifest.json`; throws InputError naming the field.
BundleManifest parseManifestFile(const std::filesystem::path &bundleDir);

/// The entry points for code built without exceptions: the manifest as
/// indented JSON text, and the reader and writer above returning the
/// InputError message in `error` instead of throwing.
std::string renderManifest(const BundleManifest &manifest);
std::optional<BundleManifest> tryParseManifestFile(const std::filesystem::path &bundleDir,
                                                   std::string &error);
bool tryWriteManifestFile(const std::filesystem::path &dir, const BundleManifest &manifest,
                          std::string &error);

/// The variant of a dispatch bundle that runs at `dims`: the first whose
/// `when` facts all hold (the last has none). 0 without dispatch. Throws
/// InputError when a fact cannot be evaluated (a dim the shape lacks).
size_t selectVariant(const BundleManifest &manifest, const SymbolValues &dims);

/// selectVariant for code built without exceptions (the compiler): nullopt
/// with the message in `error` when a fact cannot be evaluated.
std::optional<size_t> trySelectVariant(const BundleManifest &manifest,
                                       const SymbolValues &dims,
                                       std::string &error);

/// The requires facts of every kernel the variant at `dims` launches that do
/// not hold at `dims`, as messages naming the kernel, the fact and the dim
/// values. Empty when all hold.
std::vector<std::string> violatedRequires(const BundleManifest &manifest,
                                          const SymbolValues &dims);

/// violatedRequires' first message, or the InputError of a variant fact that
/// cannot be evaluated; nullopt when the bundle runs at `dims`. Does not
/// throw (for the compiler, built without exceptions).
std::optional<std::string> whyNotRunnableAt(const BundleManifest &manifest,
                                            const SymbolValues &dims);

} // namespace kbench::bundle

#endif // KBENCH_SUPPORT_BUNDLESCHEMA_H
