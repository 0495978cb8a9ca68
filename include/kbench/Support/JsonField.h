//===- JsonField.h - JSON values that know where they came from -*- C++ -*-===//
//
// task.json and manifest.json are written by people and agents; a message
// that says "expected a number" is useless without the field. A Field pairs a
// JSON value with its path ("inputs[1].shape[0]") and the file, and every
// accessor fails with both. Shared by every reader of the two files (the
// runner and the compiler), so they validate with the same messages. Plain
// C++17 and nlohmann/json.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SUPPORT_JSONFIELD_H
#define KBENCH_SUPPORT_JSONFIELD_H

#include "kbench/Support/DType.h"
#include "kbench/Support/InputError.h"
#include "kbench/Support/ShapeExpr.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <initializer_list>

namespace kbench {

class Field {
public:
  Field(const nlohmann::json &value, std::string path, std::string file)
      : value(value), path(std::move(path)), file(std::move(file)) {}

  const nlohmann::json &json() const { return value; }
  const std::string &getPath() const { return path; }

  /// Throws InputError "<file>: <path>: <message>".
  [[noreturn]] void fail(const std::string &message) const;
  /// Fails naming the member `key` (present or not): "<path>.<key>: ...".
  [[noreturn]] void failAt(const char *key, const std::string &message) const;

  /// A required member of an object.
  Field at(const char *key) const;
  /// An optional member; nullopt when absent (null counts as present).
  std::optional<Field> get(const char *key) const;
  /// Elements of an array.
  std::vector<Field> elements() const;
  /// Members of an object, in file order when the document kept it.
  std::vector<std::pair<std::string, Field>> members() const;

  std::string string() const;
  int64_t integer() const;
  double number() const;
  bool boolean() const;
  /// A non-empty name: letters, digits, '_' (and '.' ':' for op names).
  std::string name() const;

  /// Fails on any member not in `keys` (typos are errors, not silence).
  void allowOnly(std::initializer_list<const char *> keys) const;

  void expectObject() const;
  void expectArray() const;

private:
  const nlohmann::json &value;
  std::string path;
  std::string file;
};

/// The JSON type in words ("a string", "an array").
std::string jsonKind(const nlohmann::json &value);

/// Reads and parses a JSON file. Throws InputError naming the file and, for
/// syntax errors, the line and column.
nlohmann::json readJsonFile(const std::filesystem::path &path, const std::string &what);

/// Parses `text`, the contents of `origin` (a file name for messages).
/// Throws InputError "<origin>: not valid JSON: <what, line and column>".
nlohmann::json parseJsonText(const std::string &text,
                             const std::string &origin);

/// A shape expression: an integer or a string in the ShapeExpr grammar.
ShapeExpr parseExprField(const Field &f);

/// A shape fact ("K % 8 == 0"): a string in the ShapeFact grammar; a bad one
/// fails naming the field and `example`, a fact of the kind the field wants.
ShapeFact parseFactField(const Field &f, const char *example);
/// A dtype name (f32, f16, ...).
DType parseDTypeField(const Field &f);

} // namespace kbench

#endif // KBENCH_SUPPORT_JSONFIELD_H
