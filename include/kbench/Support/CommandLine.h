//===- CommandLine.h - The flag parser of kbench and kbench-run --*- C++ -*-===//
//
// One parser for every kbench tool, so they share conventions: `--name VALUE`
// or `--name=VALUE`, short aliases (`-o DIR`), boolean flags and `--x/--no-x`
// pairs, typed values (integers, positive numbers, comma lists, choices)
// checked when they are read, a generated `--help`, and errors that name the
// flag and point at `--help`. Each command owns its CommandLine (llvm::cl is
// global state shared with MLIR's options, and kbench-run links no LLVM), so
// this is plain C++17.
//
// Options may belong to a named group; the parser records what was given, in
// order, so a command can forward a group's flags verbatim to another tool
// (kbench eval forwards the runner's flags to kbench-run: RunnerFlags.h).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SUPPORT_COMMANDLINE_H
#define KBENCH_SUPPORT_COMMANDLINE_H

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace kbench::cli {

class CommandLine {
public:
  /// `program` names the command in usage lines and errors ("kbench compile",
  /// "kbench-run"); a usage error makes parse() return `usageExitCode`.
  CommandLine(std::string program, std::string summary, int usageExitCode = 1);

  /// Usage lines printed instead of the generated one (several for a tool
  /// with modes), each without the leading "usage: ".
  void setUsage(std::vector<std::string> lines) { usageLines = std::move(lines); }
  /// Text printed after the flags in --help (exit statuses, ...).
  void setEpilog(std::string text) { epilog = std::move(text); }
  /// Options added from now on belong to `group`; a non-empty `heading`
  /// lists them under their own heading in --help. "" ends the group.
  void setGroup(std::string group, std::string heading = "");

  /// A positional argument, in order; an optional one may be absent.
  void addPositional(std::string *value, std::string metavar, std::string help,
                     bool required = true);

  /// `--name`, setting `*value` to true.
  void addFlag(const std::string &name, bool *value, std::string help);
  /// `--name` and `--no-name`: `*value` becomes 1 or 0 (it keeps its
  /// default, typically -1 for "decide later", when neither is given).
  void addFlagPair(const std::string &name, int *value, std::string help);
  /// `--name VALUE`; `shortName` ("o") adds `-o VALUE`.
  void addString(const std::string &name, std::string *value,
                 std::string metavar, std::string help,
                 const std::string &shortName = "");
  /// An integer >= `min`: "--seeds takes an integer >= 1, got 'x'".
  void addInt(const std::string &name, int *value, std::string metavar,
              std::string help, int64_t min = INT32_MIN);
  void addInt(const std::string &name, int64_t *value, std::string metavar,
              std::string help, int64_t min = INT64_MIN);
  /// A number > 0; `unit` ("seconds") words the error.
  void addPositiveNumber(const std::string &name, double *value,
                         std::string metavar, std::string help,
                         const std::string &unit = "");
  /// A comma-separated list; empty items are dropped.
  void addList(const std::string &name, std::vector<std::string> *value,
               std::string metavar, std::string help);
  /// One of `choices`: "--target takes host or sm_90a, got 'sm_80'".
  void addChoice(const std::string &name, std::string *value,
                 std::string metavar, std::vector<std::string> choices,
                 std::string help);
  /// The general form: `set` stores a value and returns "" or, when the
  /// value is bad, what the flag takes ("an integer") for the error.
  void addOption(const std::string &name, std::string metavar, std::string help,
                 std::function<std::string(const std::string &)> set,
                 const std::string &shortName = "");

  /// Parses the arguments after the program (and subcommand) name. Returns
  /// nullopt to go on, or the exit code to stop with: 0 after --help (help
  /// printed to stdout), the usage exit code after an error (printed to
  /// stderr by usageError).
  std::optional<int> parse(const char *const *begin, const char *const *end);
  std::optional<int> parse(const std::vector<std::string> &args);

  /// Prints "PROGRAM: MESSAGE" and a pointer to --help to stderr; returns the
  /// usage exit code. Commands use it for checks across flags too.
  int usageError(const std::string &message) const;

  void printHelp(std::ostream &os) const;

  /// One flag as given on the command line, after parsing.
  struct Given {
    std::string name;     ///< the option's long name ("timing")
    std::string spelling; ///< as written, canonical ("--no-timing", "--seeds")
    std::string group;
    std::optional<std::string> value;
  };
  const std::vector<Given> &given() const { return givenFlags; }
  /// Whether `--name` (or `--no-name`) was given.
  bool wasGiven(const std::string &name) const;
  /// The given flags of `group` as arguments for another tool's parser
  /// ("--seeds", "1", "--no-timing", ...), in the order given.
  std::vector<std::string> argumentsOf(const std::string &group) const;

private:
  enum class Kind { Flag, FlagPair, Value };
  struct Option {
    Kind kind = Kind::Flag;
    std::string name, shortName, metavar, help, group;
    bool *flag = nullptr;
    int *pair = nullptr;
    std::function<std::string(const std::string &)> set;
  };
  struct Positional {
    std::string *value;
    std::string metavar, help;
    bool required;
  };
  struct Heading {
    std::string group, text;
  };

  void add(Option option);
  /// The option `arg` names and whether it is the `--no-` half of a pair.
  const Option *find(const std::string &arg, bool &negated) const;

  std::string program, summary, epilog, currentGroup;
  int usageExitCode;
  std::vector<std::string> usageLines;
  std::vector<Option> options;
  std::vector<Positional> positionals;
  std::vector<Heading> headings;
  std::vector<Given> givenFlags;
};

/// Splits "a,b,,c" into {"a", "b", "c"}.
std::vector<std::string> splitList(const std::string &text);

} // namespace kbench::cli

#endif // KBENCH_SUPPORT_COMMANDLINE_H
