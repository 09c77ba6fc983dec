#pragma once
/// \file kt/core/profile_row.hpp
/// What kt::Profiler reports (kt/core/profiler.hpp): one row per name, kind and device.

#include <cstdint>
#include <string>

namespace kt {

/// One line of kt::Profiler::key_averages(): every event of one name, kind and device.
struct ProfileRow {
  std::string name;
  std::string kind;    // "region" (kt ops and your kt::ScopedRegion), "kernel", "copy", "fence" (a host
                       // wait of kt's: item(), to_vector(), a blocking copy, kt::synchronize())
  std::string device;  // kernels: "Serial", "OpenMP", "Cuda"; copies: "Host->Cuda"; fences: the memory
                       // space waited for ("CudaSpace", "HostSpace"); regions: ""
  std::int64_t count = 0;
  double total_ms = 0, self_ms = 0;  // self: total minus what ran inside it (regions)
  double avg_us = 0, min_us = 0, max_us = 0;
  std::uint64_t bytes = 0;  // copies
};

/// The order of Profiler::table(): by total time, self time or number of calls (descending).
enum class ProfileSort { Total, Self, Count };

}  // namespace kt
