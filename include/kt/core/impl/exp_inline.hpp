#pragma once
// kt::impl::exp_inline: exp of a float in straight-line arithmetic, so that a host loop over
// it vectorises. libm's expf is a call per element, and a loop that calls it stays scalar: in
// the cross-entropy of a 10-class output, those calls took about 1 µs of a 19 µs training
// step (docs/performance.md, "The cross-entropy's rows in vector lanes").
//
//   exp(x) = 2^k · exp(r),  k = round(x / ln 2),  r = x − k ln 2 in [−ln 2 / 2, ln 2 / 2]
//
// r is reduced in two parts (Cody and Waite: ln 2's leading part has few enough bits that
// k · ln2_hi is exact), exp(r) is Cephes' degree-7 polynomial, and 2^k is built from its bits
// in two factors, so that k from −150 to 128 gives subnormal results and infinity by the final
// products' own rounding. Every float, checked against double exp: at most 1.01 ulp from the
// exact value, 99.2% correctly rounded (tests/core/test_exp_inline.cpp sweeps every 509th).
// exp(−inf) = 0, exp(+inf) = inf, NaN stays NaN. No branches and no table: the same
// instructions for every lane.

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/bit_cast.hpp"

#include <Kokkos_Macros.hpp>

#include <cmath>
#include <cstdint>

namespace kt::impl {

/// 2^k for k in [−126, 127], from its exponent bits.
KOKKOS_INLINE_FUNCTION float exp2_int(std::int32_t k) {
  return bit_cast<float>(static_cast<std::uint32_t>(k + 127) << 23);
}

/// c ? a : b in bit operations. Written as a conditional, the compiler may branch around the
/// work that feeds one side, and a float-to-int conversion on the branch's path keeps the loop
/// from vectorising (it might trap, so it cannot run for every lane).
KOKKOS_INLINE_FUNCTION float select_bits(bool c, float a, float b) {
  const std::uint32_t mask = 0u - static_cast<std::uint32_t>(c);
  return bit_cast<float>((bit_cast<std::uint32_t>(a) & mask) | (bit_cast<std::uint32_t>(b) & ~mask));
}

KOKKOS_INLINE_FUNCTION float exp_inline(float x) {
  // Beyond these, exp is inf or below half the smallest subnormal; NaN fails both tests.
  float xc = select_bits(x < -104.0f, -104.0f, x);
  xc = select_bits(xc > 89.0f, 89.0f, xc);
  const float t = xc * 1.44269504088896341f;  // x / ln 2
  const std::int32_t k = static_cast<std::int32_t>(t + copysignf(0.5f, t));  // rounded
  const float kf = static_cast<float>(k);
  float r = xc - kf * 0.693359375f;  // ln 2 = 0.693359375 − 2.12194440e-4 (+ under 1e-11)
  r = r - kf * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * (r * r) + r + 1.0f;
  // k in [−150, 129]: two factors, each within exp2_int's range.
  const std::int32_t k1 = k >> 1;
  return select_bits(x != x, x, p * exp2_int(k1) * exp2_int(k - k1));
}

}  // namespace kt::impl
