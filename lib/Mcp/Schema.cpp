//===- Schema.cpp - Check tool arguments against their JSON schema --------===//
//
// Recursion follows the schema, never the value, so its depth is bounded by
// the server's own schemas whatever an agent sends.
//
//===----------------------------------------------------------------------===//

#include "kbench/Mcp/Schema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace json = llvm::json;

namespace kbench::mcp {

/// The JSON type of `value` in words.
static std::string kindOf(const json::Value &value) {
  switch (value.kind()) {
  case json::Value::Null:
    return "null";
  case json::Value::Boolean:
    return "a boolean";
  case json::Value::Number:
    return value.getAsInteger() ? "an integer" : "a number";
  case json::Value::String:
    return "a string";
  case json::Value::Array:
    return "an array";
  case json::Value::Object:
    return "an object";
  }
  return "a value";
}

static bool hasType(const json::Value &value, llvm::StringRef type) {
  if (type == "string")
    return value.kind() == json::Value::String;
  if (type == "integer")
    return value.getAsInteger().has_value();
  if (type == "number")
    return value.kind() == json::Value::Number;
  if (type == "boolean")
    return value.kind() == json::Value::Boolean;
  if (type == "array")
    return value.kind() == json::Value::Array;
  if (type == "object")
    return value.kind() == json::Value::Object;
  return true;
}

static std::optional<std::string> check(const json::Value &value,
                                        const json::Object &schema,
                                        const std::string &where) {
  auto fail = [&](const llvm::Twine &what) -> std::optional<std::string> {
    return where + ": " + what.str();
  };
  if (std::optional<llvm::StringRef> type = schema.getString("type"))
    if (!hasType(value, *type))
      return fail("expected " +
                  std::string(*type == "integer" || *type == "object" ||
                                      *type == "array"
                                  ? "an "
                                  : "a ") +
                  *type + ", got " + kindOf(value));
  if (const json::Array *choices = schema.getArray("enum"))
    if (!llvm::is_contained(*choices, value)) {
      std::string list;
      for (const json::Value &choice : *choices)
        list += (list.empty() ? "" : ", ") + llvm::formatv("{0}", choice).str();
      return fail("expected one of " + list);
    }
  if (std::optional<llvm::StringRef> text = value.getAsString()) {
    if (std::optional<int64_t> max = schema.getInteger("maxLength"))
      if (int64_t(text->size()) > *max)
        return fail(llvm::formatv("{0} bytes; the limit is {1}", text->size(), *max));
    if (std::optional<int64_t> min = schema.getInteger("minLength"))
      if (int64_t(text->size()) < *min)
        return fail(llvm::formatv("expected at least {0} bytes", *min));
  }
  // Integral bounds and values print as integers ("1", not "1.00").
  auto show = [](double x) {
    return x == double(int64_t(x)) ? std::to_string(int64_t(x))
                                   : llvm::formatv("{0}", x).str();
  };
  if (std::optional<double> number = value.getAsNumber()) {
    if (std::optional<double> min = schema.getNumber("minimum"))
      if (*number < *min)
        return fail("expected a value >= " + show(*min) + ", got " + show(*number));
    if (std::optional<double> max = schema.getNumber("maximum"))
      if (*number > *max)
        return fail("expected a value <= " + show(*max) + ", got " + show(*number));
  }
  if (const json::Array *array = value.getAsArray()) {
    if (std::optional<int64_t> max = schema.getInteger("maxItems"))
      if (int64_t(array->size()) > *max)
        return fail(llvm::formatv("{0} items; the limit is {1}", array->size(), *max));
    if (const json::Object *items = schema.getObject("items"))
      for (auto [i, item] : llvm::enumerate(*array))
        if (std::optional<std::string> why =
                check(item, *items, where + "[" + std::to_string(i) + "]"))
          return why;
  }
  if (const json::Object *object = value.getAsObject()) {
    const json::Object *properties = schema.getObject("properties");
    if (const json::Array *required = schema.getArray("required"))
      for (const json::Value &name : *required)
        if (std::optional<llvm::StringRef> key = name.getAsString())
          if (!object->get(*key))
            return where == "arguments"
                       ? std::optional<std::string>("missing argument '" +
                                                    key->str() + "'")
                       : fail("missing member '" + key->str() + "'");
    // Sorted, so that the first unknown key reported does not depend on
    // hashing.
    std::vector<std::string> keys;
    for (const auto &member : *object)
      keys.push_back(member.first.str());
    llvm::sort(keys);
    for (const std::string &key : keys) {
      const json::Object *property =
          properties ? properties->getObject(key) : nullptr;
      std::string inner = where == "arguments" ? "argument '" + key + "'"
                                               : where + "." + key;
      if (!property) {
        if (schema.getBoolean("additionalProperties") == false) {
          std::vector<std::string> known;
          if (properties)
            for (const auto &p : *properties)
              known.push_back(p.first.str());
          llvm::sort(known);
          return inner + ": unknown; the arguments are " +
                 (known.empty() ? std::string("none") : llvm::join(known, ", "));
        }
        continue;
      }
      if (std::optional<std::string> why = check(*object->get(key), *property, inner))
        return why;
    }
  }
  return std::nullopt;
}

std::optional<std::string> checkAgainstSchema(const json::Value &value,
                                              const json::Object &schema) {
  return check(value, schema, "arguments");
}

} // namespace kbench::mcp
