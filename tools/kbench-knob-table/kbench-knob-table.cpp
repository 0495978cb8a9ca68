//===- kbench-knob-table.cpp - Print or refresh the knob table ------------===//
//
// The knob table in docs/schedules.md is generated from KernelConfig.h, the
// one owner of every knob and limit. This tool prints it (Markdown or JSON),
// checks a document's copy (`--check`, the staleness test) or rewrites it in
// place (`--update`). Plain C++17 like the library it prints.
//
//===----------------------------------------------------------------------===//

#include "kbench/Support/CommandLine.h"
#include "kbench/Support/KernelConfig.h"

#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

static const char *const kSummary =
    R"(Prints the table of schedule knobs and sm_90a limits (include/kbench/Support/
KernelConfig.h) as Markdown, or as JSON with --json.)";

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
  kbench::cli::CommandLine cl("kbench-knob-table", kSummary, /*usageExitCode=*/2);
  cl.setUsage({"kbench-knob-table [--json] [-o FILE]",
               "kbench-knob-table --check FILE | --update FILE"});
  cl.addFlag("json", &json, "print the table as JSON");
  cl.addString("output", &output, "FILE", "write to FILE instead of stdout", "o");
  cl.addString("check", &check, "FILE",
               "exit 1 when FILE's copy between the knob-table markers differs");
  cl.addString("update", &update, "FILE",
               "replace FILE's copy between the markers with the current table");
  if (std::optional<int> exitCode = cl.parse(argv + 1, argv + argc))
    return *exitCode;

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
