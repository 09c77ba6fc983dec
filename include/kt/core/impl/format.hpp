#pragma once
// Small formatting helpers for error messages.

#include "kt/core/impl/internal.hpp"

#include <cstddef>
#include <cstdio>
#include <string>

namespace kt::impl {

/// "1.50 MiB (1572864 bytes)": readable and exact.
inline std::string format_bytes(std::size_t bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 6) {
    value /= 1024.0;
    ++unit;
  }
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "%.2f %s (%zu bytes)", value, units[unit], bytes);
  return buffer;
}

}  // namespace kt::impl
