#pragma once
// The bit-level conversions and limits of kt::bfloat16's format (kt/core/bfloat16.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/bit_cast.hpp"

#include <Kokkos_Macros.hpp>

#include <cstdint>
#include <limits>
#include <type_traits>

namespace kt {

namespace impl {

/// float -> bfloat16 bits, nearest-even; overflow gives +-Inf, NaN stays a (quiet) NaN.
KOKKOS_INLINE_FUNCTION std::uint16_t float_to_bfloat16_bits(float f) {
  const auto x = bit_cast<std::uint32_t>(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)  // NaN: keep sign and top payload, set the quiet bit
    return static_cast<std::uint16_t>((x >> 16) | 0x0040u);
  // Drop the low 16 bits with round-half-even: adding 0x7fff plus the lowest kept bit carries
  // exactly when above (or at an odd) tie. The carry may ripple into the exponent, which is
  // right, up to 0x7f80 = Inf for overflow; subnormals round the same way.
  return static_cast<std::uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

/// double -> bfloat16 bits, rounded once (never double -> float -> bfloat16).
KOKKOS_INLINE_FUNCTION std::uint16_t double_to_bfloat16_bits(double d) {
  constexpr std::uint64_t one = 1, mant_mask = (one << 52) - 1, inf = 0x7ff0000000000000u;
  const auto x = bit_cast<std::uint64_t>(d);
  const auto sign = static_cast<std::uint16_t>((x >> 48) & 0x8000u);
  const std::uint64_t ax = x & ~(one << 63);
  if (ax >= inf) {
    if (ax == inf) return static_cast<std::uint16_t>(sign | 0x7f80u);
    return static_cast<std::uint16_t>(sign | 0x7fc0u | ((ax >> 45) & 0x7fu));  // quiet NaN
  }
  // (2 - 2^-8) * 2^127 = max + half an ulp: the tie rounds to the "even" 2^128, i.e. to Inf.
  constexpr std::uint64_t overflow = (std::uint64_t(1023 + 127) << 52) | (std::uint64_t(0xff) << 44);
  if (ax >= overflow) return static_cast<std::uint16_t>(sign | 0x7f80u);
  if (ax >= (std::uint64_t(1023 - 126) << 52)) {  // normal bfloat16 (>= 2^-126)
    // Rebias the exponent and drop 45 bits with round-half-even (as in the float case).
    const std::uint64_t a = ax - (std::uint64_t(1023 - 127) << 52);
    return static_cast<std::uint16_t>(sign | ((a + ((one << 44) - 1) + ((a >> 45) & 1)) >> 45));
  }
  // Subnormal: at most 2^-134 (half the smallest subnormal) ties to even, i.e. to 0.
  if (ax <= (std::uint64_t(1023 - 134) << 52)) return sign;
  // value = m * 2^(e - 1075); in units of 2^-133 that is m >> (942 - e), shift in 46..53.
  const int e = static_cast<int>(ax >> 52);
  const std::uint64_t m = (ax & mant_mask) | (one << 52);
  const int s = 942 - e;
  std::uint64_t r = m >> s;
  const std::uint64_t rem = m & ((one << s) - 1), tie = one << (s - 1);
  if (rem > tie || (rem == tie && (r & 1))) ++r;  // r == 0x80 is the smallest normal: fine
  return static_cast<std::uint16_t>(sign | r);
}

/// An integer as a double that rounds to bfloat16 like the integer itself: exact up to 53
/// bits; wider values are rounded to odd at 53 bits (truncate, then set the last bit if
/// anything was lost), which makes the second rounding to 8 bits correct.
template <class I>
KOKKOS_INLINE_FUNCTION double integer_to_double_for_rounding(I i) {
  static_assert(std::numeric_limits<I>::digits <= 64, "kt::bfloat16: integers up to 64 bits");
  if constexpr (std::numeric_limits<I>::digits <= 53) {
    return static_cast<double>(i);
  } else {
    bool neg = false;
    if constexpr (std::is_signed_v<I>) neg = i < 0;
    std::uint64_t u = static_cast<std::uint64_t>(i);
    if (neg) u = 0 - u;  // magnitude, also for the most negative value
    int s = 0;
    while ((u >> s) >> 53) ++s;
    if (s > 0) u = ((u >> s) | ((u & ((std::uint64_t(1) << s) - 1)) != 0)) << s;
    const double d = static_cast<double>(u);  // exact: at most 53 significant bits
    return neg ? -d : d;
  }
}

/// The bfloat16 format for impl::Float16: its conversions and limits.
struct BFloat16Format {
  KOKKOS_INLINE_FUNCTION static std::uint16_t from_float(float f) { return float_to_bfloat16_bits(f); }
  KOKKOS_INLINE_FUNCTION static std::uint16_t from_double(double d) { return double_to_bfloat16_bits(d); }
  template <class I>
  KOKKOS_INLINE_FUNCTION static std::uint16_t from_integer(I i) {
    return double_to_bfloat16_bits(integer_to_double_for_rounding(i));
  }
  /// Exact: the bits shifted left by 16.
  KOKKOS_INLINE_FUNCTION static float to_float(std::uint16_t b) {
    return bit_cast<float>(static_cast<std::uint32_t>(b) << 16);
  }

  static constexpr bool is_iec559 = false;  // not an IEEE 754 interchange format
  static constexpr int digits = 8, digits10 = 2, max_digits10 = 4;
  static constexpr int min_exponent = -125, min_exponent10 = -37, max_exponent = 128, max_exponent10 = 38;
  static constexpr std::uint16_t min_bits = 0x0080;      // 2^-126
  static constexpr std::uint16_t max_bits = 0x7f7f;      // ~3.39e38
  static constexpr std::uint16_t epsilon_bits = 0x3c00;  // 2^-7
  static constexpr std::uint16_t one_half_bits = 0x3f00;
  static constexpr std::uint16_t infinity_bits = 0x7f80;
  static constexpr std::uint16_t quiet_nan_bits = 0x7fc0, signaling_nan_bits = 0x7fa0;
};

}  // namespace impl

}  // namespace kt
