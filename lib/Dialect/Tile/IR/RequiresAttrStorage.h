//===- RequiresAttrStorage.h - Storage of #tile.requires --------*- C++ -*-===//
//
// Private to lib/Dialect/Tile/IR: the uniqued storage of a RequiresAttr. It
// is keyed on the fact texts and parses them once, when the context creates
// it; the context destroys it (it owns strings and parse trees).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_LIB_DIALECT_TILE_IR_REQUIRESATTRSTORAGE_H
#define KBENCH_LIB_DIALECT_TILE_IR_REQUIRESATTRSTORAGE_H

#include "kbench/Dialect/Tile/IR/RequiresFact.h"

#include "mlir/IR/AttributeSupport.h"
#include "llvm/ADT/Hashing.h"

#include <vector>

namespace kbench::tile::detail {

struct RequiresAttrStorage : public mlir::AttributeStorage {
  using KeyTy = llvm::ArrayRef<std::string>;

  explicit RequiresAttrStorage(KeyTy key) : ownedTexts(key.begin(), key.end()) {
    texts = ownedTexts;
    for (const std::string &text : ownedTexts) {
      RequiresFact fact;
      fact.text = text;
      fact.fact = ShapeFact::parse(text, fact.error);
      facts.push_back(std::move(fact));
    }
  }

  bool operator==(const KeyTy &key) const { return key == texts; }
  static llvm::hash_code hashKey(const KeyTy &key) {
    return llvm::hash_combine_range(key.begin(), key.end());
  }
  static RequiresAttrStorage *
  construct(mlir::AttributeStorageAllocator &allocator, const KeyTy &key) {
    return new (allocator.allocate<RequiresAttrStorage>())
        RequiresAttrStorage(key);
  }

  /// What RequiresAttr::getTexts returns (a view of `ownedTexts`).
  std::vector<std::string> ownedTexts;
  llvm::ArrayRef<std::string> texts;
  std::vector<RequiresFact> facts;
};

} // namespace kbench::tile::detail

#endif // KBENCH_LIB_DIALECT_TILE_IR_REQUIRESATTRSTORAGE_H
