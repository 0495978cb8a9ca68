//===- ReductionCheck.cpp - C9 reduction coverage -------------------------===//
#include "CheckSupport.h"
namespace kbench::detail {
void checkReductions(CheckRun &run) {}
} // namespace kbench::detail
