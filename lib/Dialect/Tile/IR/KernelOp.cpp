//===- KernelOp.cpp - tile.kernel and tile.launch -------------------------===//
//
// The kernel's syntax (a function signature followed by `params {...}` and
// `requires [...]`), its verifier (dim names, params, requires facts, memory
// only through partitions, one grid) and the host-level launch.
//
//===----------------------------------------------------------------------===//

#include "kbench/Dialect/Tile/IR/KernelABI.h"
#include "kbench/Dialect/Tile/IR/Tile.h"
#include "kbench/Support/KernelConfig.h"
#include "kbench/Support/ShapeExpr.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace kbench::tile;

static constexpr StringLiteral kDimsAttrName = "tile.dims";
static constexpr StringLiteral kPartialsAttrName = "tile.partials";

bool kbench::tile::allowsTf32(Operation *op) {
  // The kernel's own attribute, or the copy tile-to-gpu keeps on the
  // gpu.func it lowers the kernel's body into.
  for (Operation *at = op; at; at = at->getParentOp())
    if (at->hasAttr(kAllowTf32AttrName))
      return true;
  return false;
}

//===----------------------------------------------------------------------===//
// Syntax
//===----------------------------------------------------------------------===//

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  StringAttr nameAttr;
  if (parser.parseSymbolName(nameAttr, SymbolTable::getSymbolAttrName(),
                             result.attributes))
    return failure();

  SmallVector<OpAsmParser::Argument> arguments;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  SMLoc signatureLoc = parser.getCurrentLocation();
  if (function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, arguments, isVariadic, resultTypes,
          resultAttrs))
    return failure();
  if (!resultTypes.empty())
    return parser.emitError(signatureLoc)
           << "a tile.kernel returns nothing; write outputs through "
              "tile.store into a memref argument";

  // MLIR forgets SSA names once parsed; keep each argument's (%X) as a
  // NameLoc on the block argument, so diagnostics can say X, not arg0.
  SmallVector<Type> argTypes;
  for (OpAsmParser::Argument &arg : arguments) {
    argTypes.push_back(arg.type);
    if (!arg.sourceLoc)
      arg.sourceLoc = NameLoc::get(
          builder.getStringAttr(arg.ssaName.name.drop_front()),
          parser.getEncodedSourceLoc(arg.ssaName.location));
  }
  result.addAttribute(getFunctionTypeAttrName(result.name),
                      TypeAttr::get(builder.getFunctionType(argTypes, {})));
  call_interface_impl::addArgAndResultAttrs(
      builder, result, arguments, resultAttrs, getArgAttrsAttrName(result.name),
      getResAttrsAttrName(result.name));

  if (succeeded(parser.parseOptionalKeyword("params"))) {
    DictionaryAttr params;
    if (parser.parseAttribute(params))
      return failure();
    result.addAttribute(getParamsAttrName(result.name), params);
  }
  if (succeeded(parser.parseOptionalKeyword("requires"))) {
    // `requires ["N <= BN", ...]`: parsed once into #tile.requires.
    SMLoc loc = parser.getCurrentLocation();
    ArrayAttr facts;
    if (parser.parseAttribute(facts))
      return failure();
    SmallVector<std::string> texts;
    for (Attribute fact : facts) {
      auto text = dyn_cast<StringAttr>(fact);
      if (!text)
        return parser.emitError(loc, "requires facts must be strings, found ")
               << fact;
      texts.push_back(text.str());
    }
    result.addAttribute(getRequiresAttrName(result.name),
                        RequiresAttr::get(parser.getContext(), texts));
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();

  Region *body = result.addRegion();
  if (parser.parseRegion(*body, arguments, /*enableNameShadowing=*/false))
    return failure();
  KernelOp::ensureTerminator(*body, builder, result.location);
  return success();
}

void KernelOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  function_interface_impl::printFunctionSignature(
      p, *this, getArgumentTypes(), /*isVariadic=*/false, getResultTypes());
  if (DictionaryAttr params = getParamsAttr()) {
    // `{BM = 64, ...}`: params are integers, so their type is noise.
    p << " params {";
    llvm::interleaveComma(params, p, [&](NamedAttribute param) {
      p << param.getName().getValue() << " = ";
      if (auto value = dyn_cast<IntegerAttr>(param.getValue()))
        p << value.getInt();
      else
        p.printAttribute(param.getValue());
    });
    p << "}";
  }
  if (RequiresAttr facts = getRequiresAttr()) {
    p << " requires ";
    SmallVector<Attribute> texts;
    for (const std::string &text : facts.getTexts())
      texts.push_back(StringAttr::get(getContext(), text));
    p.printAttribute(ArrayAttr::get(getContext(), texts));
  }
  function_interface_impl::printFunctionAttributes(
      p, *this,
      {getFunctionTypeAttrName(), getArgAttrsAttrName(), getResAttrsAttrName(),
       getParamsAttrName(), getRequiresAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

SmallVector<StringRef> KernelOp::getArgDimNames(unsigned index) {
  SmallVector<StringRef> names;
  auto dims = getArgAttrOfType<ArrayAttr>(index, kDimsAttrName);
  if (!dims)
    return names;
  for (Attribute dim : dims)
    if (auto name = dyn_cast<StringAttr>(dim))
      names.push_back(name.getValue());
  return names;
}

std::optional<unsigned> KernelOp::getArgPartialsDim(unsigned index) {
  auto dim = getArgAttrOfType<IntegerAttr>(index, kPartialsAttrName);
  if (!dim)
    return std::nullopt;
  return dim.getInt();
}

std::optional<int64_t> KernelOp::getParamValue(StringRef name) {
  DictionaryAttr params = getParamsAttr();
  if (!params)
    return std::nullopt;
  auto value = dyn_cast_or_null<IntegerAttr>(params.get(name));
  if (!value)
    return std::nullopt;
  return value.getInt();
}

SmallVector<StringRef> KernelOp::getDimNames() {
  SmallVector<StringRef> names;
  for (unsigned i = 0, e = getNumArguments(); i < e; ++i)
    for (StringRef name : getArgDimNames(i))
      if (!llvm::is_contained(names, name))
        names.push_back(name);
  return names;
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

static bool isIdentifier(StringRef name) {
  if (name.empty() || !(isalpha(name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(name, [](char c) { return isalnum(c) || c == '_'; });
}

/// Checks the `tile.dims` of every memref argument and that equal names have
/// equal static extents. Fills `dimNames`.
static LogicalResult verifyArgumentDims(KernelOp kernel,
                                        llvm::StringSet<> &dimNames) {
  llvm::StringMap<std::pair<int64_t, unsigned>> staticExtent;
  for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i) {
    Type type = kernel.getArgumentTypes()[i];
    Attribute dimsAttr = kernel.getArgAttr(i, kDimsAttrName);
    auto memref = dyn_cast<MemRefType>(type);
    if (Attribute partials = kernel.getArgAttr(i, kPartialsAttrName)) {
      auto dim = dyn_cast<IntegerAttr>(partials);
      if (!memref || !dim || dim.getInt() < 0 ||
          dim.getInt() >= memref.getRank())
        return kernel.emitOpError("tile.partials of argument #")
               << i << " is " << partials
               << "; it names the dim of a memref argument that holds "
                  "partial results, an integer from 0 to its rank - 1";
    }
    if (!memref) {
      if (!type.isIntOrIndexOrFloat())
        return kernel.emitOpError("argument #")
               << i << " has type " << type
               << "; kernel arguments are memrefs or integer/float scalars";
      if (dimsAttr)
        return kernel.emitOpError("scalar argument #")
               << i << " has tile.dims; only memref arguments name dims";
      continue;
    }
    if (!memref.getLayout().isIdentity())
      return kernel.emitOpError("memref argument #")
             << i << " has a non-identity layout " << memref.getLayout()
             << "; kernel memrefs are dense row-major";
    auto dims = dyn_cast_or_null<ArrayAttr>(dimsAttr);
    if (!dims)
      return kernel.emitOpError("memref argument #")
             << i << " needs tile.dims naming each of its " << memref.getRank()
             << " dims, e.g. {tile.dims = [\"M\", \"K\"]}";
    if (static_cast<int64_t>(dims.size()) != memref.getRank())
      return kernel.emitOpError("memref argument #")
             << i << " has rank " << memref.getRank() << " but tile.dims names "
             << dims.size() << " dims";
    for (auto [axis, dim] : llvm::enumerate(dims)) {
      auto name = dyn_cast<StringAttr>(dim);
      if (!name || !isIdentifier(name.getValue()))
        return kernel.emitOpError("tile.dims of argument #")
               << i << " entry " << axis << " is " << dim
               << "; dim names are identifiers such as \"M\"";
      dimNames.insert(name.getValue());
      int64_t extent = memref.getDimSize(axis);
      if (ShapedType::isDynamic(extent))
        continue;
      auto [it, inserted] =
          staticExtent.try_emplace(name.getValue(), extent, i);
      if (!inserted && it->second.first != extent)
        return kernel.emitOpError("dim \"")
               << name.getValue() << "\" is " << it->second.first
               << " in argument #" << it->second.second << " but " << extent
               << " in argument #" << i
               << "; equal dim names must have equal extents";
    }
  }
  return success();
}

LogicalResult KernelOp::verify() {
  if (!getResultTypes().empty())
    return emitOpError("returns nothing; write outputs through tile.store");

  llvm::StringSet<> dimNames;
  if (failed(verifyArgumentDims(*this, dimNames)))
    return failure();

  kbench::SymbolValues paramValues;
  if (DictionaryAttr params = getParamsAttr()) {
    for (NamedAttribute param : params) {
      StringRef name = param.getName().getValue();
      auto value = dyn_cast<IntegerAttr>(param.getValue());
      if (!value)
        return emitOpError("param ") << name << " = " << param.getValue()
                                     << " must be a positive integer";
      // A switch knob (min 0 in the knob table) may be 0; every other param
      // is a size or a count.
      const kbench::KnobSpec *knob = kbench::lookupKnob(name.str());
      int64_t least = knob && knob->min == 0 ? 0 : 1;
      if (value.getInt() < least)
        return emitOpError("param ") << name << " = " << value.getInt()
                                     << " must be a positive integer";
      if (dimNames.contains(name))
        return emitOpError("param ")
               << name << " has the same name as a dim; rename one of them";
      paramValues[param.getName().str()] = value.getInt();
    }
  }

  for (const RequiresFact &fact : getRequiresFacts(*this)) {
    if (!fact.fact)
      return emitOpError("requires fact \"")
             << fact.text << "\" is malformed: " << fact.error;
    std::set<std::string> symbols;
    fact.fact->collectSymbols(symbols);
    for (const std::string &symbol : symbols)
      if (!dimNames.contains(symbol) && !paramValues.count(symbol))
        return emitOpError("requires fact \"")
               << fact.text << "\" uses '" << symbol
               << "', which is neither a dim of the arguments nor a param";
  }
  return success();
}

LogicalResult KernelOp::verifyRegions() {
  // Memory is reached only through partition views.
  for (BlockArgument arg : getArguments()) {
    if (!isa<MemRefType>(arg.getType()))
      continue;
    for (Operation *user : arg.getUsers())
      if (!isa<PartitionOp>(user))
        return user->emitOpError("uses memref argument #")
               << arg.getArgNumber()
               << " of a tile.kernel directly; kernels reach memory only "
                  "through tile.partition";
  }

  SmallVector<GridOp> grids;
  getBody().walk([&](GridOp grid) { grids.push_back(grid); });
  if (grids.empty())
    return emitOpError("has no tile.grid; declare the launch grid with "
                       "`tile.grid %view`");
  if (grids.size() > 1)
    return grids[1].emitOpError("declares a second launch grid; a kernel "
                                "has exactly one tile.grid");
  return success();
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

LogicalResult LaunchOp::verify() {
  if ((*this)->getParentOfType<KernelOp>())
    return emitOpError("is inside a tile.kernel; kernels are launched from "
                       "host-level code (a func.func)");
  return success();
}

LogicalResult
LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto kernel =
      symbolTable.lookupNearestSymbolFrom<KernelOp>(*this, getKernelAttr());
  if (!kernel)
    return emitOpError("launches '")
           << getKernel() << "', which is not a tile.kernel in this module";
  ArrayRef<Type> expected = kernel.getArgumentTypes();
  if (expected.size() != getArgs().size())
    return emitOpError("passes ")
           << getArgs().size() << " arguments but @" << getKernel()
           << " takes " << expected.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getArgs(), expected))) {
    Type actual = std::get<0>(pair).getType();
    if (actual != std::get<1>(pair))
      return emitOpError("argument #")
             << i << " has type " << actual << " but @" << getKernel()
             << " expects " << std::get<1>(pair);
  }
  return success();
}
