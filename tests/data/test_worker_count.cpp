#include "kt_test.hpp"

#include <kt/data/worker_count.hpp>

#if defined(__linux__)
#include <sched.h>

namespace {

// Restricts this thread to the first `cores` CPUs of its mask for its lifetime.
class AffinityScope {
public:
  explicit AffinityScope(int cores) {
    sched_getaffinity(0, sizeof(saved_), &saved_);
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu = 0, kept = 0; cpu < CPU_SETSIZE && kept < cores; ++cpu)
      if (CPU_ISSET(cpu, &saved_)) CPU_SET(cpu, &set), ++kept;
    sched_setaffinity(0, sizeof(set), &set);
  }
  ~AffinityScope() { sched_setaffinity(0, sizeof(saved_), &saved_); }

private:
  cpu_set_t saved_;
};

}  // namespace

TEST_CASE("the host cores kt counts are the process' affinity mask, not the machine's") {
  const int all = kt::impl::available_host_cores();
  CHECK(all >= 1);
  {
    const AffinityScope one(1);
    CHECK(kt::impl::available_host_cores() == 1);
  }
  CHECK(kt::impl::available_host_cores() == all);
}

TEST_CASE_TEMPLATE("recommended loader workers: the cores the device leaves free, at most 2", D, KT_DEVICES) {
  {
    const AffinityScope one(1);  // the device's thread(s) take the only core
    CHECK(kt::recommended_num_workers<D>() == 0);
  }
  if constexpr (std::is_same_v<D, kt::Serial>) {  // one compute thread
    const int all = kt::impl::available_host_cores();
    if (all >= 2) {
      const AffinityScope two(2);
      CHECK(kt::recommended_num_workers<D>() == 1);
    }
    if (all >= 4) {
      const AffinityScope four(4);
      CHECK(kt::recommended_num_workers<D>() == 2);  // the cap
    }
  }
}
#endif
