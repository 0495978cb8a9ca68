//===- DispatchFile.cpp - A task's shape-specialized schedules ------------===//

#include "kbench/Support/DispatchFile.h"

#include "kbench/Support/InputError.h"
#include "kbench/Support/JsonField.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace kbench {

namespace {

/// Letters, digits and '_', not starting with a digit: the name is appended
/// to kernel symbols ("matmul_bf16__tma"), which PTX must accept.
bool isSymbolSuffix(const std::string &name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

DispatchFile parseDispatch(const nlohmann::json &doc,
                           const std::filesystem::path &file,
                           const std::vector<std::string> &taskDims) {
  Field root(doc, "", file.string());
  root.expectObject();
  root.allowOnly({"description", "variants"});
  if (auto description = root.get("description"))
    (void)description->string(); // Prose for people; only its type is checked.
  std::vector<Field> variants = root.at("variants").elements();
  if (variants.empty())
    root.at("variants").fail("a dispatch file needs at least one variant");
  DispatchFile result;
  std::set<std::string> names;
  for (size_t v = 0; v < variants.size(); ++v) {
    const Field &f = variants[v];
    f.allowOnly({"name", "when", "schedule", "kernel"});
    DispatchVariant variant;
    std::string schedule = f.at("schedule").string();
    if (schedule.empty())
      f.at("schedule").fail("names no file");
    variant.schedule = std::filesystem::path(schedule).is_absolute()
                           ? std::filesystem::path(schedule)
                           : file.parent_path() / schedule;
    if (auto kernel = f.get("kernel")) {
      std::string text = kernel->string();
      if (text.empty())
        kernel->fail("names no file");
      variant.kernel = text;
    }
    if (auto name = f.get("name")) {
      variant.name = name->string();
      if (!isSymbolSuffix(variant.name))
        name->fail("'" + variant.name +
                   "' is not a variant name: use letters, digits and '_' (it becomes part "
                   "of the kernels' symbols)");
    } else {
      variant.name = variant.schedule.stem().string();
      std::replace_if(
          variant.name.begin(), variant.name.end(),
          [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
      if (!isSymbolSuffix(variant.name))
        f.failAt("name", "the schedule's file name gives no usable variant name; name it");
    }
    if (!names.insert(variant.name).second)
      f.failAt("name", "variant '" + variant.name + "' is listed twice");
    if (auto when = f.get("when")) {
      for (const Field &w : when->elements()) {
        ShapeFact fact = parseFactField(w, "M >= 128");
        std::set<std::string> symbols;
        fact.collectSymbols(symbols);
        for (const std::string &symbol : symbols)
          if (!taskDims.empty() &&
              std::find(taskDims.begin(), taskDims.end(), symbol) == taskDims.end()) {
            std::string known;
            for (const std::string &d : taskDims)
              known += (known.empty() ? "" : ", ") + d;
            w.fail("'" + symbol + "' is not a dim of the task (its shapes name " + known +
                   ")");
          }
        variant.when.push_back(std::move(fact));
      }
    }
    bool last = v + 1 == variants.size();
    if (last && !variant.when.empty())
      f.at("when").fail("the last variant is the fallback for every other shape and takes "
                        "no 'when'");
    if (!last && variant.when.empty())
      f.failAt("when", "every variant but the last needs 'when' facts (a variant without "
                       "them would hide the ones after it)");
    result.variants.push_back(std::move(variant));
  }
  return result;
}

} // namespace

std::optional<DispatchFile> tryReadDispatchFile(const std::filesystem::path &file,
                                                const std::vector<std::string> &taskDims,
                                                std::string &error) {
  try {
    return parseDispatch(readJsonFile(file, "dispatch file"), file, taskDims);
  } catch (const InputError &e) {
    error = e.what();
    return std::nullopt;
  }
}

std::optional<DispatchFile>
tryParseDispatchText(const std::string &text, const std::filesystem::path &file,
                     const std::vector<std::string> &taskDims,
                     std::string &error) {
  try {
    return parseDispatch(parseJsonText(text, file.string()), file, taskDims);
  } catch (const InputError &e) {
    error = e.what();
    return std::nullopt;
  }
}

} // namespace kbench
