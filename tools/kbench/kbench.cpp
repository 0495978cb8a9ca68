//===- kbench.cpp - The kbench command-line tool --------------------------===//
//
// `kbench <command> [args]`: compile, verify, eval, tasks, mutate, search, mcp. Each command
// lives in lib/Driver (search in lib/Search, mcp in lib/Mcp); this file only dispatches.
//
//===----------------------------------------------------------------------===//

#include "kbench/Driver/Driver.h"
#include "kbench/Mcp/McpCommand.h"
#include "kbench/Search/SearchCommand.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

static void printUsage(llvm::raw_ostream &os) {
  os << "usage: kbench <command> [arguments] [flags]\n\n"
        "Compile tile kernels to PTX or host code, prove them safe, and check\n"
        "and time them against PyTorch.\n\n"
        "commands:\n"
        "  compile TASK_DIR   schedule, verify and lower a task to a bundle\n"
        "  verify TASK_DIR    prove bounds, coverage, write-once and reduction\n"
        "                     coverage, or print a counterexample\n"
        "  eval TASK_DIR      compile, then check and time with kbench-run\n"
        "  tasks [DIR]        list the tasks in a folder (default tasks/)\n"
        "  mutate TASK_DIR    write one mutant of a kernel (mutation analysis)\n"
        "  search TASK_DIR    search the task's schedule space (MAP-Elites,\n"
        "                     SQLite archive)\n"
        "  mcp                serve these to an agent over the Model Context\n"
        "                     Protocol (stdio; docs/mcp.md)\n\n"
        "Run 'kbench <command> --help' for a command's flags.\n";
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  if (argc < 2 || !std::strcmp(argv[1], "--help") ||
      !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
    printUsage(llvm::outs());
    return argc < 2 ? 1 : 0;
  }
  llvm::ArrayRef<const char *> rest(argv + 2, argv + argc);
  llvm::StringRef command = argv[1];
  if (command == "compile")
    return kbench::driver::runCompileCommand(rest);
  if (command == "verify")
    return kbench::driver::runVerifyCommand(rest);
  if (command == "eval")
    return kbench::driver::runEvalCommand(rest, argv[0]);
  if (command == "tasks")
    return kbench::driver::runTasksCommand(rest);
  if (command == "search")
    return kbench::search::runSearchCommand(rest, argv[0]);
  if (command == "mcp")
    return kbench::mcp::runMcpCommand(rest, argv[0]);
  if (command == "mutate")
    return kbench::driver::runMutateCommand(rest);
  llvm::errs() << "kbench: unknown command '" << command << "'\n\n";
  printUsage(llvm::errs());
  return 1;
}
