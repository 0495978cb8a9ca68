//===- Schema.h - The archive's tables and their migrations ------*- C++ -*-===//
//
// One ordered list of migrations, written once in the SQL both engines
// accept (Database.h's dialect words). Migration i takes the schema from
// version i to i + 1; all pending ones run in one transaction with the
// version update, under PostgreSQL's advisory lock, so that a search and
// its workers opening a fresh archive at the same moment migrate it once
// and never leave it half migrated.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_ARCHIVE_SCHEMA_H
#define KBENCH_ARCHIVE_SCHEMA_H

#include "kbench/Archive/Database.h"

namespace kbench::search {

/// The schema version this kbench writes.
inline constexpr int kArchiveSchemaVersion = 5;

/// Brings `db` up to kArchiveSchemaVersion; an archive newer than this
/// kbench is refused. `where` names the archive in errors.
bool migrateArchive(Database &db, const std::string &where, std::string &error);

/// The schema version stored in `db` (0 for an empty one).
int archiveSchemaVersion(Database &db);

} // namespace kbench::search

#endif // KBENCH_ARCHIVE_SCHEMA_H
