//===- CommandLine.cpp - Flags of the kbench subcommands ------------------===//

#include "kbench/Driver/CommandLine.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace kbench::driver {

void CommandLine::addFlag(StringRef name, bool *value, StringRef help) {
  options.push_back({name.str(), "", "", help.str(), value, nullptr});
}

void CommandLine::addOption(StringRef name, std::string *value,
                            StringRef metavar, StringRef help,
                            StringRef shortName) {
  options.push_back(
      {name.str(), shortName.str(), metavar.str(), help.str(), nullptr, value});
}

void CommandLine::addPositional(std::string *value, StringRef metavar,
                                StringRef help, bool required) {
  positionals.push_back({value, metavar.str(), help.str(), required});
}

const CommandLine::Option *CommandLine::find(StringRef name) const {
  for (const Option &option : options)
    if (name == option.name || (!option.shortName.empty() && name == option.shortName))
      return &option;
  return nullptr;
}

CommandLine::Result CommandLine::parse(ArrayRef<const char *> args) {
  auto fail = [&](const std::string &message) {
    WithColor::error(errs(), "kbench " + command) << message << "\n";
    errs() << "run 'kbench " << command << " --help' for usage\n";
    return Result::Error;
  };
  size_t nextPositional = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    StringRef arg = args[i];
    if (arg == "--help" || arg == "-h") {
      printHelp(outs());
      return Result::Help;
    }
    if (!arg.starts_with("-") || arg == "-") {
      if (nextPositional == positionals.size())
        return fail("unexpected argument '" + arg.str() + "'");
      *positionals[nextPositional++].value = arg.str();
      continue;
    }
    StringRef name = arg.ltrim('-');
    std::optional<StringRef> inlineValue;
    if (auto [key, value] = name.split('='); key.size() != name.size()) {
      name = key;
      inlineValue = value;
    }
    const Option *option = find(name);
    if (!option)
      return fail("unknown flag '" + arg.str() + "'");
    if (option->flag) {
      if (inlineValue)
        return fail("flag '--" + option->name + "' takes no value");
      *option->flag = true;
      continue;
    }
    if (inlineValue) {
      *option->value = inlineValue->str();
    } else {
      if (i + 1 == args.size())
        return fail("flag '" + arg.str() + "' needs a value (" + option->metavar + ")");
      *option->value = args[++i];
    }
  }
  for (size_t i = nextPositional; i < positionals.size(); ++i)
    if (positionals[i].required)
      return fail("missing " + positionals[i].metavar);
  return Result::Ok;
}

void CommandLine::printHelp(raw_ostream &os) const {
  os << "usage: kbench " << command;
  for (const Positional &p : positionals)
    os << (p.required ? " " : " [") << p.metavar << (p.required ? "" : "]");
  os << " [flags]\n\n" << summary << "\n";
  if (!positionals.empty()) {
    os << "\narguments:\n";
    for (const Positional &p : positionals)
      os << "  " << left_justify(p.metavar, 24) << " " << p.help << "\n";
  }
  os << "\nflags:\n";
  for (const Option &o : options) {
    std::string spelling = "--" + o.name;
    if (!o.shortName.empty())
      spelling = "-" + o.shortName + ", " + spelling;
    if (!o.metavar.empty())
      spelling += " " + o.metavar;
    os << "  " << left_justify(spelling, 24) << " " << o.help << "\n";
  }
  os << "  " << left_justify("-h, --help", 24) << " print this help\n";
}

} // namespace kbench::driver
