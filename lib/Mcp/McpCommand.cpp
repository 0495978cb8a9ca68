//===- McpCommand.cpp - `kbench mcp` --------------------------------------===//
//
// Thin: flags, the workspace, the stdio guard, then one Server over one
// Service until stdin closes. Temporary files of the compiler (ptxas logs,
// the host linker's objects) go to DIR/.kbench-mcp/tmp through TMPDIR, set
// before any thread starts, so they too stay in the workspace.
//
//===----------------------------------------------------------------------===//

#include "kbench/Mcp/McpCommand.h"

#include "kbench/Driver/Driver.h"
#include "kbench/Mcp/Protocol.h"
#include "kbench/Mcp/Server.h"
#include "kbench/Mcp/Service.h"
#include "kbench/Mcp/Stdio.h"
#include "kbench/Support/CommandLine.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <unistd.h>

namespace kbench::mcp {

int runMcpCommand(llvm::ArrayRef<const char *> args, const char *argv0) {
  ServiceOptions options;
  cli::CommandLine cl(
      "kbench mcp",
      "Serve kbench to an agent over the Model Context Protocol (stdio: one\n"
      "JSON-RPC message per line on stdin and stdout, logs on stderr). Tools:\n"
      "list_tasks, describe_task, apply_schedule, verify, compile, evaluate,\n"
      "job_status, cancel_job, search_start, search_status, search_best;\n"
      "resources: the dialect reference and the schedules guide. Tools read\n"
      "and write only inside --workspace (docs/mcp.md).");
  cl.addString("workspace", &options.workspace, "DIR",
               "the only folder tools read or write (default: the current folder)");
  cl.addString("tasks", &options.tasks, "DIR",
               "the tasks folder, inside the workspace (default: WORKSPACE/tasks)");
  cl.addString("calibration", &options.calibration, "FILE",
               "kbench-run --calibration file, for % of floor in evaluate");
  cl.addInt("max-jobs", &options.maxJobs, "N",
            "evaluate and search jobs running at once (default 4)", 1);
  if (std::optional<int> exitCode = cl.parse(args.begin(), args.end()))
    return *exitCode;

  options.kbench = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&runMcpCommand));
  options.runner = driver::findRunner(argv0);
  std::string error;
  std::unique_ptr<Service> service = Service::create(options, error);
  if (!service) {
    llvm::errs() << "kbench mcp: " << error << "\n";
    return 1;
  }
  std::string tmp = service->getWorkspace().scratchPath("tmp");
  ::setenv("TMPDIR", tmp.c_str(), /*overwrite=*/1);

  int protocol = takeProtocolStdout();
  if (protocol < 0) {
    llvm::errs() << "kbench mcp: cannot set up stdout for the protocol\n";
    return 1;
  }
  llvm::errs() << "kbench mcp: serving " << service->getWorkspace().getRoot()
               << " (protocol " << kProtocolVersions[0] << " or "
               << kProtocolVersions[1] << ") on stdio\n";
  {
    Server server(*service, ServerOptions(),
                  [protocol](const std::string &line) { writeLine(protocol, line); });
    readLines(
        STDIN_FILENO, kMaxMessageBytes,
        [&](llvm::StringRef line) { server.handleMessage(line); },
        [&](size_t bytes) { server.reportOversizedMessage(bytes); });
    // Answer what is in flight; jobs still running are cancelled.
    server.drain(/*seconds=*/30);
  }
  ::close(protocol);
  return 0;
}

} // namespace kbench::mcp
