#pragma once
// Seeded random permutations for shuffling and random_split: Fisher-Yates driven by kt's
// Philox generator, so a (seed, stream) pair gives the same order on every machine.

#include "kt/core/impl/internal.hpp"

#include "kt/tensor/impl/philox.hpp"

#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace kt::impl {

/// Draws uniform integers in [0, bound) from Philox stream `stream` of `seed`.
class PhiloxDraws {
public:
  PhiloxDraws(std::uint64_t seed, std::uint64_t stream) : seed_(seed), stream_(stream) {}

  std::uint32_t next32() {
    if (used_ == 4) {
      block_ = philox_block(seed_, stream_, counter_++);
      used_ = 0;
    }
    return block_.v[used_++];
  }

  /// Uniform in [0, bound), bound > 0, without modulo bias (Lemire's multiply-shift with
  /// rejection; one 32-bit draw per value below 2^32, two above).
  std::uint64_t below(std::uint64_t bound) {
    if (bound <= UINT32_MAX) {
      const auto b = static_cast<std::uint32_t>(bound);
      const std::uint32_t threshold = static_cast<std::uint32_t>(-b) % b;
      while (true) {
        const std::uint64_t m = std::uint64_t{next32()} * b;
        if (static_cast<std::uint32_t>(m) >= threshold) return m >> 32;
      }
    }
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    std::uint64_t x;
    do x = (std::uint64_t{next32()} << 32) | next32();
    while (x >= limit);
    return x % bound;
  }

private:
  std::uint64_t seed_, stream_, counter_ = 0;
  Philox4x32 block_{};
  int used_ = 4;
};

/// 0..n-1 in a random order determined by (seed, stream).
inline std::vector<std::int64_t> permutation(std::int64_t n, std::uint64_t seed, std::uint64_t stream) {
  std::vector<std::int64_t> order(static_cast<std::size_t>(n > 0 ? n : 0));
  std::iota(order.begin(), order.end(), std::int64_t{0});
  PhiloxDraws draws(seed, stream);
  for (std::size_t i = order.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(draws.below(i));
    std::swap(order[i - 1], order[j]);
  }
  return order;
}

}  // namespace kt::impl
