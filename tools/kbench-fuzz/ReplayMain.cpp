//===- ReplayMain.cpp - kbench-fuzz-replay: run a target over inputs -------===//
//
// Runs one fuzz target over files and folders (every regular file in a
// folder, sorted by name), the way libFuzzer runs a corpus, without libFuzzer:
// the normal (gcc) build links it, and test/tools/kbench-fuzz replays the
// committed corpora through it. A bug in a target shows up as a crash or an
// abort of this process, after the line naming the input.
//
//===----------------------------------------------------------------------===//

#include "FuzzTargets.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace kbench::fuzz;

static const char *kUsage =
    "usage: kbench-fuzz-replay [--verbose] TARGET PATH...\n"
    "Runs the fuzz target TARGET over every file PATH and every file in each\n"
    "folder PATH (docs/robustness.md). Exits 0 when all inputs ran, 2 on a\n"
    "usage error or an unreadable path; a bug the input finds crashes it.\n"
    "Targets:";

static int usage(FILE *out, int code) {
  std::fprintf(out, "%s", kUsage);
  for (const Target &target : kTargets)
    std::fprintf(out, " %s", target.name);
  std::fprintf(out, "\n");
  return code;
}

int main(int argc, char **argv) {
  bool verbose = false;
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h"))
      return usage(stdout, 0);
    if (!std::strcmp(argv[i], "--verbose"))
      verbose = true;
    else
      args.push_back(argv[i]);
  }
  if (args.size() < 2)
    return usage(stderr, 2);
  const Target *target = nullptr;
  for (const Target &candidate : kTargets)
    if (args[0] == candidate.name)
      target = &candidate;
  if (!target) {
    std::fprintf(stderr, "kbench-fuzz-replay: unknown target '%s'\n", args[0].c_str());
    return usage(stderr, 2);
  }

  std::vector<fs::path> inputs;
  for (size_t i = 1; i < args.size(); ++i) {
    std::error_code ec;
    if (fs::is_directory(args[i], ec)) {
      std::vector<fs::path> files;
      for (const fs::directory_entry &entry : fs::directory_iterator(args[i], ec))
        if (entry.is_regular_file())
          files.push_back(entry.path());
      std::sort(files.begin(), files.end());
      inputs.insert(inputs.end(), files.begin(), files.end());
    } else if (fs::is_regular_file(args[i], ec)) {
      inputs.push_back(args[i]);
    } else {
      std::fprintf(stderr, "kbench-fuzz-replay: %s: no such file or folder\n", args[i].c_str());
      return 2;
    }
  }

  for (const fs::path &input : inputs) {
    std::ifstream in(input, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "kbench-fuzz-replay: %s: cannot be read\n", input.c_str());
      return 2;
    }
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    // Named before it runs, so that a crash says which input caused it.
    std::fprintf(stderr, "%s: %s\n", target->name, input.c_str());
    target->run(bytes.data(), bytes.size());
    if (verbose)
      std::fprintf(stderr, "  ok\n");
  }
  std::printf("kbench-fuzz-replay: %s: %zu inputs ran\n", target->name, inputs.size());
  return 0;
}
