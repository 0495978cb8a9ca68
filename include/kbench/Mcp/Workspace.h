//===- Workspace.h - The one folder the MCP server may touch -----*- C++ -*-===//
//
// `kbench mcp --workspace DIR` confines every file the tools read or write to
// DIR, after symlinks are resolved: tools take IR and scripts, never paths,
// and name tasks by their folder name. The server's own files (bundles,
// reports, search archives, temporary files) go to DIR/.kbench-mcp/.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_MCP_WORKSPACE_H
#define KBENCH_MCP_WORKSPACE_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace kbench::mcp {

class Workspace {
public:
  /// Resolves `root` and the tasks folder `tasks` (relative to `root`
  /// unless absolute); fails when either is missing or the tasks folder
  /// lies outside the workspace.
  static std::optional<Workspace> open(llvm::StringRef root,
                                       llvm::StringRef tasks,
                                       std::string &error);

  const std::string &getRoot() const { return root; }
  const std::string &getTasksFolder() const { return tasks; }

  /// The names of the tasks: folders of the tasks folder, inside the
  /// workspace once resolved, that hold a kernel.mlir; sorted.
  std::vector<std::string> listTasks() const;

  /// The resolved folder of task `name`, or nullopt with a message that
  /// names the fix (an unknown task, a name with a path in it, a folder
  /// that resolves outside the workspace).
  std::optional<std::string> findTask(llvm::StringRef name,
                                      std::string &error) const;

  /// Reads `relative` inside `folder` (a resolved folder of the
  /// workspace). Returns false when the file is missing (`error` empty) or
  /// cannot be read, is larger than `maxBytes` or resolves outside the
  /// workspace (`error` says which).
  bool readFile(llvm::StringRef folder, llvm::StringRef relative,
                size_t maxBytes, std::string &text, std::string &error) const;

  /// A fresh folder DIR/.kbench-mcp/<kind>/<name> (an earlier one of that
  /// name is removed first).
  std::optional<std::string> createScratch(llvm::StringRef kind,
                                           llvm::StringRef name,
                                           std::string &error) const;

  /// DIR/.kbench-mcp/<kind> (not created).
  std::string scratchPath(llvm::StringRef kind) const;

  /// Whether the resolved path `path` lies in the workspace.
  bool contains(llvm::StringRef path) const;

private:
  Workspace() = default;
  std::string root, tasks;
};

/// Whether `name` can name a task: letters, digits, '_', '-', '.', not
/// starting with '.', at most 128 bytes.
bool isValidTaskName(llvm::StringRef name);

} // namespace kbench::mcp

#endif // KBENCH_MCP_WORKSPACE_H
