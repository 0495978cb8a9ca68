//===- Backends.h - The two Database backends (private) ---------*- C++ -*-===//

#ifndef KBENCH_LIB_ARCHIVE_BACKENDS_H
#define KBENCH_LIB_ARCHIVE_BACKENDS_H

#include "kbench/Archive/Database.h"

namespace kbench::search {

/// The SQLite file `file` (WAL mode, 5 s busy timeout).
std::unique_ptr<Database> openSqliteDatabase(const std::string &file,
                                             std::string &error);
/// The schema kbench_`name` (created if needed) of the database libpq's
/// environment points at.
std::unique_ptr<Database> openPostgresDatabase(const std::string &name,
                                               std::string &error);

} // namespace kbench::search

#endif // KBENCH_LIB_ARCHIVE_BACKENDS_H
