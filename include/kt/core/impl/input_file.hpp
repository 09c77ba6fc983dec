#pragma once
// The readers' way into a file: opened without blocking, then refused unless it is a regular
// file. A FIFO without a writer would block open() forever, a character device such as
// /dev/zero never ends, and a directory reads as empty: each is a kt::Error naming what the
// path is. The descriptor then serves positioned reads (pread), so one reader sees one file
// whatever happens to the path meanwhile (a rename over it, a deletion).

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"

#include <cerrno>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kt::impl {

/// What a non-regular file is, for an error message.
inline const char* file_kind(::mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

/// An open regular file (read-only), shared by the readers; closes on destruction.
class InputFile {
public:
  /// Opens `path`; kt::Error "<who>: '<shown>' is a FIFO (named pipe), not a file" and the
  /// like for anything but a regular file, before anything could block on it.
  InputFile(const std::string& path, const std::string& shown, const char* who) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    KT_REQUIRE(fd_ >= 0, who, ": cannot open '", shown, "': ", std::strerror(errno));
    struct ::stat st {};
    if (::fstat(fd_, &st) != 0) {
      const int err = errno;
      ::close(fd_);
      KT_THROW(who, ": cannot stat '", shown, "': ", std::strerror(err));
    }
    if (!S_ISREG(st.st_mode)) {
      ::close(fd_);
      KT_THROW(who, ": '", shown, "' is ", file_kind(st.st_mode), ", not a file");
    }
    ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
    size_ = static_cast<std::uint64_t>(st.st_size);
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile() {
    if (fd_ >= 0) ::close(fd_);
  }

  int fd() const { return fd_; }
  /// Hands the descriptor over (to fdopen): the caller closes it.
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  /// The size when opened.
  std::uint64_t size() const { return size_; }
  /// Reads up to `n` bytes at `offset`; returns how many (fewer only at the end of the file).
  /// -1 with errno set on a read error.
  std::int64_t read_at(void* dst, std::uint64_t n, std::uint64_t offset) const {
    auto* out = static_cast<char*>(dst);
    std::uint64_t total = 0;
    while (total < n) {
      const std::uint64_t want = std::min<std::uint64_t>(n - total, std::uint64_t{1} << 30);
      const ::ssize_t got = ::pread(fd_, out + total, want, static_cast<::off_t>(offset + total));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return -1;
      if (got == 0) break;
      total += static_cast<std::uint64_t>(got);
    }
    return static_cast<std::int64_t>(total);
  }

private:
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

}  // namespace kt::impl
