//===- kbench-knob-table.cpp - Print or refresh the knob table ------------===//
//
// The knob table in docs/schedules.md is generated from KernelConfig.h, the
// one owner of every knob and limit. This tool prints it (Markdown or JSON),
// checks a document's copy (`--check`, the staleness test) or rewrites it in
// place (`--update`). Plain C++17 like the library it prints.
//
//===----------------------------------------------------------------------===//

#include "kbench/Support/KernelConfig.h"

#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

static const char *const kUsage = R"(usage: kbench-knob-table [--json] [-o FILE]
       kbench-knob-table --check FILE | --update FILE

Prints the table of schedule knobs and sm_90a limits (include/kbench/Support/
KernelConfig.h) as Markdown, or as JSON with --json.
  -o FILE        write to FILE instead of stdout
  --check FILE   exit 1 when FILE's copy between the knob-table markers differs
  --update FILE  replace FILE's copy between the markers with the current table
  --help         this text
)";

static int fail(const std::string &message) {
  std::cerr << "kbench-knob-table: " << message << "\n";
  return 2;
}

/// Splits `text` around its generated section: before, section, after.
static bool splitDocument(const std::string &text, std::string &before,
                          std::string &section, std::string &after) {
  size_t begin = text.find(kbench::kKnobTableBegin);
  if (begin == std::string::npos)
    return false;
  size_t end = text.find(kbench::kKnobTableEnd, begin);
  if (end == std::string::npos)
    return false;
  end += std::strlen(kbench::kKnobTableEnd);
  if (end < text.size() && text[end] == '\n')
    ++end;
  before = text.substr(0, begin);
  section = text.substr(begin, end - begin);
  after = text.substr(end);
  return true;
}

int main(int argc, char **argv) {
  bool json = false;
  std::string output, check, update;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](std::string &out) {
      if (i + 1 >= argc)
        return false;
      out = argv[++i];
      return true;
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (arg == "--json")
      json = true;
    else if ((arg == "-o" && !value(output)) ||
             (arg == "--check" && !value(check)) ||
             (arg == "--update" && !value(update)))
      return fail(arg + " needs a file name");
    else if (arg != "-o" && arg != "--check" && arg != "--update")
      return fail("unknown argument '" + arg + "'; see --help");
  }

  std::string table = kbench::renderKnobTableMarkdown();
  if (!check.empty() || !update.empty()) {
    const std::string &file = check.empty() ? update : check;
    std::ifstream in(file);
    if (!in)
      return fail(file + ": cannot read");
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string before, section, after;
    if (!splitDocument(buffer.str(), before, section, after))
      return fail(file + ": no knob-table markers ('" +
                  kbench::kKnobTableBegin + "' ... '" + kbench::kKnobTableEnd +
                  "')");
    if (!check.empty()) {
      if (section == table)
        return 0;
      std::cerr << file << ": the knob table is stale; run "
                << "'kbench-knob-table --update " << file << "'\n";
      return 1;
    }
    std::ofstream out(file);
    out << before << table << after;
    return out ? 0 : fail(file + ": cannot write");
  }

  std::string text = json ? kbench::renderKnobTableJson() : table;
  if (output.empty()) {
    std::cout << text;
    return 0;
  }
  std::ofstream out(output);
  out << text;
  return out ? 0 : fail(output + ": cannot write");
}
