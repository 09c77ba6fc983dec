#pragma once
// The host cores this process may run on: its CPU affinity mask (what taskset, cgroups' cpusets,
// srun --cpus-per-task and mpirun's binding leave it), not the machine's core count.

#include "kt/core/impl/internal.hpp"

#include <algorithm>
#include <thread>

#if defined(__linux__)
#include <sched.h>
#endif

namespace kt::impl {

inline int available_host_cores() {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
#endif
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

}  // namespace kt::impl
