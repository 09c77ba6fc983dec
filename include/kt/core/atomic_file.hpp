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

namespace impl {

/// Writes `produce`'s bytes straight into an existing non-regular file (a device, a FIFO).
template <class Produce>
void write_file_directly(const std::string& path, Produce& produce) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  KT_REQUIRE(fd >= 0, "kt::write_file_atomically: cannot open ", path, ": ", std::strerror(errno));
  const auto write = [&](const void* data, std::size_t bytes) {
    const auto* p = static_cast<const char*>(data);
    while (bytes > 0) {
      const ::ssize_t n = ::write(fd, p, bytes);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const std::string reason = std::strerror(errno);
        ::close(fd);
        KT_THROW("kt::write_file_atomically: writing ", path, " failed: ", reason);
      }
      p += n;
      bytes -= static_cast<std::size_t>(n);
    }
  };
  try {
    produce(write);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

}  // namespace impl

/// Writes a file through `produce(write)`, where `write(const void* data, std::size_t bytes)`
/// appends to a temporary file in the same folder as `path`; then flushes it to disk (fsync)
/// and renames it over `path`: readers see the old file or the whole new one. On any failure
/// (also an exception from `produce`) the temporary file is removed and nothing replaces
/// `path`; kt::Error names the file and the system's reason. Streams: nothing is held in
/// memory beyond what `produce` passes.
///
/// A path that names something other than a regular file — /dev/null, /dev/stdout, a FIFO —
/// is written directly (renaming a file over it would replace the device itself); a symbolic
/// link is followed, so the link stays and its target is replaced atomically.
template <class Produce>
void write_file_atomically_with(const std::string& path_, Produce&& produce) {
  namespace fs = std::filesystem;
  KT_REQUIRE(!path_.empty(), "kt::write_file_atomically: the path is empty");
  std::error_code status_error;
  const fs::file_status status = fs::status(path_, status_error);
  if (fs::exists(status) && !fs::is_regular_file(status) && !fs::is_directory(status))
    return impl::write_file_directly(path_, produce);
  const std::string path = fs::is_symlink(fs::symlink_status(path_, status_error)) && fs::exists(status)
                               ? fs::canonical(path_).string()
                               : path_;
  // Same folder as the target, so that rename() stays within one file system (atomic).
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  KT_REQUIRE(fd >= 0, "kt::write_file_atomically: cannot create ", tmp, ": ", std::strerror(errno));
  const auto fail = [&](const char* what, const std::string& reason) {
    ::close(fd);
    ::unlink(tmp.c_str());
    KT_THROW("kt::write_file_atomically: ", what, " ", tmp, " (for ", path, ") failed: ", reason);
  };
  const auto write = [&](const void* data, std::size_t bytes) {
    const auto* p = static_cast<const char*>(data);
    while (bytes > 0) {
      const ::ssize_t n = ::write(fd, p, bytes);
      if (n < 0 && errno == EINTR) continue;
      // Thrown inside produce(): the handler below closes and removes the temporary file.
      if (n <= 0) KT_THROW("kt::write_file_atomically: writing ", tmp, " (for ", path, ") failed: ", std::strerror(errno));
      p += n;
      bytes -= static_cast<std::size_t>(n);
    }
  };
  try {
    produce(write);
  } catch (const Error&) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  } catch (...) {
    fail("producing the contents of", "an exception");
  }
  if (::fsync(fd) != 0) fail("flushing", std::strerror(errno));
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

/// The same with the whole contents at once.
inline void write_file_atomically(const std::string& path, const std::string& contents) {
  write_file_atomically_with(path, [&](auto&& write) { write(contents.data(), contents.size()); });
}

}  // namespace kt
