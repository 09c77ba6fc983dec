#pragma once
// Philox4x32-10 (Salmon, Moraes, Dror & Shaw, "Parallel Random Numbers: As Easy as 1, 2, 3",
// SC'11): a counter-based generator, so element i's random bits depend only on (seed, i) —
// the same on Serial, OpenMP at any thread count, and Cuda.

#include "kt/core/impl/internal.hpp"

#include "kt/tensor/generator.hpp"

#include <Kokkos_Macros.hpp>

#include <cstdint>

namespace kt::impl {

struct Philox4x32 {
  std::uint32_t v[4];
};

KOKKOS_INLINE_FUNCTION void mulhilo32(std::uint32_t a, std::uint32_t b, std::uint32_t& hi,
                                      std::uint32_t& lo) {
  const std::uint64_t product = static_cast<std::uint64_t>(a) * b;
  hi = static_cast<std::uint32_t>(product >> 32);
  lo = static_cast<std::uint32_t>(product);
}

/// Ten rounds of Philox4x32 on `counter` under `key` (the Random123 reference function).
KOKKOS_INLINE_FUNCTION Philox4x32 philox4x32_10(Philox4x32 counter, std::uint32_t key0,
                                                std::uint32_t key1) {
  constexpr std::uint32_t m0 = 0xD2511F53u, m1 = 0xCD9E8D57u;  // multipliers
  constexpr std::uint32_t w0 = 0x9E3779B9u, w1 = 0xBB67AE85u;  // Weyl key increments
  for (int round = 0; round < 10; ++round) {
    std::uint32_t hi0, lo0, hi1, lo1;
    mulhilo32(m0, counter.v[0], hi0, lo0);
    mulhilo32(m1, counter.v[2], hi1, lo1);
    counter = Philox4x32{{hi1 ^ counter.v[1] ^ key0, lo1, hi0 ^ counter.v[3] ^ key1, lo0}};
    key0 += w0;
    key1 += w1;
  }
  return counter;
}

/// The four 32-bit words for block `block` of stream `offset` under `seed`.
KOKKOS_INLINE_FUNCTION Philox4x32 philox_block(std::uint64_t seed, std::uint64_t offset,
                                               std::uint64_t block) {
  const Philox4x32 counter{{static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(block >> 32),
                            static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(offset >> 32)}};
  return philox4x32_10(counter, static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
}

/// A 64-bit seed drawn from `gen` (the first block of its next stream): how a layer that was
/// given no seed takes one from kt::default_generator().
inline std::uint64_t draw_seed(Generator& gen) {
  const Philox4x32 r = philox_block(gen.seed(), gen.next_offset(), 0);
  return (static_cast<std::uint64_t>(r.v[0]) << 32) | r.v[1];
}

/// Uniform float in [0, 1) from the top 24 bits (every value a multiple of 2^-24).
KOKKOS_INLINE_FUNCTION float uniform_float(std::uint32_t x) {
  return static_cast<float>(x >> 8) * (1.0f / 16777216.0f);
}

/// Uniform double in [0, 1) from 53 bits of two words.
KOKKOS_INLINE_FUNCTION double uniform_double(std::uint32_t a, std::uint32_t b) {
  const std::uint64_t bits = (static_cast<std::uint64_t>(a >> 5) << 26) | (b >> 6);
  return static_cast<double>(bits) * (1.0 / 9007199254740992.0);
}

}  // namespace kt::impl
