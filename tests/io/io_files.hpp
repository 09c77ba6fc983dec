#pragma once
// Files for the io tests: a scratch folder per test process, whole-file reads and writes.

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

namespace kt_test::io_files {

/// `name` inside a folder of this test process's own (parallel ctest runs do not collide).
inline std::string scratch(const std::string& name) {
  static const std::filesystem::path dir = [] {
    auto p = std::filesystem::temp_directory_path() / ("kt_io_tests_" + std::to_string(getpid()));
    std::filesystem::create_directories(p);
    return p;
  }();
  return (dir / name).string();
}

inline std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_all(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace kt_test::io_files
