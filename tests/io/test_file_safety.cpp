// kt's files as a cluster job meets them: a reader while another process replaces the file,
// a file cut after it was opened, saves killed at random moments, the folder flushed after
// the rename, and paths that are not files at all (a FIFO without a writer, /dev/zero).

#include "kt_test.hpp"
#include "io/io_files.hpp"

#include <kt/io/module_io.hpp>
#include <kt/io/safetensors.hpp>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace kt_test::io_files;
namespace fs = std::filesystem;

// fsync as kt calls it, observed: this definition takes the place of libc's for the whole
// test program and forwards to the system call. While `watched_file` is set, every fsync of
// a folder records that folder and whether the watched file already held its new contents.
namespace {
std::atomic<bool> watching{false};
std::string watched_file, watched_contents;
std::vector<std::pair<std::string, bool>> folder_syncs;  // (folder, new contents in place)
}  // namespace

extern "C" int fsync(int fd) {
  if (watching.load()) {
    struct ::stat st {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
      char target[PATH_MAX] = {};
      const std::string link = "/proc/self/fd/" + std::to_string(fd);
      const ::ssize_t n = ::readlink(link.c_str(), target, sizeof(target) - 1);
      folder_syncs.emplace_back(n > 0 ? std::string(target, static_cast<std::size_t>(n)) : std::string(),
                                read_all(watched_file) == watched_contents);
    }
  }
  return static_cast<int>(::syscall(SYS_fsync, fd));
}

namespace {

/// The bytes of a safetensors file of `count` U8 tensors of `bytes` each, every byte `tag`,
/// with metadata {"tag": tag}.
std::string tagged_file(char tag, int count, std::int64_t bytes) {
  kt::io::NamedTensors t;
  for (int i = 0; i < count; ++i) t.add("t" + std::to_string(i), kt::full<std::uint8_t, kt::Host>({bytes}, std::uint8_t(tag)));
  const auto path = scratch(std::string("tagged_") + tag + ".safetensors");
  kt::io::save_safetensors(path, t, {{"tag", std::string(1, tag)}});
  return read_all(path);
}

/// Runs `body` in a child process until the parent kills it; returns its pid. The child only
/// writes files (no Kokkos, no doctest) and never returns.
template <class Body>
::pid_t spawn(Body body) {
  const ::pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    try {
      for (;;) body();
    } catch (...) {
    }
    ::_exit(0);
  }
  return pid;
}

void stop(::pid_t pid) {
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
}

int temporaries_of(const std::string& path) {
  int n = 0;
  const std::string prefix = fs::path(path).filename().string() + ".tmp";
  for (const auto& e : fs::directory_iterator(fs::path(path).parent_path()))
    n += e.path().filename().string().rfind(prefix, 0) == 0;
  return n;
}

}  // namespace

TEST_CASE("a SafetensorsFile reads every tensor from the file it opened while another process replaces it") {
  const std::string a = tagged_file('A', 8, 1 << 16), b = tagged_file('B', 8, 1 << 16);
  const auto path = scratch("replaced.safetensors");
  write_all(path, a);
  const ::pid_t writer = spawn([&, flip = false]() mutable {
    kt::write_file_atomically(path, (flip = !flip) ? b : a);
  });
  int mixed = 0, errors = 0, rounds = 0;
  for (; rounds < 300; ++rounds) {
    try {
      const auto file = kt::io::load_safetensors(path);
      const auto tag = static_cast<std::uint8_t>(file.metadata().at("tag")[0]);
      bool same = true;
      for (const auto& name : file.names())
        for (const std::uint8_t v : file.get<std::uint8_t>(name).to_vector()) same = same && v == tag;
      mixed += !same;
    } catch (const kt::Error& e) {
      ++errors;
      MESSAGE(e.message());
    }
  }
  stop(writer);
  CHECK(rounds == 300);
  CHECK(mixed == 0);
  CHECK(errors == 0);
}

TEST_CASE_TEMPLATE("a strict load from a file cut after it was opened changes nothing", D, KT_DEVICES) {
  const auto make = [](std::uint64_t seed) {
    kt::nn::Sequential<float, D> m;
    m.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(16, 32).seed(seed)));
    m.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(32, 4).seed(seed + 1)));
    return m;
  };
  const auto path = scratch("cut_after_open.safetensors");
  kt::io::save(make(1), path);
  auto model = make(7);
  std::vector<std::vector<float>> before;
  for (const auto& p : model.parameters()) before.push_back(p.data().to_vector());
  const auto file = kt::io::load_safetensors(path);
  fs::resize_file(path, fs::file_size(path) - 300);
  const std::string error = kt_test::error_of([&] { kt::io::load(model, file); });
  CHECK(error.find("cannot read tensor '1.weight'") != std::string::npos);
  for (std::size_t i = 0; i < before.size(); ++i) CHECK(model.parameters()[i].data().to_vector() == before[i]);
}

TEST_CASE("a save killed at any moment leaves the old or the new file, and no temporary once the next save ran") {
  const fs::path dir = scratch("killed");
  fs::create_directories(dir);
  const std::string path = (dir / "run.safetensors").string();
  const std::string payload(std::size_t{4} << 20, 'p');
  std::mt19937 rng(5);
  int left_behind = 0;
  for (int round = 0; round < 60; ++round) {
    const ::pid_t saver = spawn([&] { kt::write_file_atomically(path, payload); });
    ::usleep(std::uniform_int_distribution<unsigned>(0, 4000)(rng));
    stop(saver);
    if (fs::exists(path)) CHECK(fs::file_size(path) == payload.size());
    left_behind = std::max(left_behind, temporaries_of(path));
  }
  MESSAGE("most temporaries found after a kill: ", left_behind);
  kt::write_file_atomically(path, "final");
  CHECK(read_all(path) == "final");
  CHECK(temporaries_of(path) == 0);
  // A dead process's temporary goes with the next save (where unnamed temporaries are not
  // available, that is how killed saves are cleaned up); another process's live one stays.
  const ::pid_t dead = ::fork();
  REQUIRE(dead >= 0);
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  const std::string stale = kt::impl::temporary_name(path, static_cast<long>(dead));
  write_all(stale, "killed mid-save");
  kt::write_file_atomically(path, "final");
  CHECK_FALSE(fs::exists(stale));
  const std::string live = kt::impl::temporary_name(path, static_cast<long>(::getppid()));
  write_all(live, "in progress");
  kt::write_file_atomically(path, "again");
  CHECK(fs::exists(live));
  fs::remove(live);
}

TEST_CASE("a save flushes the folder after the rename, so the new name survives a power loss") {
  const fs::path dir = scratch("durable");
  fs::create_directories(dir);
  watched_file = (dir / "model.safetensors").string();
  watched_contents = "new contents";
  folder_syncs.clear();
  watching = true;
  kt::write_file_atomically(watched_file, watched_contents);
  watching = false;
  REQUIRE(folder_syncs.size() == 1);
  CHECK(folder_syncs[0].first == fs::canonical(dir).string());
  CHECK(folder_syncs[0].second);  // after the rename
}

TEST_CASE("the readers refuse FIFOs and devices before they could block, and read_csv caps what it reads") {
  ::alarm(60);  // a reader that blocks on the FIFO fails the test instead of hanging the suite
  const auto fifo = scratch("no_writer.fifo");
  ::unlink(fifo.c_str());
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto refused = [](const std::string& error, const std::string& what) {
    INFO(error);
    return error.find(what) != std::string::npos;
  };
  for (const std::string& path : {fifo, std::string("/dev/zero")}) {
    const std::string what = path == fifo ? "' is a FIFO (named pipe), not a file" : "' is a character device, not a file";
    CHECK(refused(kt_test::error_of([&] { (void)kt::read_csv(path); }), "kt::read_csv: '" + path + what));
    CHECK(refused(kt_test::error_of([&] { (void)kt::read_idx(path); }), "kt::read_idx: '" + path + what));
    CHECK(refused(kt_test::error_of([&] { (void)kt::io::load_safetensors(path); }),
                  "kt::io::load_safetensors: '" + path + what));
  }
  ::alarm(0);
  const auto csv = scratch("big.csv");
  write_all(csv, "x,y\n1,0\n2,1\n");
  CHECK(kt::read_csv(csv).targets.numel() == 2);
  CHECK(refused(kt_test::error_of([&] { (void)kt::read_csv(csv, kt::CsvOptions().max_bytes(8)); }),
                "kt::read_csv: '" + csv + "' has 12 bytes, over the limit of 8 bytes (raise it with kt::CsvOptions().max_bytes(n))"));
  CHECK(kt::CsvOptions().max_bytes() == kt::IdxOptions().max_bytes());
}
