#pragma once
// Helpers of the data tests: a scratch directory and writers for IDX (plain and gzip, with
// zlib's gzopen/gzwrite) and text files.

#include <doctest/doctest.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace kt_test {

/// A file name in a per-process scratch directory under the temp directory, removed at exit.
inline std::string scratch_path(const std::string& name) {
  struct Dir {
    std::filesystem::path path = std::filesystem::temp_directory_path() /
                                 ("kt_data_tests_" + std::to_string(getpid()));
    Dir() { std::filesystem::create_directories(path); }
    ~Dir() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Dir dir;
  return (dir.path / name).string();
}

/// IDX bytes: header (type code, dims big-endian) then `payload` verbatim.
inline std::vector<unsigned char> idx_bytes(unsigned char type_code, const std::vector<std::uint32_t>& dims,
                                            const std::vector<unsigned char>& payload) {
  std::vector<unsigned char> out{0, 0, type_code, static_cast<unsigned char>(dims.size())};
  for (auto d : dims)
    for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<unsigned char>(d >> s));
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

inline void write_bytes(const std::string& path, const std::vector<unsigned char>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

inline void write_gzip(const std::string& path, const std::vector<unsigned char>& bytes) {
  gzFile f = gzopen(path.c_str(), "wb");
  if (!bytes.empty()) gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(f);
}

inline std::vector<unsigned char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

/// True when `message` contains every piece.
template <class... S>
bool mentions(const std::string& message, const S&... pieces) {
  bool ok = !message.empty();
  ((ok = ok && message.find(pieces) != std::string::npos), ...);
  if (!ok) MESSAGE("message: ", message);
  return ok;
}

}  // namespace kt_test
