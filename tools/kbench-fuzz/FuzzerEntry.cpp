//===- FuzzerEntry.cpp - libFuzzer's entry point for one target -----------===//
//
// Compiled once per libFuzzer binary with -DKBENCH_FUZZ_TARGET=<function>
// (tools/kbench-fuzz/CMakeLists.txt, KBENCH_FUZZ=ON builds only).
//
//===----------------------------------------------------------------------===//

#include "FuzzTargets.h"

#ifndef KBENCH_FUZZ_TARGET
#error "KBENCH_FUZZ_TARGET names the target function"
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return kbench::fuzz::KBENCH_FUZZ_TARGET(data, size);
}
