//===- RequiresAttr.cpp - The parsed requires facts of a kernel -----------===//
//
// The syntax of #tile.requires (a list of fact strings) and its parsed facts
// (RequiresAttrStorage.h parses them once, when the attribute is created).
// tile.kernel spells the attribute `requires [...]` (KernelOp.cpp).
//
//===----------------------------------------------------------------------===//

#include "RequiresAttrStorage.h"
#include "kbench/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace kbench::tile;

// With a hand-written storage ODS declares the accessors only.
ArrayRef<std::string> RequiresAttr::getTexts() const {
  return getImpl()->texts;
}

ArrayRef<RequiresFact> RequiresAttr::getFacts() const {
  return getImpl()->facts;
}

Attribute RequiresAttr::parse(AsmParser &parser, Type) {
  SmallVector<std::string> texts;
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parser.parseString(&texts.emplace_back());
      }) ||
      parser.parseGreater())
    return {};
  return RequiresAttr::get(parser.getContext(), texts);
}

void RequiresAttr::print(AsmPrinter &printer) const {
  printer << '<';
  SmallVector<Attribute> texts;
  for (const std::string &text : getTexts())
    texts.push_back(StringAttr::get(getContext(), text));
  printer.printAttribute(ArrayAttr::get(getContext(), texts));
  printer << '>';
}
