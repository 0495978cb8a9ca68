//===- PtxMerge.cpp - One PTX module from several -------------------------===//
//
// PTX as LLVM's NVPTX back end writes it: comment lines, the header
// directives, then top-level statements, each either one declaration ending
// in `;` (possibly over several lines, as a `.func` prototype) or a
// definition whose body is a brace block (`.entry`, `.func`). A statement
// ends where, at the end of a line, no brace or parenthesis is open and the
// line ends in `;` or `}`.
//
//===----------------------------------------------------------------------===//

#include "kbench/Target/GPU/PtxMerge.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

using namespace kbench;

namespace {
/// One top-level statement and the blank lines and comments before it.
struct PtxStatement {
  std::string comments;
  std::string code;
};
/// A module split into the comments before its header, its header
/// directives and its top-level statements.
struct PtxModuleText {
  std::string preamble;
  std::string header;
  llvm::SmallVector<PtxStatement> statements;
};
} // namespace

static bool isHeaderDirective(llvm::StringRef line) {
  return line.starts_with(".version") || line.starts_with(".target") ||
         line.starts_with(".address_size");
}

static std::optional<PtxModuleText>
splitModule(llvm::StringRef ptx, size_t index, std::string &error) {
  PtxModuleText text;
  std::string pending; // comments and blank lines before the next statement
  std::string statement;
  int braces = 0, parens = 0;
  llvm::SmallVector<llvm::StringRef> lines;
  // Every line gets its newline back, the last one included.
  ptx.consume_back("\n");
  ptx.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    llvm::StringRef trimmed = line.trim();
    bool inStatement = !statement.empty();
    if (!inStatement && isHeaderDirective(trimmed)) {
      if (text.header.empty() && text.statements.empty()) {
        text.preamble = std::move(pending);
        pending.clear();
      }
      text.header += trimmed.str() + "\n";
      continue;
    }
    if (!inStatement && (trimmed.empty() || trimmed.starts_with("//"))) {
      pending += line.str() + "\n";
      continue;
    }
    statement += line.str() + "\n";
    // Comments inside a statement hold no code; strip them before counting.
    llvm::StringRef code = trimmed.split("//").first.rtrim();
    for (char c : code) {
      braces += c == '{' ? 1 : c == '}' ? -1 : 0;
      parens += c == '(' ? 1 : c == ')' ? -1 : 0;
    }
    if (braces < 0 || parens < 0)
      break;
    if (braces == 0 && parens == 0 &&
        (code.ends_with(";") || code.ends_with("}"))) {
      text.statements.push_back({std::move(pending), std::move(statement)});
      pending.clear();
      statement.clear();
    }
  }
  if (braces != 0 || parens != 0 || !statement.empty()) {
    error = "PTX module " + std::to_string(index) +
            " ends inside a statement (unbalanced braces or parentheses)";
    return std::nullopt;
  }
  if (!pending.empty())
    text.statements.push_back({std::move(pending), ""});
  return text;
}

std::optional<std::string>
kbench::mergePtxModules(llvm::ArrayRef<std::string> modules,
                        std::string &error) {
  if (modules.size() == 1)
    return modules.front();
  std::string merged;
  std::string header;
  llvm::StringSet<> seen;
  for (auto [index, ptx] : llvm::enumerate(modules)) {
    std::optional<PtxModuleText> text = splitModule(ptx, index, error);
    if (!text)
      return std::nullopt;
    if (index == 0) {
      header = text->header;
      merged = text->preamble + header;
    } else if (text->header != header) {
      error = "PTX module " + std::to_string(index) +
              " has another header (.version, .target, .address_size) than "
              "module 0:\n" +
              text->header + "against\n" + header;
      return std::nullopt;
    }
    for (const PtxStatement &statement : text->statements) {
      merged += statement.comments;
      if (seen.insert(llvm::StringRef(statement.code).trim()).second)
        merged += statement.code;
    }
  }
  return merged;
}
