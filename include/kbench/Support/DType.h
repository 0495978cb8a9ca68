//===- DType.h - Element types of tasks and bundles ---------------*- C++ -*-===//
//
// The element-type vocabulary task.json and manifest.json share (docs/bundle.md,
// docs/runner.md): the spelling, whether it is a float and its storage size.
// Plain C++17.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SUPPORT_DTYPE_H
#define KBENCH_SUPPORT_DTYPE_H

#include <cstddef>
#include <optional>
#include <string>

namespace kbench {

enum class DType { F32, F16, BF16, F64, I8, I32, I64, I1 };

/// "f32" -> DType::F32; nullopt for anything else.
std::optional<DType> parseDType(const std::string &name);
const char *dtypeName(DType dtype);
bool isFloat(DType dtype);
/// Bytes of one element (i1 takes one byte).
size_t dtypeSize(DType dtype);
/// Every spelling, for messages: "f32, f16, bf16, f64, i8, i32, i64, i1".
std::string dtypeNames();

} // namespace kbench

#endif // KBENCH_SUPPORT_DTYPE_H
