//===- CommandLine.h - Flags of the kbench subcommands -----------*- C++ -*-===//
//
// A small, explicit flag parser so every subcommand has the same conventions:
// `--name value` or `--name=value`, `-o DIR` for output, `--json`, `--help`,
// and errors that name the flag. (llvm::cl is global state shared by every
// option linked into the binary, including MLIR's; subcommands are clearer
// when each owns its flags.)
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_DRIVER_COMMANDLINE_H
#define KBENCH_DRIVER_COMMANDLINE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace kbench::driver {

class CommandLine {
public:
  enum class Result { Ok, Help, Error };

  CommandLine(llvm::StringRef command, llvm::StringRef summary)
      : command(command.str()), summary(summary.str()) {}

  /// A boolean flag `--name`.
  void addFlag(llvm::StringRef name, bool *value, llvm::StringRef help);
  /// A flag with a value `--name VALUE`; `shortName` ("o") adds `-o VALUE`.
  void addOption(llvm::StringRef name, std::string *value,
                 llvm::StringRef metavar, llvm::StringRef help,
                 llvm::StringRef shortName = "");
  /// A positional argument, in order.
  void addPositional(std::string *value, llvm::StringRef metavar,
                     llvm::StringRef help, bool required = true);

  /// Parses `args` (without the program and subcommand names). Prints help
  /// to stdout for --help, an error naming the flag to stderr otherwise.
  Result parse(llvm::ArrayRef<const char *> args);

  void printHelp(llvm::raw_ostream &os) const;

private:
  struct Option {
    std::string name, shortName, metavar, help;
    bool *flag = nullptr;
    std::string *value = nullptr;
  };
  struct Positional {
    std::string *value;
    std::string metavar, help;
    bool required;
  };
  const Option *find(llvm::StringRef name) const;

  std::string command, summary;
  std::vector<Option> options;
  std::vector<Positional> positionals;
};

} // namespace kbench::driver

#endif // KBENCH_DRIVER_COMMANDLINE_H
