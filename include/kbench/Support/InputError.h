//===- InputError.h - A bad input file, named ---------------------*- C++ -*-===//
//
// What the task.json and manifest.json readers throw: a message that names
// the file, the field, what is wrong and the fix. Tools print it and exit 2.
// Code built without exceptions (the compiler) uses the non-throwing entry
// points of BundleSchema.h instead.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_SUPPORT_INPUTERROR_H
#define KBENCH_SUPPORT_INPUTERROR_H

#include <stdexcept>

namespace kbench {

class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace kbench

#endif // KBENCH_SUPPORT_INPUTERROR_H
