#pragma once
// The host's physical memory, for kt::device_info.

#include "kt/core/impl/internal.hpp"

#include <cstddef>
#include <unistd.h>

namespace kt {

namespace impl {
inline std::size_t host_physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : 0;
}
}  // namespace impl

}  // namespace kt
