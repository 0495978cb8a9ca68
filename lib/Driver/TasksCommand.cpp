//===- TasksCommand.cpp - `kbench tasks` ----------------------------------===//
//
// Lists the tasks of a folder with what each one has, so a user (or an agent)
// sees at a glance which kernels, schedules and task files exist.
//
//===----------------------------------------------------------------------===//

#include "kbench/Support/CommandLine.h"
#include "kbench/Driver/Driver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace kbench::driver {

static std::vector<std::string> listFiles(llvm::StringRef dir, llvm::StringRef prefix,
                                          llvm::StringRef suffix) {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    llvm::StringRef name = path::filename(it->path());
    if (name.starts_with(prefix) && name.ends_with(suffix))
      files.push_back(name.str());
  }
  llvm::sort(files);
  return files;
}

int runTasksCommand(llvm::ArrayRef<const char *> args) {
  std::string dir = "tasks";
  bool json = false;
  cli::CommandLine cl("kbench tasks", "List the tasks in a folder: kernels, schedules, task.json.");
  cl.addPositional(&dir, "DIR", "folder of tasks (default: tasks)", /*required=*/false);
  cl.addFlag("json", &json, "print the list as JSON");
  if (std::optional<int> exitCode = cl.parse(args.begin(), args.end()))
    return *exitCode;
  if (!fs::is_directory(dir)) {
    llvm::errs() << "kbench tasks: '" << dir << "' is not a folder\n";
    return 1;
  }
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
    if (fs::is_directory(it->path()))
      names.push_back(path::filename(it->path()).str());
  llvm::sort(names);

  llvm::json::Array list;
  for (const std::string &name : names) {
    llvm::SmallString<256> taskDir(dir);
    path::append(taskDir, name);
    llvm::SmallString<256> schedules(taskDir), taskJson(taskDir);
    path::append(schedules, "schedules");
    path::append(taskJson, "task.json");
    std::vector<std::string> kernels = listFiles(taskDir, "kernel", ".mlir");
    if (kernels.empty())
      continue;
    llvm::json::Array kernelList, scheduleList;
    for (const std::string &k : kernels)
      kernelList.push_back(k);
    for (const std::string &s : listFiles(schedules, "", ".mlir"))
      scheduleList.push_back(s);
    // A dispatch file is the task's default schedule when present.
    for (const std::string &s : listFiles(schedules, "dispatch", ".json"))
      scheduleList.push_back(s);
    list.push_back(llvm::json::Object{{"name", name},
                                      {"path", taskDir.str()},
                                      {"task_json", fs::exists(taskJson)},
                                      {"kernels", std::move(kernelList)},
                                      {"schedules", std::move(scheduleList)}});
  }
  if (json) {
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(list))) << "\n";
    return 0;
  }
  for (const llvm::json::Value &entry : list) {
    const llvm::json::Object &task = *entry.getAsObject();
    auto join = [](const llvm::json::Array *array) {
      std::string s;
      for (const llvm::json::Value &v : *array)
        s += (s.empty() ? "" : ", ") + v.getAsString()->str();
      return s.empty() ? std::string("-") : s;
    };
    llvm::outs() << llvm::formatv("{0,-20} kernels: {1}; schedules: {2}{3}\n",
                                  *task.getString("name"), join(task.getArray("kernels")),
                                  join(task.getArray("schedules")),
                                  *task.getBoolean("task_json") ? "" : "; no task.json");
  }
  return 0;
}

} // namespace kbench::driver
