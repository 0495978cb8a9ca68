//===- Admission.cpp - What IR and scripts the MCP server accepts ---------===//
//
// Allow-lists, not deny-lists: an op or attribute of a dialect added to
// MLIR tomorrow is refused until someone decides it is safe.
//
//===----------------------------------------------------------------------===//

#include "kbench/Mcp/Admission.h"

#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace kbench::mcp {

int mlirNestingDepth(llvm::StringRef text, int limit) {
  int depth = 0, deepest = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n')
        ++i;
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || c == '<') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit)
        return deepest;
    } else if (c == ')' || c == ']' || c == '}' ||
               (c == '>' && (i == 0 || text[i - 1] != '-'))) {
      depth = std::max(0, depth - 1);
    }
  }
  return deepest;
}

/// "kernel:3:5" for a file location, else the location as MLIR prints it.
static std::string where(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    os << op->getLoc();
  return text;
}

/// The attributes an op carries beyond its own: only tile.* is accepted.
static std::optional<std::string> checkAttributes(Operation *op) {
  auto foreign = [](StringRef name) {
    return name.contains('.') && !name.starts_with("tile.");
  };
  for (NamedAttribute attr : op->getDiscardableAttrs())
    if (foreign(attr.getName().getValue()))
      return where(op) + ": attribute '" + attr.getName().str() + "' on " +
             op->getName().getStringRef().str() +
             " is not accepted: a kernel carries tile.* attributes only";
  // Argument attributes (tile.dims) live in inherent dictionaries.
  for (StringRef inherent : {"arg_attrs", "res_attrs"})
    if (auto list = op->getAttrOfType<ArrayAttr>(inherent))
      for (Attribute dict : list)
        if (auto entries = dyn_cast<DictionaryAttr>(dict))
          for (NamedAttribute attr : entries)
            if (foreign(attr.getName().getValue()))
              return where(op) + ": argument attribute '" +
                     attr.getName().str() +
                     "' is not accepted: a kernel carries tile.* attributes only";
  return std::nullopt;
}

/// Every symbol reference of `op` must name a symbol of `module`.
static std::optional<std::string> checkSymbols(Operation *op, ModuleOp module) {
  std::optional<std::string> why;
  op->getAttrDictionary().walk([&](SymbolRefAttr ref) {
    if (!why && !SymbolTable::lookupSymbolIn(module, ref))
      why = where(op) + ": " + op->getName().getStringRef().str() +
            " refers to @" + ref.getRootReference().str() +
            ", which this file does not define: a kernel may not reach "
            "external symbols";
  });
  return why;
}

std::optional<std::string> checkKernelModule(ModuleOp module) {
  if (!module->getDiscardableAttrs().empty())
    return where(module) +
           ": the kernel module carries attributes; a kernel file holds "
           "tile.kernel ops and a func.func @main, without attributes";
  static const llvm::StringSet<> kernelDialects = {"tile", "arith", "math",
                                                   "scf", "index"};
  for (Operation &top : module.getBody()->getOperations()) {
    if (auto func = dyn_cast<func::FuncOp>(top)) {
      if (func.isExternal() || func.getSymName() != "main")
        return where(func) + ": func.func @" + func.getSymName().str() +
               (func.isExternal() ? " is a declaration" : " is not @main") +
               ": a kernel file holds tile.kernel ops and one func.func "
               "@main that launches them";
    } else if (!isa<tile::KernelOp>(top)) {
      return where(&top) + ": " + top.getName().getStringRef().str() +
             " at the top of a kernel file; only tile.kernel and func.func "
             "@main are accepted";
    }
  }
  std::optional<std::string> why;
  module.walk([&](Operation *op) {
    if (why || op == module.getOperation())
      return why ? WalkResult::interrupt() : WalkResult::advance();
    if ((why = checkAttributes(op)) || (why = checkSymbols(op, module)))
      return WalkResult::interrupt();
    StringRef name = op->getName().getStringRef();
    Operation *parent = op->getParentOp();
    bool inMain = isa<func::FuncOp>(parent);
    if (isa<tile::KernelOp, func::FuncOp>(op) && parent == module.getOperation())
      return WalkResult::advance();
    if (inMain) {
      if (!isa<tile::LaunchOp, func::ReturnOp>(op))
        why = where(op) + ": " + name.str() +
              " in func.func @main; @main may hold only tile.launch and "
              "func.return (docs/tile-ir.md)";
    } else if (!kernelDialects.contains(op->getName().getDialectNamespace()) ||
               isa<tile::LaunchOp>(op)) {
      why = where(op) + ": " + name.str() +
            " is not accepted in a tile.kernel: kernels hold tile, arith, "
            "math, scf and index ops only (docs/tile-ir.md)";
    }
    return why ? WalkResult::interrupt() : WalkResult::advance();
  });
  return why;
}

std::optional<std::string> checkScheduleModule(ModuleOp module) {
  for (NamedAttribute attr : module->getDiscardableAttrs())
    if (attr.getName() != "transform.with_named_sequence")
      return where(module) + ": attribute '" + attr.getName().str() +
             "' on the schedule module; only transform.with_named_sequence "
             "is accepted";
  static const llvm::StringSet<> generic = {
      "transform.named_sequence", "transform.yield",
      "transform.structured.match", "transform.param.constant",
      "transform.include", "transform.merge_handles",
      "transform.split_handle", "transform.get_parent_op",
      "transform.foreach"};
  std::optional<std::string> why;
  module.walk([&](Operation *op) {
    if (op == module.getOperation())
      return WalkResult::advance();
    StringRef name = op->getName().getStringRef();
    if (auto sequence = dyn_cast<transform::NamedSequenceOp>(op))
      if (sequence.isExternal())
        why = where(op) + ": transform.named_sequence @" +
              sequence.getSymName().str() +
              " is a declaration; a schedule defines every sequence it uses";
    if (!why && !generic.contains(name) &&
        !name.starts_with("transform.tile.") &&
        !name.starts_with("transform.tune."))
      why = where(op) + ": " + name.str() +
            " is not accepted in a schedule: schedules hold transform.tile.* "
            "and transform.tune.* ops, and transform.named_sequence, yield, "
            "structured.match, param.constant, include, merge_handles, "
            "split_handle, get_parent_op and foreach (docs/schedules.md)";
    if (!why)
      why = checkSymbols(op, module);
    return why ? WalkResult::interrupt() : WalkResult::advance();
  });
  return why;
}

} // namespace kbench::mcp
