//===- JsonField.cpp - JSON values that know where they came from ---------===//
//
// Accessors that fail with "<file>: <field>: <what>" instead of nlohmann's
// type_error, so that a malformed task or manifest is a message, not a crash.
//
//===----------------------------------------------------------------------===//

#include "kbench/Support/JsonField.h"

#include <cctype>
#include <fstream>
#include <sstream>

namespace kbench {

std::string jsonKind(const nlohmann::json &value) {
  switch (value.type()) {
  case nlohmann::json::value_t::null:
    return "null";
  case nlohmann::json::value_t::object:
    return "an object";
  case nlohmann::json::value_t::array:
    return "an array";
  case nlohmann::json::value_t::string:
    return "a string (" + value.dump() + ")";
  case nlohmann::json::value_t::boolean:
    return "a boolean";
  case nlohmann::json::value_t::number_integer:
  case nlohmann::json::value_t::number_unsigned:
    return "an integer (" + value.dump() + ")";
  case nlohmann::json::value_t::number_float:
    return "a number (" + value.dump() + ")";
  default:
    return "an unsupported value";
  }
}

void Field::fail(const std::string &message) const {
  std::string where = file;
  if (!path.empty())
    where += (where.empty() ? "" : ": ") + path;
  throw InputError(where + ": " + message);
}

void Field::expectObject() const {
  if (!value.is_object())
    fail("expected an object, got " + jsonKind(value));
}

void Field::expectArray() const {
  if (!value.is_array())
    fail("expected an array, got " + jsonKind(value));
}

static std::string join(const std::string &path, const std::string &key) {
  return path.empty() ? key : path + "." + key;
}

void Field::failAt(const char *key, const std::string &message) const {
  Field(value, join(path, key), file).fail(message);
}

Field Field::at(const char *key) const {
  expectObject();
  auto it = value.find(key);
  if (it == value.end())
    Field(value, join(path, key), file).fail("missing (this field is required)");
  return Field(*it, join(path, key), file);
}

std::optional<Field> Field::get(const char *key) const {
  expectObject();
  auto it = value.find(key);
  if (it == value.end())
    return std::nullopt;
  return Field(*it, join(path, key), file);
}

std::vector<Field> Field::elements() const {
  expectArray();
  std::vector<Field> result;
  for (size_t i = 0; i < value.size(); ++i)
    result.emplace_back(value[i], path + "[" + std::to_string(i) + "]", file);
  return result;
}

std::vector<std::pair<std::string, Field>> Field::members() const {
  expectObject();
  std::vector<std::pair<std::string, Field>> result;
  for (auto it = value.begin(); it != value.end(); ++it)
    result.emplace_back(it.key(), Field(it.value(), join(path, it.key()), file));
  return result;
}

std::string Field::string() const {
  if (!value.is_string())
    fail("expected a string, got " + jsonKind(value));
  return value.get<std::string>();
}

int64_t Field::integer() const {
  if (!value.is_number_integer())
    fail("expected an integer, got " + jsonKind(value));
  return value.get<int64_t>();
}

double Field::number() const {
  if (!value.is_number())
    fail("expected a number, got " + jsonKind(value));
  return value.get<double>();
}

bool Field::boolean() const {
  if (!value.is_boolean())
    fail("expected true or false, got " + jsonKind(value));
  return value.get<bool>();
}

std::string Field::name() const {
  std::string text = string();
  bool ok = !text.empty();
  for (char c : text)
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
                c == '.' || c == ':');
  if (!ok)
    fail("'" + text + "' is not a valid name (letters, digits and '_')");
  return text;
}

void Field::allowOnly(std::initializer_list<const char *> keys) const {
  expectObject();
  for (auto it = value.begin(); it != value.end(); ++it) {
    bool known = false;
    std::string expected;
    for (const char *key : keys) {
      known = known || it.key() == key;
      expected += std::string(expected.empty() ? "" : ", ") + key;
    }
    if (!known)
      Field(it.value(), join(path, it.key()), file)
          .fail("unknown field (expected one of: " + expected + ")");
  }
}

nlohmann::json readJsonFile(const std::filesystem::path &path, const std::string &what) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw InputError(path.string() + ": no such file (the " + what + " is missing)");
  if (std::filesystem::is_directory(path, ec))
    throw InputError(path.string() + ": is a directory, expected the " + what);
  std::ifstream in(path);
  if (!in)
    throw InputError(path.string() + ": cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  return parseJsonText(text.str(), path.string());
}

nlohmann::json parseJsonText(const std::string &text,
                             const std::string &origin) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception &e) {
    // A syntax error, or a number too large for a double ("1E6666" is an
    // out_of_range error of the parser, not a parse_error). Drop nlohmann's
    // "[json.exception.parse_error.101] " prefix.
    std::string message = e.what();
    size_t close = message.find("] ");
    if (message.rfind("[json.exception", 0) == 0 && close != std::string::npos)
      message = message.substr(close + 2);
    throw InputError(origin + ": not valid JSON: " + message);
  }
}

ShapeExpr parseExprField(const Field &f) {
  if (f.json().is_number_integer())
    return ShapeExpr::constant(f.integer());
  std::string error;
  std::optional<ShapeExpr> e = ShapeExpr::parse(f.string(), error);
  if (!e)
    f.fail("'" + f.string() + "' is not a shape expression: " + error);
  return *e;
}

ShapeFact parseFactField(const Field &f, const char *example) {
  std::string error;
  std::optional<ShapeFact> fact = ShapeFact::parse(f.string(), error);
  if (!fact)
    f.fail("'" + f.string() + "' is not a fact such as '" + example + "': " + error);
  return *fact;
}

DType parseDTypeField(const Field &f) {
  std::optional<DType> d = parseDType(f.string());
  if (!d)
    f.fail("unknown dtype '" + f.string() + "' (" + dtypeNames() + ")");
  return *d;
}

} // namespace kbench
