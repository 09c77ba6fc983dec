// kt::write_file_atomically: a regular file is replaced whole; a path naming something else —
// a FIFO here, /dev/null in practice (`--summary /dev/null`) — is written directly and stays
// what it was (renaming a temporary file over /dev/null would replace the device); a symbolic
// link stays a link and its target gets the contents.

#include "kt_test.hpp"

#include <kt/core/atomic_file.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

std::string scratch_dir() {
  const fs::path dir = fs::temp_directory_path() / ("kt_atomic_file_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("write_file_atomically replaces files whole, writes into FIFOs and follows symbolic links") {
  const std::string dir = scratch_dir();
  const std::string file = dir + "/run.json";
  kt::write_file_atomically(file, "first");
  kt::write_file_atomically(file, "second");
  CHECK(contents(file) == "second");

  // A FIFO (like /dev/null, not a regular file): written into, still a FIFO afterwards. The
  // reader opens first, non-blocking, so the writer's open never waits.
  const std::string fifo = dir + "/fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  REQUIRE(reader >= 0);
  kt::write_file_atomically(fifo, "through the pipe");
  char buffer[64] = {};
  const ::ssize_t n = ::read(reader, buffer, sizeof(buffer));
  ::close(reader);
  CHECK(std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0) == "through the pipe");
  CHECK(fs::is_fifo(fs::symlink_status(fifo)));

  // A symbolic link: the link stays, its target is replaced.
  const std::string link = dir + "/latest.json";
  fs::create_symlink(file, link);
  kt::write_file_atomically(link, "third");
  CHECK(fs::is_symlink(fs::symlink_status(link)));
  CHECK(contents(file) == "third");
  fs::remove_all(dir);
}
