//===- DType.cpp - Element types of tasks and bundles ---------------------===//

#include "kbench/Support/DType.h"

namespace kbench {

namespace {
struct DTypeInfo {
  const char *name;
  DType dtype;
  bool isFloat;
  size_t size;
};
const DTypeInfo kDTypes[] = {
    {"f32", DType::F32, true, 4},   {"f16", DType::F16, true, 2},
    {"bf16", DType::BF16, true, 2}, {"f64", DType::F64, true, 8},
    {"i8", DType::I8, false, 1},    {"i32", DType::I32, false, 4},
    {"i64", DType::I64, false, 8},  {"i1", DType::I1, false, 1},
};
const DTypeInfo &info(DType dtype) {
  for (const DTypeInfo &i : kDTypes)
    if (i.dtype == dtype)
      return i;
  return kDTypes[0];
}
} // namespace

std::optional<DType> parseDType(const std::string &name) {
  for (const DTypeInfo &i : kDTypes)
    if (name == i.name)
      return i.dtype;
  return std::nullopt;
}
const char *dtypeName(DType dtype) { return info(dtype).name; }
bool isFloat(DType dtype) { return info(dtype).isFloat; }
size_t dtypeSize(DType dtype) { return info(dtype).size; }

std::string dtypeNames() {
  std::string names;
  for (const DTypeInfo &i : kDTypes)
    names += std::string(names.empty() ? "" : ", ") + i.name;
  return names;
}

} // namespace kbench
