//===- Stdio.cpp - The stdio transport of `kbench mcp` --------------------===//
//
// Plain POSIX reads and writes on the descriptors: the protocol descriptor
// is private to this file's callers, so nothing buffered in stdio or in
// llvm::outs() can interleave with a message.
//
//===----------------------------------------------------------------------===//

#include "kbench/Mcp/Stdio.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <string>
#include <unistd.h>

namespace kbench::mcp {

int takeProtocolStdout() {
  std::fflush(stdout);
  int protocol = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (protocol < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
    return -1;
  // A client that went away must not kill the server mid-write.
  std::signal(SIGPIPE, SIG_IGN);
  return protocol;
}

bool writeLine(int fd, llvm::StringRef line) {
  std::string buffer = line.str() + "\n";
  const char *data = buffer.data();
  size_t left = buffer.size();
  while (left > 0) {
    ssize_t written = ::write(fd, data, left);
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0)
      return false;
    data += written;
    left -= written;
  }
  return true;
}

void readLines(int fd, size_t maxBytes,
               llvm::function_ref<void(llvm::StringRef)> handle,
               llvm::function_ref<void(size_t)> tooLong) {
  std::string line;
  size_t skipped = 0; // > 0 while skipping an over-long line
  char chunk[65536];
  while (true) {
    ssize_t got = ::read(fd, chunk, sizeof(chunk));
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    for (llvm::StringRef rest(chunk, got); !rest.empty();) {
      size_t newline = rest.find('\n');
      llvm::StringRef piece = rest.substr(0, newline);
      rest = newline == llvm::StringRef::npos ? llvm::StringRef()
                                              : rest.substr(newline + 1);
      if (skipped == 0 && line.size() + piece.size() <= maxBytes)
        line.append(piece.data(), piece.size());
      else
        skipped += line.size() + piece.size(), line.clear();
      if (newline == llvm::StringRef::npos)
        break;
      if (skipped > 0) {
        tooLong(skipped);
        skipped = 0;
      } else {
        llvm::StringRef message(line);
        if (message.ends_with("\r"))
          message = message.drop_back();
        if (!message.trim().empty())
          handle(message);
      }
      line.clear();
    }
  }
  if (skipped > 0)
    tooLong(skipped);
  else if (!llvm::StringRef(line).trim().empty())
    handle(line); // the last message may lack its newline
}

} // namespace kbench::mcp
