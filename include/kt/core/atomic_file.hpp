#pragma once
/// \file kt/core/atomic_file.hpp
/// Writing a file so that a crash never leaves a half-written one under the real name.
///
///     kt::write_file_atomically("run.json", json_text);   // all or nothing

#include "kt/core/error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include <fcntl.h>
#include <unistd.h>

namespace kt {

/// Writes `contents` to a temporary file in the same folder as `path`, flushes it to disk
/// (fsync) and renames it over `path`: readers see the old file or the whole new one. On any
/// failure the temporary file is removed and kt::Error names the file and the system's reason.
inline void write_file_atomically(const std::string& path, const std::string& contents) {
  namespace fs = std::filesystem;
  KT_REQUIRE(!path.empty(), "kt::write_file_atomically: the path is empty");
  // Same folder as the target, so that rename() stays within one file system (atomic).
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  KT_REQUIRE(fd >= 0, "kt::write_file_atomically: cannot create ", tmp, ": ", std::strerror(errno));
  const auto fail = [&](const char* what) {
    const std::string reason = std::strerror(errno);
    ::close(fd);
    ::unlink(tmp.c_str());
    KT_THROW("kt::write_file_atomically: ", what, " ", tmp, " (for ", path, ") failed: ", reason);
  };
  std::size_t written = 0;
  while (written < contents.size()) {
    const ::ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("writing");
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) fail("flushing");
  if (::close(fd) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(tmp.c_str());
    KT_THROW("kt::write_file_atomically: closing ", tmp, " (for ", path, ") failed: ", reason);
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    ::unlink(tmp.c_str());
    KT_THROW("kt::write_file_atomically: cannot rename ", tmp, " to ", path, ": ", ec.message());
  }
}

}  // namespace kt
