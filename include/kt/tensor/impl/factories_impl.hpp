#pragma once
// Argument checks of kt/tensor/factories.hpp.

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"

#include <cmath>
#include <cstdint>

namespace kt::impl {

/// The number of values of arange(start, end, step), checked: finite arguments, a step that
/// moves toward end, and a count that fits in int64.
inline std::int64_t arange_count(double start, double end, double step) {
  KT_REQUIRE(step != 0 && std::isfinite(step), "kt::arange: step must be finite and non-zero, got ", step);
  KT_REQUIRE(std::isfinite(start) && std::isfinite(end), "kt::arange: bounds must be finite, got [", start,
             ", ", end, ")");
  KT_REQUIRE((end - start) * step >= 0, "kt::arange: step ", step, " moves away from end: [", start, ", ",
             end, ")");
  const double count = std::ceil((end - start) / step);
  KT_REQUIRE(count < 9.2e18, "kt::arange: [", start, ", ", end, ") in steps of ", step, " has ", count,
             " values, more than a tensor can hold");
  return static_cast<std::int64_t>(count);
}

}  // namespace kt::impl
