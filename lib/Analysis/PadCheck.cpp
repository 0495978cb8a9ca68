//===- PadCheck.cpp - C10 pad neutrality ----------------------------------===//
#include "CheckSupport.h"
namespace kbench::detail {
void checkPads(CheckRun &run) {}
} // namespace kbench::detail
