//===- CommandLine.cpp - The flag parser of kbench and kbench-run ---------===//
//
// Parsing, typed values and the generated --help. Every message a user sees
// for a bad command line is worded here, so the tools cannot drift apart.
//
//===----------------------------------------------------------------------===//

#include "kbench/Support/CommandLine.h"

#include <cerrno>
#include <cmath>
#include <limits>
#include <cstdlib>
#include <iostream>
#include <sstream>

namespace kbench::cli {

namespace {

/// Width of the spelling column in --help.
constexpr size_t kColumn = 24;

/// "a", "a or b", "a, b or c".
std::string joinChoices(const std::vector<std::string> &choices) {
  std::string text;
  for (size_t i = 0; i < choices.size(); ++i) {
    if (i > 0)
      text += i + 1 == choices.size() ? " or " : ", ";
    text += choices[i];
  }
  return text;
}

/// Parses a whole decimal integer; nullopt on anything else or overflow.
std::optional<int64_t> toInteger(const std::string &text) {
  if (text.empty())
    return std::nullopt;
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (*end || errno == ERANGE)
    return std::nullopt;
  return v;
}

template <typename T>
std::function<std::string(const std::string &)> integerSetter(T *value, int64_t min) {
  return [value, min](const std::string &text) -> std::string {
    std::optional<int64_t> v = toInteger(text);
    if (!v || *v < min || *v > int64_t(std::numeric_limits<T>::max()) ||
        *v < int64_t(std::numeric_limits<T>::min()))
      return min == int64_t(std::numeric_limits<T>::min())
                 ? "an integer"
                 : "an integer >= " + std::to_string(min);
    *value = static_cast<T>(*v);
    return "";
  };
}

} // namespace

std::vector<std::string> splitList(const std::string &text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty())
      items.push_back(item);
  return items;
}

CommandLine::CommandLine(std::string program, std::string summary, int usageExitCode)
    : program(std::move(program)), summary(std::move(summary)),
      usageExitCode(usageExitCode) {}

void CommandLine::setGroup(std::string group, std::string heading) {
  currentGroup = std::move(group);
  if (!heading.empty())
    headings.push_back({currentGroup, std::move(heading)});
}

void CommandLine::add(Option option) {
  option.group = currentGroup;
  options.push_back(std::move(option));
}

void CommandLine::addPositional(std::string *value, std::string metavar,
                                std::string help, bool required) {
  positionals.push_back({value, std::move(metavar), std::move(help), required});
}

void CommandLine::addFlag(const std::string &name, bool *value, std::string help) {
  Option o;
  o.kind = Kind::Flag;
  o.name = name;
  o.help = std::move(help);
  o.flag = value;
  add(std::move(o));
}

void CommandLine::addFlagPair(const std::string &name, int *value, std::string help) {
  Option o;
  o.kind = Kind::FlagPair;
  o.name = name;
  o.help = std::move(help);
  o.pair = value;
  add(std::move(o));
}

void CommandLine::addOption(const std::string &name, std::string metavar,
                            std::string help,
                            std::function<std::string(const std::string &)> set,
                            const std::string &shortName) {
  Option o;
  o.kind = Kind::Value;
  o.name = name;
  o.shortName = shortName;
  o.metavar = std::move(metavar);
  o.help = std::move(help);
  o.set = std::move(set);
  add(std::move(o));
}

void CommandLine::addString(const std::string &name, std::string *value,
                            std::string metavar, std::string help,
                            const std::string &shortName) {
  addOption(name, std::move(metavar), std::move(help),
            [value](const std::string &text) {
              *value = text;
              return std::string();
            },
            shortName);
}

void CommandLine::addInt(const std::string &name, int *value, std::string metavar,
                         std::string help, int64_t min) {
  addOption(name, std::move(metavar), std::move(help), integerSetter(value, min));
}

void CommandLine::addInt(const std::string &name, int64_t *value,
                         std::string metavar, std::string help, int64_t min) {
  addOption(name, std::move(metavar), std::move(help), integerSetter(value, min));
}

void CommandLine::addPositiveNumber(const std::string &name, double *value,
                                    std::string metavar, std::string help,
                                    const std::string &unit) {
  std::string what = "a positive number" + (unit.empty() ? "" : " of " + unit);
  addOption(name, std::move(metavar), std::move(help),
            [value, what](const std::string &text) {
              char *end = nullptr;
              double v = std::strtod(text.c_str(), &end);
              if (text.empty() || *end || !(v > 0) || v == HUGE_VAL)
                return what;
              *value = v;
              return std::string();
            });
}

void CommandLine::addList(const std::string &name, std::vector<std::string> *value,
                          std::string metavar, std::string help) {
  addOption(name, std::move(metavar), std::move(help),
            [value](const std::string &text) {
              std::vector<std::string> items = splitList(text);
              if (items.empty())
                return std::string("a comma-separated list");
              *value = std::move(items);
              return std::string();
            });
}

void CommandLine::addChoice(const std::string &name, std::string *value,
                            std::string metavar, std::vector<std::string> choices,
                            std::string help) {
  addOption(name, std::move(metavar), std::move(help),
            [value, choices](const std::string &text) {
              for (const std::string &choice : choices)
                if (text == choice) {
                  *value = text;
                  return std::string();
                }
              return joinChoices(choices);
            });
}

const CommandLine::Option *CommandLine::find(const std::string &arg,
                                             bool &negated) const {
  negated = false;
  bool isLong = arg.rfind("--", 0) == 0;
  std::string name = arg.substr(isLong ? 2 : 1);
  for (const Option &o : options) {
    if (isLong ? name == o.name : (!o.shortName.empty() && name == o.shortName))
      return &o;
    if (isLong && o.kind == Kind::FlagPair && name == "no-" + o.name) {
      negated = true;
      return &o;
    }
  }
  return nullptr;
}

int CommandLine::usageError(const std::string &message) const {
  std::cerr << program << ": " << message << "\n(" << program
            << " --help lists the flags)\n";
  return usageExitCode;
}

std::optional<int> CommandLine::parse(const std::vector<std::string> &args) {
  std::vector<const char *> pointers;
  for (const std::string &arg : args)
    pointers.push_back(arg.c_str());
  return parse(pointers.data(), pointers.data() + pointers.size());
}

std::optional<int> CommandLine::parse(const char *const *begin,
                                      const char *const *end) {
  givenFlags.clear();
  size_t nextPositional = 0;
  for (const char *const *it = begin; it != end; ++it) {
    std::string arg = *it;
    if (arg == "--help" || arg == "-h") {
      printHelp(std::cout);
      return 0;
    }
    if (arg.size() < 2 || arg[0] != '-') {
      if (nextPositional == positionals.size())
        return usageError("unexpected argument '" + arg + "'");
      *positionals[nextPositional++].value = arg;
      continue;
    }
    std::optional<std::string> inlineValue;
    if (size_t eq = arg.find('='); eq != std::string::npos) {
      inlineValue = arg.substr(eq + 1);
      arg.resize(eq);
    }
    bool negated = false;
    const Option *option = find(arg, negated);
    if (!option)
      return usageError("unknown flag '" + arg + "'");
    std::string spelling = (negated ? "--no-" : "--") + option->name;
    if (option->kind != Kind::Value) {
      if (inlineValue)
        return usageError("flag '" + spelling + "' takes no value");
      if (option->flag)
        *option->flag = true;
      else
        *option->pair = negated ? 0 : 1;
      givenFlags.push_back({option->name, spelling, option->group, std::nullopt});
      continue;
    }
    std::string value;
    if (inlineValue) {
      value = *inlineValue;
    } else {
      if (it + 1 == end)
        return usageError("flag '" + arg + "' needs a value (" + option->metavar + ")");
      value = *++it;
    }
    std::string takes = option->set(value);
    if (!takes.empty())
      return usageError(spelling + " takes " + takes + ", got '" + value + "'");
    givenFlags.push_back({option->name, spelling, option->group, value});
  }
  for (size_t i = nextPositional; i < positionals.size(); ++i)
    if (positionals[i].required)
      return usageError("missing " + positionals[i].metavar);
  return std::nullopt;
}

bool CommandLine::wasGiven(const std::string &name) const {
  for (const Given &g : givenFlags)
    if (g.name == name)
      return true;
  return false;
}

std::vector<std::string> CommandLine::argumentsOf(const std::string &group) const {
  std::vector<std::string> args;
  for (const Given &g : givenFlags) {
    if (g.group != group)
      continue;
    args.push_back(g.spelling);
    if (g.value)
      args.push_back(*g.value);
  }
  return args;
}

void CommandLine::printHelp(std::ostream &os) const {
  if (usageLines.empty()) {
    os << "usage: " << program;
    for (const Positional &p : positionals)
      os << (p.required ? " " : " [") << p.metavar << (p.required ? "" : "]");
    os << " [flags]\n";
  }
  for (size_t i = 0; i < usageLines.size(); ++i)
    os << (i == 0 ? "usage: " : "       ") << usageLines[i] << "\n";
  os << "\n" << summary << "\n";

  // One row: the spelling padded to the column, then the help, whose
  // further lines are indented to the column.
  auto row = [&](const std::string &spelling, const std::string &help) {
    std::string indent(2 + kColumn + 1, ' ');
    os << "  " << spelling;
    if (spelling.size() > kColumn)
      os << "\n" << indent;
    else
      os << std::string(kColumn + 1 - spelling.size(), ' ');
    for (char c : help)
      os << c << (c == '\n' ? indent : "");
    os << "\n";
  };
  if (!positionals.empty()) {
    os << "\narguments:\n";
    for (const Positional &p : positionals)
      row(p.metavar, p.help);
  }
  auto headed = [&](const std::string &group) {
    for (const Heading &h : headings)
      if (h.group == group)
        return true;
    return false;
  };
  auto optionRow = [&](const Option &o) {
    std::string spelling = "--" + o.name;
    if (o.kind == Kind::FlagPair)
      spelling += ", --no-" + o.name;
    if (!o.shortName.empty())
      spelling = "-" + o.shortName + ", " + spelling;
    if (!o.metavar.empty())
      spelling += " " + o.metavar;
    row(spelling, o.help);
  };
  // In the order added; a group with a heading gets its own list.
  os << "\nflags:\n";
  for (const Option &o : options)
    if (!headed(o.group))
      optionRow(o);
  row("-h, --help", "print this help");
  for (const Heading &h : headings) {
    os << "\n" << h.text << "\n";
    for (const Option &o : options)
      if (o.group == h.group)
        optionRow(o);
  }
  if (!epilog.empty())
    os << "\n" << epilog;
}

} // namespace kbench::cli
