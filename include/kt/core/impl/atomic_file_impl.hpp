#pragma once
// The pieces of kt::write_file_atomically. A new file is written where no reader can see it,
// flushed, then put in place by one rename(), and the rename itself is flushed by an fsync of
// the folder (without it a power loss can keep the old name).
//
// Where the file system has O_TMPFILE (Linux: ext4, xfs, btrfs, tmpfs) the temporary file
// has no name while it is written: a process killed meanwhile leaves nothing behind. It gets
// a name (`<target>.tmp.<host>.<pid>`) only for the instant between linkat() and rename().
// Elsewhere (NFS, older kernels) the named temporary is written directly. Either way a save
// first removes the temporaries of its own target left by dead processes of this host: the
// pid in the name says whose it is, the host name keeps a save from removing the live
// temporary of another node that shares the folder.

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kt::impl {

/// Writes all `bytes` to `fd`; false (with errno set) on failure.
inline bool write_all_fd(int fd, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ::ssize_t n = ::write(fd, p, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    p += n;
    bytes -= static_cast<std::size_t>(n);
  }
  return true;
}

/// This machine's name as it may appear in a file name ('/' and the like replaced).
inline std::string host_tag() {
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0 || name[0] == '\0') return "host";
  std::string out(name);
  for (char& c : out)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')) c = '_';
  return out;
}

/// The name a temporary of `path` takes in process `pid` of this host.
inline std::string temporary_name(const std::string& path, long pid) {
  return path + ".tmp." + host_tag() + "." + std::to_string(pid);
}

/// Removes `<path>.tmp.<this host>.<pid>` files whose process no longer runs (a save killed
/// before its rename). Live processes' temporaries, other hosts' and other names stay.
inline void remove_stale_temporaries(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string prefix = target.filename().string() + ".tmp." + host_tag() + ".";
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = name.substr(prefix.size());
    if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const long pid = std::strtol(digits.c_str(), nullptr, 10);
    if (pid <= 0 || pid == static_cast<long>(::getpid())) continue;
    if (::kill(static_cast<::pid_t>(pid), 0) != 0 && errno == ESRCH) ::unlink(it->path().c_str());
  }
}

/// Flushes the folder holding `path` so that a rename into it survives a power loss. File
/// systems that cannot sync a folder (EINVAL) are left alone.
inline void sync_folder_of(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const std::string folder = target.has_parent_path() ? target.parent_path().string() : std::string(".");
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  KT_REQUIRE(fd >= 0, "kt::write_file_atomically: ", path, " is in place, but its folder cannot be opened to flush "
             "the new name: ", std::strerror(errno));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  KT_REQUIRE(rc == 0 || err == EINVAL, "kt::write_file_atomically: ", path, " is in place, but flushing its folder "
             "failed (the new name may not survive a power loss): ", std::strerror(err));
}

/// A file being written for `path`: unnamed (O_TMPFILE) where the file system allows, else
/// under temporary_name(path, pid). Removed unless publish() ran.
class PendingFile {
public:
  explicit PendingFile(std::string path) : path_(std::move(path)), temp_(temporary_name(path_, ::getpid())) {
    namespace fs = std::filesystem;
    const fs::path target(path_);
    const std::string folder = target.has_parent_path() ? target.parent_path().string() : std::string(".");
#ifdef O_TMPFILE
    fd_ = ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
    if (fd_ >= 0) {
      // The unnamed file must be linkable: /proc gives its name (without it, linkat needs
      // CAP_DAC_READ_SEARCH); when neither is there, write a named temporary instead.
      if (::access(("/proc/self/fd/" + std::to_string(fd_)).c_str(), F_OK) == 0 || ::geteuid() == 0) {
        named_ = false;
        return;
      }
      ::close(fd_);
    }
#endif
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    KT_REQUIRE(fd_ >= 0, "kt::write_file_atomically: cannot create ", temp_, ": ", std::strerror(errno));
  }
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  ~PendingFile() {
    if (fd_ >= 0) ::close(fd_);
    if (named_ && !published_) ::unlink(temp_.c_str());
  }

  /// Appends bytes; kt::Error naming the file and the system's reason.
  void write(const void* data, std::size_t bytes) {
    if (!write_all_fd(fd_, data, bytes)) fail("writing", std::strerror(errno));
  }

  /// Flushes the data, names the file `path` in one rename(), and flushes the folder.
  void publish() {
    if (::fsync(fd_) != 0) fail("flushing", std::strerror(errno));
    if (!named_) link_temporary();
    const int rc = ::close(fd_);
    fd_ = -1;
    if (rc != 0) fail("closing", std::strerror(errno));
    std::error_code ec;
    std::filesystem::rename(temp_, path_, ec);
    if (ec) {
      ::unlink(temp_.c_str());
      published_ = true;  // nothing left to remove
      KT_THROW("kt::write_file_atomically: cannot rename ", temp_, " to ", path_, ": ", ec.message());
    }
    published_ = true;
    sync_folder_of(path_);
  }

private:
  [[noreturn]] void fail(const char* what, const std::string& reason) const {
    KT_THROW("kt::write_file_atomically: ", what, " ", named_ ? temp_ : "the temporary file", " (for ", path_,
             ") failed: ", reason);
  }
  void link_temporary() {
    ::unlink(temp_.c_str());  // a stale file of a recycled pid
    const std::string self = "/proc/self/fd/" + std::to_string(fd_);
    int rc = ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, temp_.c_str(), AT_SYMLINK_FOLLOW);
#ifdef AT_EMPTY_PATH
    if (rc != 0) rc = ::linkat(fd_, "", AT_FDCWD, temp_.c_str(), AT_EMPTY_PATH);
#endif
    if (rc != 0) fail("naming", std::strerror(errno));
    named_ = true;
  }
  std::string path_, temp_;
  int fd_ = -1;
  bool named_ = true, published_ = false;
};

/// Writes `produce`'s bytes straight into an existing non-regular file (a device, a FIFO).
template <class Produce>
void write_file_directly(const std::string& path, Produce& produce) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  KT_REQUIRE(fd >= 0, "kt::write_file_atomically: cannot open ", path, ": ", std::strerror(errno));
  const auto write = [&](const void* data, std::size_t bytes) {
    if (!write_all_fd(fd, data, bytes)) KT_THROW("kt::write_file_atomically: writing ", path, " failed: ", std::strerror(errno));
  };
  try {
    produce(write);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

}  // namespace kt::impl
