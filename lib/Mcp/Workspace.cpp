//===- Workspace.cpp - The one folder the MCP server may touch ------------===//
//
// Every path is resolved with realpath before it is used, so a task folder
// or file that is a symlink out of the workspace is refused, not followed.
//
//===----------------------------------------------------------------------===//

#include "kbench/Mcp/Workspace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace kbench::mcp {

/// The path with every symlink resolved; nullopt when it does not exist.
static std::optional<std::string> resolve(const llvm::Twine &p) {
  llvm::SmallString<256> real;
  if (fs::real_path(p, real, /*expand_tilde=*/false))
    return std::nullopt;
  return real.str().str();
}

bool isValidTaskName(llvm::StringRef name) {
  return !name.empty() && name.size() <= 128 && name.front() != '.' &&
         llvm::all_of(name, [](char c) {
           return llvm::isAlnum(c) || c == '_' || c == '-' || c == '.';
         });
}

std::optional<Workspace> Workspace::open(llvm::StringRef root,
                                         llvm::StringRef tasks,
                                         std::string &error) {
  Workspace ws;
  std::optional<std::string> realRoot = resolve(root);
  if (!realRoot || !fs::is_directory(*realRoot)) {
    error = "--workspace " + root.str() + " is not a folder";
    return std::nullopt;
  }
  ws.root = *realRoot;
  llvm::SmallString<256> tasksPath(tasks);
  if (!path::is_absolute(tasksPath)) {
    tasksPath = ws.root;
    path::append(tasksPath, tasks);
  }
  std::optional<std::string> realTasks = resolve(tasksPath);
  if (!realTasks || !fs::is_directory(*realTasks)) {
    error = "--tasks " + tasksPath.str().str() + " is not a folder";
    return std::nullopt;
  }
  if (!ws.contains(*realTasks)) {
    error = "--tasks " + tasksPath.str().str() + " resolves to " + *realTasks +
            ", outside --workspace " + ws.root;
    return std::nullopt;
  }
  ws.tasks = *realTasks;
  return ws;
}

bool Workspace::contains(llvm::StringRef p) const {
  return p == root || (p.starts_with(root) && p.size() > root.size() &&
                       path::is_separator(p[root.size()]));
}

std::vector<std::string> Workspace::listTasks() const {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(tasks, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef name = path::filename(it->path());
    std::string ignored;
    if (isValidTaskName(name) && findTask(name, ignored))
      names.push_back(name.str());
  }
  llvm::sort(names);
  return names;
}

std::optional<std::string> Workspace::findTask(llvm::StringRef name,
                                               std::string &error) const {
  if (!isValidTaskName(name)) {
    error = "'" + name.str() +
            "' is not a task name (letters, digits, '_', '-', '.'; no path); "
            "list_tasks gives the names";
    return std::nullopt;
  }
  llvm::SmallString<256> folder(tasks);
  path::append(folder, name);
  std::optional<std::string> real = resolve(folder);
  if (!real || !fs::is_directory(*real)) {
    error = "unknown task '" + name.str() + "'; list_tasks gives the names";
    return std::nullopt;
  }
  if (!contains(*real)) {
    error = "task '" + name.str() +
            "' resolves outside the workspace; the server reads nothing there";
    return std::nullopt;
  }
  llvm::SmallString<256> kernel(*real);
  path::append(kernel, "kernel.mlir");
  if (!fs::exists(kernel)) {
    error = "task '" + name.str() + "' has no kernel.mlir";
    return std::nullopt;
  }
  return real;
}

bool Workspace::readFile(llvm::StringRef folder, llvm::StringRef relative,
                         size_t maxBytes, std::string &text,
                         std::string &error) const {
  error.clear();
  llvm::SmallString<256> file(folder);
  path::append(file, relative);
  if (!fs::exists(file))
    return false;
  std::optional<std::string> real = resolve(file);
  if (!real || !contains(*real)) {
    error = relative.str() + " resolves outside the workspace; the server "
                             "reads nothing there";
    return false;
  }
  uint64_t size = 0;
  if (fs::file_size(*real, size) || !fs::is_regular_file(*real)) {
    error = relative.str() + " is not a readable file";
    return false;
  }
  if (size > maxBytes) {
    error = relative.str() + " has " + std::to_string(size) +
            " bytes; the limit is " + std::to_string(maxBytes);
    return false;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(*real, /*IsText=*/true);
  if (!buffer) {
    error = "cannot read " + relative.str() + ": " + buffer.getError().message();
    return false;
  }
  text = (*buffer)->getBuffer().str();
  return true;
}

std::string Workspace::scratchPath(llvm::StringRef kind) const {
  llvm::SmallString<256> folder(root);
  path::append(folder, ".kbench-mcp", kind);
  return folder.str().str();
}

std::optional<std::string> Workspace::createScratch(llvm::StringRef kind,
                                                    llvm::StringRef name,
                                                    std::string &error) const {
  llvm::SmallString<256> folder(scratchPath(kind));
  path::append(folder, name);
  fs::remove_directories(folder);
  if (std::error_code ec = fs::create_directories(folder)) {
    error = "cannot create " + folder.str().str() + ": " + ec.message();
    return std::nullopt;
  }
  std::optional<std::string> real = resolve(folder);
  if (!real || !contains(*real)) {
    error = folder.str().str() + " resolves outside the workspace";
    return std::nullopt;
  }
  return real;
}

} // namespace kbench::mcp
