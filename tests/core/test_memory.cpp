#include "kt_test.hpp"

#include <thread>
#include <vector>

namespace {
// Caching state is process-wide: restore it however a test case ends.
template <class D>
struct CachingGuard {
  bool saved = kt::caching_enabled<D>();
  explicit CachingGuard(bool enabled) { kt::set_caching_enabled<D>(enabled); }
  ~CachingGuard() { kt::set_caching_enabled<D>(saved); }
};
}  // namespace

TEST_CASE_TEMPLATE("memory_stats count bytes allocated and the peak", D, KT_DEVICES) {
  CachingGuard<D> guard(false);
  const auto before = kt::memory_stats<D>();
  {
    auto a = kt::empty<float, D>({1000});
    auto b = kt::empty<double, D>({10, 10});
    const auto during = kt::memory_stats<D>();
    CHECK(during.allocated - before.allocated == 4000 + 800);
    CHECK(during.num_allocs - before.num_allocs == 2);
    CHECK(during.peak_allocated >= during.allocated);
    auto shallow = a;                 // copies share storage: no allocation
    auto view = a.reshape({10, 100}); // views share storage too
    CHECK(kt::memory_stats<D>().num_allocs == during.num_allocs);
  }
  const auto after = kt::memory_stats<D>();
  CHECK(after.allocated == before.allocated);
  CHECK(after.peak_allocated >= before.allocated + 4800);
  kt::reset_peak_memory_stats<D>();
  CHECK(kt::memory_stats<D>().peak_allocated == after.allocated);
}

TEST_CASE_TEMPLATE("zero-size tensors allocate nothing", D, KT_DEVICES) {
  const auto before = kt::memory_stats<D>();
  auto t = kt::zeros<float, D>({0, 5});
  CHECK(t.numel() == 0);
  CHECK(t.data() == nullptr);
  CHECK(kt::memory_stats<D>().num_allocs == before.num_allocs);
}

TEST_CASE_TEMPLATE("the caching allocator serves repeated sizes without the system", D, KT_DEVICES) {
  CachingGuard<D> guard(true);
  { auto warm = kt::empty<float, D>({256, 784}); }  // one system allocation, then cached
  const auto before = kt::memory_stats<D>();
  CHECK(before.cached() >= 256 * 784 * sizeof(float));
  for (int step = 0; step < 100; ++step) {
    auto x = kt::empty<float, D>({256, 784});
    auto y = kt::empty<float, D>({256, 780});  // a nearby size lands in the same bin
  }
  const auto after = kt::memory_stats<D>();
  CHECK(after.num_system_allocs - before.num_system_allocs <= 1);
  CHECK(after.num_cache_hits - before.num_cache_hits >= 199);
  CHECK(after.reserved >= after.allocated);
  kt::empty_cache<D>();
  const auto emptied = kt::memory_stats<D>();
  CHECK(emptied.cached() == 0);
  CHECK(emptied.reserved == emptied.allocated);
}

TEST_CASE("caching is on by default and can be switched off") {
  CachingGuard<kt::Host> guard(true);
  CHECK(kt::caching_enabled<kt::Host>());
  kt::set_caching_enabled<kt::Host>(false);
  CHECK_FALSE(kt::caching_enabled<kt::Host>());
  CHECK(kt::memory_stats<kt::Host>().cached() == 0);  // turning it off empties the cache
}

TEST_CASE("size bins round up by at most 25% and keep small sizes in 512-byte steps") {
  CHECK(kt::impl::bin_size(1) == 512);
  CHECK(kt::impl::bin_size(512) == 512);
  CHECK(kt::impl::bin_size(513) == 1024);
  CHECK(kt::impl::bin_size(4096) == 4096);
  CHECK(kt::impl::bin_size(4097) == 5120);
  CHECK(kt::impl::bin_size(256 * 784 * 4) == kt::impl::bin_size(256 * 780 * 4));
  for (std::size_t bytes = 4097; bytes < (std::size_t(1) << 32); bytes = bytes * 3 + 7) {
    const std::size_t bin = kt::impl::bin_size(bytes);
    CHECK(bin >= bytes);
    CHECK(double(bin) <= 1.25 * double(bytes));
  }
}

TEST_CASE_TEMPLATE("out of memory raises kt::Error naming request, usage and space", D, KT_DEVICES) {
  for (bool caching : {false, true}) {
    CachingGuard<D> guard(caching);
    const auto before = kt::memory_stats<D>();
    // 2^48 floats = 1 PiB: more than any machine has.
    const std::string message = kt_test::error_of([] { kt::empty<float, D>({std::int64_t(1) << 48}); });
    CHECK(message.find("kt: out of memory in " + kt::device_info<D>().memory_space) != std::string::npos);
    CHECK(message.find("1.00 PiB (1125899906842624 bytes)") != std::string::npos);
    CHECK(message.find("currently allocated") != std::string::npos);
    CHECK(message.find("reserved") != std::string::npos);
    CHECK(kt::memory_stats<D>().num_oom == before.num_oom + 1);
    CHECK(kt::memory_stats<D>().allocated == before.allocated);
    // The process stays usable.
    auto t = kt::ones<float, D>({1000});
    CHECK(t.to_vector()[999] == 1.0f);
  }
}

TEST_CASE("sizes beyond the address space raise kt::Error before allocating") {
  const std::string message =
      kt_test::error_of([] { kt::empty<double, kt::Host>({std::int64_t(1) << 62}); });
  CHECK(message.find("exceed the address space") != std::string::npos);
  CHECK(kt_test::error_of([] { kt::Shape({std::int64_t(1) << 40, std::int64_t(1) << 40}); })
            .find("overflows 64 bits") != std::string::npos);
}

TEST_CASE("the allocator is safe to use from several threads") {
  CachingGuard<kt::Host> guard(true);
  const auto before = kt::memory_stats<kt::Host>();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t] {
      for (int i = 0; i < 200; ++i) {
        auto x = kt::empty<float, kt::Host>({64 + 64 * ((i + t) % 5)});
      }
    });
  for (auto& thread : threads) thread.join();
  const auto after = kt::memory_stats<kt::Host>();
  CHECK(after.allocated == before.allocated);
  CHECK(after.num_allocs - before.num_allocs == 800);
}
