#pragma once
/// \file kt/core/memory_stats.hpp
/// The counters kt keeps for each memory space (see kt/core/memory.hpp).

#include <cstddef>
#include <cstdint>
#include <ostream>

namespace kt {

/// Byte counts and event counts of one memory space.
struct MemoryStats {
  std::size_t allocated = 0;       ///< bytes held by live tensors (`memory_allocated`)
  std::size_t reserved = 0;        ///< bytes taken from the system: allocated + cached (`memory_reserved`)
  std::size_t peak_allocated = 0;  ///< highest `allocated` since start or the last reset
  std::size_t peak_reserved = 0;   ///< highest `reserved` since start or the last reset
  std::uint64_t num_allocs = 0;         ///< allocation requests served
  std::uint64_t num_system_allocs = 0;  ///< requests that reached the underlying allocator
  std::uint64_t num_cache_hits = 0;     ///< requests served from the cache
  std::uint64_t num_oom = 0;            ///< requests that failed for lack of memory

  /// Bytes held by the cache, ready for reuse.
  std::size_t cached() const { return reserved - allocated; }
};

inline std::ostream& operator<<(std::ostream& os, const MemoryStats& s) {
  return os << "allocated=" << s.allocated << " reserved=" << s.reserved
            << " peak_allocated=" << s.peak_allocated << " peak_reserved=" << s.peak_reserved
            << " allocs=" << s.num_allocs << " system_allocs=" << s.num_system_allocs
            << " cache_hits=" << s.num_cache_hits << " oom=" << s.num_oom;
}

}  // namespace kt
