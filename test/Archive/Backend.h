//===- Backend.h - Run a test against SQLite and PostgreSQL -----*- C++ -*-===//
//
// Every test of test/Archive is parameterized by the backend: SQLite (a
// fresh file) always, PostgreSQL when $KBENCH_TEST_POSTGRES is set (lit
// starts a throwaway server: unittests-postgres.test). Each test gets its
// own archive: a new file, or a new schema.
//
//===----------------------------------------------------------------------===//

#ifndef KBENCH_TEST_ARCHIVE_BACKEND_H
#define KBENCH_TEST_ARCHIVE_BACKEND_H

#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <functional>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace kbench::search::testing {

class BackendTest : public ::testing::TestWithParam<std::string> {
protected:
  void SetUp() override {
    if (GetParam() == "postgresql" && !std::getenv("KBENCH_TEST_POSTGRES"))
      GTEST_SKIP() << "no PostgreSQL server (KBENCH_TEST_POSTGRES unset)";
  }
  /// A fresh archive location for this test (`suffix` for a second one).
  std::string location(const std::string &suffix = "") {
    const ::testing::TestInfo *info =
        ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(info->test_suite_name()) + "_" + info->name();
    std::string clean;
    for (char c : name)
      clean += std::isalnum(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : '_';
    // Short (a schema name is at most 40 characters) and distinct per test.
    clean = clean.substr(0, 12) + std::to_string(std::hash<std::string>()(name) % 100000000) +
            "_" + std::to_string(getpid() % 100000) + suffix;
    if (GetParam() == "postgresql")
      return "postgresql:" + clean;
    std::filesystem::path dir = std::filesystem::temp_directory_path() / "kbench-archive-tests";
    std::filesystem::create_directories(dir);
    std::filesystem::path file = dir / (clean + ".db");
    for (const char *extra : {"", "-wal", "-shm"})
      std::filesystem::remove(file.string() + extra);
    return file.string();
  }
};

inline std::string backendName(const ::testing::TestParamInfo<std::string> &info) {
  return info.param;
}

} // namespace kbench::search::testing

#define KBENCH_BOTH_BACKENDS(Suite)                                            \
  INSTANTIATE_TEST_SUITE_P(Backends, Suite,                                    \
                           ::testing::Values("sqlite", "postgresql"),          \
                           kbench::search::testing::backendName)

#endif // KBENCH_TEST_ARCHIVE_BACKEND_H
