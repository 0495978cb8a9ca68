//===- Protocol.cpp - The input distributions and seeds of the protocol ---===//

#include "kbench/Runner/Protocol.h"

namespace kbench::runner {

const std::vector<Distribution> &allDistributions() {
  static const std::vector<Distribution> all = {Distribution::Randn, Distribution::Negated,
                                                Distribution::Small, Distribution::Large,
                                                Distribution::Structural};
  return all;
}

const char *distributionName(Distribution d) {
  switch (d) {
  case Distribution::Randn:
    return "randn";
  case Distribution::Negated:
    return "negated";
  case Distribution::Small:
    return "small";
  case Distribution::Large:
    return "large";
  case Distribution::Structural:
    return "structural";
  }
  return "?";
}

std::optional<Distribution> parseDistribution(const std::string &name) {
  for (Distribution d : allDistributions())
    if (name == distributionName(d))
      return d;
  return std::nullopt;
}

bool isFp64Gated(Distribution d) {
  return d == Distribution::Large || d == Distribution::Structural;
}

bool isNominal(Distribution d) {
  return d == Distribution::Randn || d == Distribution::Negated;
}

uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

uint64_t protocolSeed(int i) { return splitmix64(42 + static_cast<uint64_t>(i)) >> 1; }

} // namespace kbench::runner
