//===- CommandLineTest.cpp - Unit tests for the shared flag parser --------===//
//
// The parser of kbench and kbench-run (Support/CommandLine.h) and the runner
// flag table kbench eval forwards (Support/RunnerFlags.h).
//
//===----------------------------------------------------------------------===//

#include "kbench/Support/CommandLine.h"
#include "kbench/Support/RunnerFlags.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace kbench;
using namespace kbench::cli;
using testing::internal::CaptureStderr;
using testing::internal::GetCapturedStderr;

namespace {

/// A command with one of each kind of option.
struct Fixture {
  std::string task, extra, output, target = "host";
  bool json = false;
  int timing = -1, seeds = 3;
  int64_t budget = 32;
  double timeout = 60;
  std::vector<std::string> shapes;
  CommandLine cl{"tool", "Does things.", /*usageExitCode=*/2};

  Fixture() {
    cl.addPositional(&task, "TASK_DIR", "a task folder");
    cl.addPositional(&extra, "EXTRA", "optional", /*required=*/false);
    cl.addString("output", &output, "DIR", "output folder", "o");
    cl.addChoice("target", &target, "T", {"host", "sm_90a", "sm_100a"}, "the target");
    cl.addFlag("json", &json, "JSON output");
    cl.addFlagPair("timing", &timing, "time it\nor not");
    cl.addInt("seeds", &seeds, "N", "seeds");
    cl.addInt("budget", &budget, "N", "budget", 1);
    cl.addPositiveNumber("timeout", &timeout, "SECONDS", "watchdog", "seconds");
    cl.addList("shapes", &shapes, "LIST", "shape sets");
  }

  /// parse() with stderr captured into `errors`.
  std::optional<int> parse(std::vector<std::string> args) {
    CaptureStderr();
    std::optional<int> status = cl.parse(args);
    errors = GetCapturedStderr();
    return status;
  }
  std::string errors;
};

TEST(CommandLine, ValuesInBothSpellingsAndShortAliases) {
  Fixture f;
  EXPECT_EQ(f.parse({"--seeds", "5", "t", "--budget=7", "-o", "out", "--target=sm_90a",
                     "--timeout", "2.5", "--shapes", "check,,tune"}),
            std::nullopt)
      << f.errors;
  EXPECT_EQ(f.task, "t");
  EXPECT_EQ(f.extra, "");
  EXPECT_EQ(f.seeds, 5);
  EXPECT_EQ(f.budget, 7);
  EXPECT_EQ(f.output, "out");
  EXPECT_EQ(f.target, "sm_90a");
  EXPECT_DOUBLE_EQ(f.timeout, 2.5);
  EXPECT_EQ(f.shapes, (std::vector<std::string>{"check", "tune"}));
  EXPECT_EQ(f.errors, "");
}

TEST(CommandLine, FlagsAndPairs) {
  Fixture f;
  ASSERT_EQ(f.parse({"t"}), std::nullopt);
  EXPECT_FALSE(f.json);
  EXPECT_EQ(f.timing, -1); // neither given: the default stays
  ASSERT_EQ(f.parse({"t", "--json", "--no-timing"}), std::nullopt);
  EXPECT_TRUE(f.json);
  EXPECT_EQ(f.timing, 0);
  ASSERT_EQ(f.parse({"t", "--no-timing", "--timing"}), std::nullopt);
  EXPECT_EQ(f.timing, 1); // the last one wins
  EXPECT_EQ(f.parse({"t", "--json=yes"}), 2);
  EXPECT_NE(f.errors.find("flag '--json' takes no value"), std::string::npos) << f.errors;
  EXPECT_EQ(f.parse({"t", "--no-json"}), 2); // not a pair
}

TEST(CommandLine, ErrorsNameTheFlagAndPointAtHelp) {
  Fixture f;
  EXPECT_EQ(f.parse({"t", "--frobnicate"}), 2);
  EXPECT_EQ(f.errors, "tool: unknown flag '--frobnicate'\n(tool --help lists the flags)\n");
  EXPECT_EQ(f.parse({"t", "-x"}), 2);
  EXPECT_NE(f.errors.find("unknown flag '-x'"), std::string::npos);
  EXPECT_EQ(f.parse({"t", "-o"}), 2);
  EXPECT_NE(f.errors.find("tool: flag '-o' needs a value (DIR)"), std::string::npos);
  EXPECT_EQ(f.parse({}), 2);
  EXPECT_NE(f.errors.find("tool: missing TASK_DIR"), std::string::npos);
  EXPECT_EQ(f.parse({"a", "b", "c"}), 2);
  EXPECT_NE(f.errors.find("tool: unexpected argument 'c'"), std::string::npos);
  CaptureStderr();
  EXPECT_EQ(f.cl.usageError("cross-flag check"), 2);
  EXPECT_EQ(GetCapturedStderr(), "tool: cross-flag check\n(tool --help lists the flags)\n");
}

TEST(CommandLine, TypedValuesAreChecked) {
  Fixture f;
  auto error = [&](std::vector<std::string> args) {
    args.insert(args.begin(), "t");
    EXPECT_EQ(f.parse(args), 2);
    return f.errors.substr(0, f.errors.find('\n'));
  };
  EXPECT_EQ(error({"--seeds", "x"}), "tool: --seeds takes an integer, got 'x'");
  EXPECT_EQ(error({"--seeds", "3.5"}), "tool: --seeds takes an integer, got '3.5'");
  EXPECT_EQ(error({"--seeds=99999999999"}), "tool: --seeds takes an integer, got '99999999999'");
  EXPECT_EQ(error({"--seeds", ""}), "tool: --seeds takes an integer, got ''");
  EXPECT_EQ(error({"--budget", "0"}), "tool: --budget takes an integer >= 1, got '0'");
  EXPECT_EQ(error({"--timeout", "-1"}),
            "tool: --timeout takes a positive number of seconds, got '-1'");
  EXPECT_EQ(error({"--timeout", "1s"}),
            "tool: --timeout takes a positive number of seconds, got '1s'");
  EXPECT_EQ(error({"--target", "sm_80"}),
            "tool: --target takes host, sm_90a or sm_100a, got 'sm_80'");
  EXPECT_EQ(error({"--shapes", ","}), "tool: --shapes takes a comma-separated list, got ','");
  // A bad value leaves the variable as it was.
  EXPECT_EQ(f.seeds, 3);
  EXPECT_EQ(f.target, "host");
  // Negative values are values, not flags.
  EXPECT_EQ(f.parse({"t", "--seeds", "-2"}), std::nullopt) << f.errors;
  EXPECT_EQ(f.seeds, -2);
}

TEST(CommandLine, HelpIsGenerated) {
  Fixture f;
  f.cl.setEpilog("exit status: 0 ok\n");
  std::ostringstream os;
  f.cl.printHelp(os);
  EXPECT_EQ(os.str(), "usage: tool TASK_DIR [EXTRA] [flags]\n"
                      "\n"
                      "Does things.\n"
                      "\n"
                      "arguments:\n"
                      "  TASK_DIR                 a task folder\n"
                      "  EXTRA                    optional\n"
                      "\n"
                      "flags:\n"
                      "  -o, --output DIR         output folder\n"
                      "  --target T               the target\n"
                      "  --json                   JSON output\n"
                      "  --timing, --no-timing    time it\n"
                      "                           or not\n"
                      "  --seeds N                seeds\n"
                      "  --budget N               budget\n"
                      "  --timeout SECONDS        watchdog\n"
                      "  --shapes LIST            shape sets\n"
                      "  -h, --help               print this help\n"
                      "\n"
                      "exit status: 0 ok\n");
}

TEST(CommandLine, HelpStopsParsingWithStatusZero) {
  Fixture f;
  testing::internal::CaptureStdout();
  EXPECT_EQ(f.parse({"--seeds", "x", "--help"}), 2); // errors come first
  EXPECT_EQ(f.parse({"--help", "--seeds", "x"}), 0);
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out.rfind("usage: tool TASK_DIR", 0), 0u) << out;
}

TEST(CommandLine, GroupsGetTheirHeadingAndAreForwardedAsGiven) {
  std::string task;
  bool verbose = false;
  RunnerSettings settings;
  CommandLine cl("kbench eval", "Evaluates.");
  cl.addPositional(&task, "TASK_DIR", "a task");
  cl.addFlag("verbose", &verbose, "say more");
  addRunnerFlags(cl, settings, "runner flags:");
  std::ostringstream os;
  cl.printHelp(os);
  std::string help = os.str();
  size_t heading = help.find("\nrunner flags:\n");
  ASSERT_NE(heading, std::string::npos) << help;
  EXPECT_LT(help.find("--verbose"), heading);
  EXPECT_GT(help.find("--seeds N"), heading);
  EXPECT_GT(help.find("--timing, --no-timing"), heading);

  ASSERT_EQ(cl.parse(std::vector<std::string>{"--seeds=1", "--verbose", "t", "--no-timing",
                                              "--distributions", "randn,small", "--json"}),
            std::nullopt);
  EXPECT_TRUE(cl.wasGiven("timing"));
  EXPECT_FALSE(cl.wasGiven("shapes"));
  EXPECT_EQ(cl.argumentsOf(kRunnerFlagGroup),
            (std::vector<std::string>{"--seeds", "1", "--no-timing", "--distributions",
                                      "randn,small", "--json"}));
  EXPECT_EQ(cl.argumentsOf(""), (std::vector<std::string>{"--verbose"}));
}

/// What kbench eval forwards, kbench-run reads back into the same settings:
/// every runner flag, given once.
TEST(RunnerFlags, ForwardedArgumentsRoundTrip) {
  std::vector<std::string> args = {
      "--json",           "--shapes=check,tune",    "--seeds",  "2",
      "--distributions",  "randn",                  "--timeout", "7.5",
      "--timing",         "--l2-flush",             "write",    "--calibration",
      "cal.json",         "--compiled-baselines",   "pkgs",     "--device",
      "1"};
  RunnerSettings first, second;
  CommandLine eval("kbench eval", ""), run("kbench-run", "", 2);
  addRunnerFlags(eval, first);
  addRunnerFlags(run, second);
  ASSERT_EQ(eval.parse(args), std::nullopt);
  ASSERT_EQ(eval.given().size(), 10u); // each flag of the table once
  ASSERT_EQ(run.parse(eval.argumentsOf(kRunnerFlagGroup)), std::nullopt);
  for (const RunnerSettings *s : {&first, &second}) {
    EXPECT_TRUE(s->json);
    EXPECT_EQ(s->shapeSets, (std::vector<std::string>{"check", "tune"}));
    EXPECT_EQ(s->seeds, 2);
    EXPECT_EQ(s->distributions, (std::vector<std::string>{"randn"}));
    EXPECT_DOUBLE_EQ(s->timeoutSeconds, 7.5);
    EXPECT_EQ(s->timing, 1);
    EXPECT_EQ(s->l2Flush, "write");
    EXPECT_EQ(s->calibrationFile, "cal.json");
    EXPECT_EQ(s->compiledBaselinesDir, "pkgs");
    EXPECT_EQ(s->device, 1);
  }
}

TEST(RunnerFlags, BatchListFlagsAreThoseLISTJsonStates) {
  for (const char *name : {"shapes", "seeds", "distributions", "timing"})
    EXPECT_TRUE(isBatchListFlag(name)) << name;
  for (const char *name : {"timeout", "l2-flush", "device", "json", "calibration"})
    EXPECT_FALSE(isBatchListFlag(name)) << name;
}

} // namespace
