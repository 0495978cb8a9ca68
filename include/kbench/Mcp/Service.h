//===- Service.h - The tools of `kbench mcp` over kbench's libraries -*- C++ -*-===//
//
// One method per tool. Each takes the call's arguments (already checked
// against the tool's input schema, Tools.h) and answers a ToolResult; none
// reads or writes outside the workspace, none runs a shell. The compile
// path is the driver's (parse, schedule, compileScheduledModule: the stages
// of `kbench compile`), with the kernel and schedule given as text and
// admitted first (Admission.h); evaluation runs kbench-run and searches run
// `kbench search`, as jobs (Jobs.h).
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_MCP_SERVICE_H
#define KBENCH_MCP_SERVICE_H

#include "kbench/Mcp/Jobs.h"
#include "kbench/Mcp/ToolResult.h"
#include "kbench/Mcp/Workspace.h"

#include "llvm/Support/JSON.h"

#include <memory>
#include <string>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace kbench::mcp {

/// What a tool sees of the request it answers.
class CallContext {
public:
  virtual ~CallContext();
  /// Whether the client cancelled the request (notifications/cancelled).
  virtual bool isCancelled() const = 0;
  /// Sends notifications/progress when the request asked for it.
  virtual void progress(double done, double total, llvm::StringRef message) = 0;
};

struct ServiceOptions {
  std::string workspace = ".";
  /// Relative to the workspace unless absolute.
  std::string tasks = "tasks";
  /// The kbench executable (search jobs run `kbench search`) and kbench-run.
  std::string kbench, runner;
  /// kbench-run --calibration FILE for % of floor ("" for none).
  std::string calibration;
  int64_t maxJobs = 4;
};

class Service {
public:
  static std::unique_ptr<Service> create(const ServiceOptions &options,
                                         std::string &error);
  ~Service();

  using Arguments = llvm::json::Object;
  ToolResult listTasks(const Arguments &args, CallContext &call);
  ToolResult describeTask(const Arguments &args, CallContext &call);
  ToolResult applySchedule(const Arguments &args, CallContext &call);
  ToolResult verify(const Arguments &args, CallContext &call);
  ToolResult compile(const Arguments &args, CallContext &call);
  ToolResult evaluate(const Arguments &args, CallContext &call);
  ToolResult jobStatus(const Arguments &args, CallContext &call);
  ToolResult cancelJob(const Arguments &args, CallContext &call);
  ToolResult searchStart(const Arguments &args, CallContext &call);
  ToolResult searchStatus(const Arguments &args, CallContext &call);
  ToolResult searchBest(const Arguments &args, CallContext &call);

  const Workspace &getWorkspace() const { return workspace; }

private:
  Service(Workspace workspace, ServiceOptions options);
  /// The JSON of a job for job_status (and evaluate once it finished).
  llvm::json::Object describeJob(const Job &job) const;

  Workspace workspace;
  ServiceOptions options;
  std::unique_ptr<mlir::MLIRContext> context;
  JobTable jobs;
  std::atomic<int64_t> scratchCounter{0};
};

} // namespace kbench::mcp

#endif // KBENCH_MCP_SERVICE_H
