#pragma once
// The lengths of kt::random_split (kt/data/subset.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace kt::impl {

/// Lengths from `sizes`: exact lengths summing to n, or fractions summing to 1 (the
/// remainder of the rounding goes one sample at a time to the first parts, as in PyTorch).
inline std::vector<std::int64_t> split_lengths(const std::vector<double>& sizes, std::int64_t n) {
  KT_REQUIRE(!sizes.empty(), "kt::random_split: no lengths given");
  double sum = 0;
  bool integral = true, fractions = true;
  for (double s : sizes) {
    KT_REQUIRE(std::isfinite(s) && s >= 0, "kt::random_split: lengths must be non-negative, got ", s);
    sum += s;
    integral = integral && s == std::floor(s);
    fractions = fractions && s <= 1;
  }
  std::vector<std::int64_t> lengths;
  if (integral && static_cast<std::int64_t>(sum) == n) {
    for (double s : sizes) lengths.push_back(static_cast<std::int64_t>(s));
    return lengths;
  }
  KT_REQUIRE(fractions && std::abs(sum - 1) < 1e-6, "kt::random_split: the lengths sum to ", sum,
             " but the dataset has ", n, " samples (give lengths that sum to ", n,
             " or fractions that sum to 1)");
  std::int64_t total = 0;
  for (double s : sizes) {
    lengths.push_back(static_cast<std::int64_t>(std::floor(s * static_cast<double>(n))));
    total += lengths.back();
  }
  for (std::size_t i = 0; total < n; i = (i + 1) % lengths.size(), ++total) ++lengths[i];
  return lengths;
}

}  // namespace kt::impl
