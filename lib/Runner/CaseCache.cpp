//===- CaseCache.cpp - Inputs and references shared across bundles --------===//

#include "kbench/Runner/CaseCache.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cstdlib>

namespace kbench::runner {

size_t PreparedCase::bytes() const {
  size_t total = 0;
  for (const TensorMap *m : {&inputs, &ref, &ref64})
    for (const auto &[name, t] : *m)
      if (t.defined())
        total += t.numel() * t.element_size();
  return total;
}

size_t CaseCache::defaultBudget(size_t deviceMemoryBytes) {
  if (const char *mb = std::getenv("KBENCH_CASE_CACHE_MB"); mb && *mb) {
    char *end = nullptr;
    unsigned long long v = std::strtoull(mb, &end, 10);
    if (end && *end == '\0')
      return static_cast<size_t>(v) << 20;
  }
  return std::max(size_t(4) << 30, deviceMemoryBytes / 4);
}

std::shared_ptr<PreparedCase> CaseCache::find(const std::string &key) {
  auto it = cases.find(key);
  if (it == cases.end()) {
    ++misses;
    return nullptr;
  }
  ++hits;
  return it->second.entry;
}

void CaseCache::offer(const std::string &key, std::shared_ptr<PreparedCase> entry) {
  if (!entry)
    return;
  size_t bytes = entry->bytes();
  auto it = cases.find(key);
  if (it != cases.end()) {
    if (it->second.entry != entry)
      return;
    used -= it->second.bytes;
    if (used + bytes > budget) {
      cases.erase(it);
      return;
    }
    used += bytes;
    it->second.bytes = bytes;
    return;
  }
  if (used + bytes > budget)
    return;
  used += bytes;
  cases.emplace(key, Kept{std::move(entry), bytes});
}

} // namespace kbench::runner
