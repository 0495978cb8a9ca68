//===- DefaultSpace.cpp - The space a task gets without space.mlir --------===//
//
// Space::defaultSpaceText: a transform script with open choices derived from
// each kernel's own params (never from the tuned default schedule) and from
// the structural rewrites its shape allows (docs/search.md, "The default
// space").
//
//===----------------------------------------------------------------------===//

#include "kbench/Search/Space.h"

#include "kbench/Dialect/Tile/IR/Tile.h"
#include "kbench/Dialect/Tile/TransformOps/RewriteProbes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace kbench::search {

/// Powers of two from a quarter to eight times `value` (at least 1). Eight,
/// not four: on 16 warps a tile twice as wide as on 8 keeps the elements per
/// thread, and log_softmax_backward's fastest point measured is such a tile
/// (8192 columns where the kernel says 1024, docs/search.md).
static std::vector<int64_t> powersAround(int64_t value) {
  int64_t low = 1;
  while (low * 2 <= value / 4)
    low *= 2;
  std::vector<int64_t> result;
  for (int64_t v = low; v <= std::max<int64_t>(value, 1) * 8 && v <= 65536;
       v *= 2)
    result.push_back(v);
  return result;
}

namespace {

/// Writes the knobs and ops of one kernel's default space: its warps, tile
/// params and vector width, and the structural alternatives its shape
/// allows, on the handle `%<handle>`. Knob names (and the SSA values that
/// hold them) are `<prefix><name>`: no prefix for the kernel of a
/// one-kernel task, `<kernel>_` for each kernel of several, so that the
/// names stay unique and say which kernel they tune. Adds the per-thread
/// budget of each partition tile to `constraints`.
class KernelSpaceWriter {
public:
  KernelSpaceWriter(tile::KernelOp kernel, std::string handle,
                    std::string prefix, llvm::raw_ostream &os,
                    std::vector<std::string> &constraints)
      : kernel(kernel), handle("%" + handle), prefix(std::move(prefix)), os(os),
        constraints(constraints) {}

  void write();

private:
  std::string knob(StringRef name) const { return prefix + name.str(); }
  void writeKnob(StringRef name, const std::vector<int64_t> &options);
  void writeAlternatives(StringRef name, StringRef rewrite);
  void writeToggle(StringRef op);
  void addBudgets();
  void writeTensorCores();

  tile::KernelOp kernel;
  std::string handle;
  std::string prefix;
  llvm::raw_ostream &os;
  std::vector<std::string> &constraints;
};

std::string optionList(const std::vector<int64_t> &values) {
  std::vector<std::string> items;
  for (int64_t v : values)
    items.push_back(std::to_string(v));
  return "[" + llvm::join(items, ", ") + "]";
}

void KernelSpaceWriter::writeKnob(StringRef name,
                                  const std::vector<int64_t> &options) {
  os << "    %" << knob(name) << " = transform.tune.knob<\"" << knob(name)
     << "\"> options = " << optionList(options)
     << " -> !transform.param<i64>\n";
}

// Region 0 leaves the kernel as it is, region 1 applies `rewrite`.
void KernelSpaceWriter::writeAlternatives(StringRef name, StringRef rewrite) {
  os << "    transform.tune.alternatives<\"" << knob(name) << "\"> {\n"
     << "      transform.yield\n"
     << "    }, {\n"
     << "      " << rewrite << " : !transform.any_op\n"
     << "      transform.yield\n"
     << "    }\n";
}

// A rewrite switched on by `transform.tile.<op> %k 1`, under the op's name.
void KernelSpaceWriter::writeToggle(StringRef op) {
  writeAlternatives(op, "transform.tile." + op.str() + " " + handle + " 1");
}

// One per-thread budget per partition tile: at most 64 elements per thread
// (256 bytes of f32). On sm_90a every row_sum candidate with 128 f32
// elements per thread spilled in ptxas and none with 64 did, and a spilling
// candidate costs 2-5x a good one to reject after ptxas. On tensor cores
// (mma_impl 1 and up) 128: their operands go through shared memory, and the
// tuned wgmma defaults hold 128 f32 accumulators per thread without spills
// (matmul_bf16: 128x128 on 4 warps, 217 registers).
void KernelSpaceWriter::addBudgets() {
  std::string budget = "64 * 32 * " + knob("num_warps");
  if (tensorCoreMmaFits(kernel))
    budget += " * (1 + min(" + knob("mma_impl") + ", 1))";
  kernel.walk([&](tile::PartitionOp partition) {
    std::vector<std::string> factors;
    int64_t literal = 1;
    for (Attribute size : partition.getTileSizes()) {
      if (auto name = dyn_cast<StringAttr>(size))
        factors.push_back(knob(name.strref()));
      else if (auto value = dyn_cast<IntegerAttr>(size))
        literal *= value.getInt();
    }
    if (literal != 1)
      factors.push_back(std::to_string(literal));
    // A tile sized by one param alone stays far below the budget.
    if (factors.size() < 2)
      return;
    std::string fact = llvm::join(factors, " * ") + " <= " + budget;
    if (!llvm::is_contained(constraints, fact))
      constraints.push_back(fact);
  });
}

void KernelSpaceWriter::write() {
  static constexpr llvm::StringLiteral kOwnOps[] = {"num_warps", "vector_width",
                                                    "cache_hints", "group_m"};
  addBudgets();
  // Up to 16 warps: one row per 16-warp CTA on 8192-column tiles is the
  // fastest log_softmax_backward point measured (docs/gpu-lowering.md).
  writeKnob("num_warps", {1, 2, 4, 8, 16});
  os << "    transform.tile.set_num_warps " << handle << " %"
     << knob("num_warps") << " : !transform.any_op\n";
  std::vector<std::string> assignments;
  if (DictionaryAttr params = kernel.getParamsAttr())
    for (NamedAttribute param : params) {
      StringRef name = param.getName().strref();
      auto value = dyn_cast<IntegerAttr>(param.getValue());
      if (llvm::is_contained(kOwnOps, name) || !value)
        continue;
      writeKnob(name, powersAround(value.getInt()));
      assignments.push_back(name.str() + " = %" + knob(name));
    }
  if (!assignments.empty())
    os << "    transform.tile.set_params " << handle << " {"
       << llvm::join(assignments, ", ") << "} : !transform.any_op\n";
  writeKnob("vector_width", {1, 2, 4});
  os << "    transform.tile.vector_width " << handle << " %"
     << knob("vector_width") << " : !transform.any_op\n";
  // L2 eviction priorities between the passes of a kernel that reads a
  // tensor more than once; a knob like the two above (it rewrites nothing).
  if (cacheHintsFits(kernel)) {
    writeKnob("cache_hints", {0, 1});
    os << "    transform.tile.cache_hints " << handle << " %"
       << knob("cache_hints") << " : !transform.any_op\n";
  }
  // Structural choices, where the kernel has the shape a rewrite needs;
  // last, so that they see the tile sizes and num_warps chosen above.
  // Splitting a one-pass sum across CTAs, in chunks of 4 to 32 row tiles;
  // where the alternative is not taken the chunk knob changes nothing, and
  // the IR-hash dedupe folds those candidates into one.
  if (splitReductionFits(kernel)) {
    writeKnob("chunk", {4, 8, 16, 32});
    writeAlternatives("split_reduction", "transform.tile.split_reduction " +
                                             handle + " chunk %" +
                                             knob("chunk"));
  }
  // Masks only on the tiles that need them.
  if (maskBoundaryTilesFits(kernel))
    writeToggle("mask_boundary_tiles");
  // Reading a row once (several row passes re-loading a tile). The held-tile
  // budget at the chosen sizes is left to the op's legality rule, which
  // refuses the candidate.
  if (singlePassFitsSomeSizes(kernel))
    writeToggle("single_pass");
  // Storing a transposed tile through padded shared memory.
  if (stageTransposesFits(kernel))
    writeToggle("stage_transposes");
  // A matmul epilogue through shared memory, in a rolled loop.
  if (stageEpilogueFits(kernel))
    writeToggle("stage_epilogue");
  if (tensorCoreMmaFits(kernel))
    writeTensorCores();
}

// Tensor cores for a bf16 or f16 tile.mma: mma.sync or wgmma, each with a
// cp.async pipeline of 1 to 4 stages where the kernel has a K loop (f32
// operands of a task that opts into tf32: mma.sync only); the impls' rules
// (tile sizes, warps, K tile) refuse what they cannot take. Where the K
// loops could copy with TMA, wgmma also comes with TMA copies, and with a
// producer warpgroup beside them where the loop's place allows one (the
// regions after the cp.async ones, so that their numbers stay).
void KernelSpaceWriter::writeTensorCores() {
  bool pipelined = tensorCoreKLoopFits(kernel);
  if (pipelined)
    writeKnob("stages", {1, 2, 3, 4});
  std::string pipeline = "      transform.tile.pipeline " + handle +
                         " stages %" + knob("stages") +
                         " : !transform.any_op\n";
  os << "    transform.tune.alternatives<\"" << knob("mma_impl") << "\"> {\n"
     << "      transform.yield\n";
  for (StringRef impl : {"mma_sync", "wgmma"}) {
    if (!tensorCoreMmaFits(kernel, impl))
      continue;
    os << "    }, {\n"
       << "      transform.tile.mma_impl " << handle << " " << impl
       << " : !transform.any_op\n";
    if (pipelined)
      os << pipeline;
    os << "      transform.yield\n";
  }
  bool tma =
      pipelined && tensorCoreMmaFits(kernel, "wgmma") && tmaCopiesFit(kernel);
  for (bool producer : {false, true}) {
    if (!tma || (producer && !warpSpecializeFits(kernel)))
      continue;
    os << "    }, {\n"
       << "      transform.tile.mma_impl " << handle
       << " wgmma : !transform.any_op\n"
       << pipeline << "      transform.tile.operand_copies " << handle
       << " tma : !transform.any_op\n";
    if (producer)
      os << "      transform.tile.warp_specialize " << handle
         << " 1 : !transform.any_op\n";
    os << "      transform.yield\n";
  }
  os << "    }\n";
}

} // namespace

std::string Space::defaultSpaceText(ModuleOp kernelModule, std::string &error) {
  SmallVector<tile::KernelOp> kernels;
  kernelModule.walk([&](tile::KernelOp kernel) { kernels.push_back(kernel); });
  if (kernels.empty()) {
    error = "the kernel file has no tile.kernel, so there is nothing to "
            "search";
    return "";
  }
  // Each kernel's knobs; constraints are gathered first, since they are
  // written on the sequence before its body.
  bool several = kernels.size() > 1;
  // Knob prefixes of several kernels: their names without the words all
  // share (@col_moments and @col_finish tune moments_BR and finish_BN); the
  // whole names where one name is all shared words (@row_sum and
  // @row_sum_again).
  std::string common = kernels.front().getSymName().str();
  for (tile::KernelOp kernel : kernels) {
    StringRef name = kernel.getSymName();
    size_t n = 0;
    while (n < common.size() && n < name.size() && common[n] == name[n])
      ++n;
    common.resize(n);
  }
  size_t cut = common.rfind('_');
  cut = cut == std::string::npos ? 0 : cut + 1;
  for (tile::KernelOp kernel : kernels)
    if (kernel.getSymName().size() <= common.size())
      cut = 0;
  std::vector<std::string> constraints;
  std::string body;
  llvm::raw_string_ostream bodyOs(body);
  std::vector<std::string> names;
  for (auto [i, kernel] : llvm::enumerate(kernels)) {
    std::string name = kernel.getSymName().str();
    names.push_back("@" + name);
    std::string handle = several ? "k" + std::to_string(i) : "k";
    bodyOs << "    %" << handle
           << " = transform.structured.match ops{[\"tile.kernel\"]}";
    if (several)
      bodyOs << "\n        attributes{sym_name = \"" << name << "\"}";
    bodyOs << " in %root\n        : (!transform.any_op) -> !transform.any_op\n";
    KernelSpaceWriter(kernel, handle, several ? name.substr(cut) + "_" : "",
                      bodyOs, constraints)
        .write();
  }

  std::string text;
  llvm::raw_string_ostream os(text);
  os << "// The default space of " << llvm::join(names, ", ")
     << ", derived from " << (several ? "their" : "its")
     << " params (kbench search, docs/search.md).\n"
     << "module attributes {transform.with_named_sequence} {\n"
     << "  transform.named_sequence @__transform_main(\n"
     << "      %root: !transform.any_op {transform.readonly})\n"
     << "      attributes {kbench.constraints = [";
  for (auto [i, fact] : llvm::enumerate(constraints))
    os << (i ? ", " : "") << "\"" << fact << "\"";
  os << "]} {\n" << body << "    transform.yield\n  }\n}\n";
  return text;
}

} // namespace kbench::search
