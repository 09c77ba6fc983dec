#pragma once
// The bit-level conversions and limits of kt::half's format (kt/core/half.hpp).

#include "kt/core/impl/bit_cast.hpp"

#include <Kokkos_Macros.hpp>

#include <cstdint>
#include <limits>
#include <type_traits>

namespace kt {

namespace impl {

/// Rounds the IEEE value with bit pattern `x` (`UInt` = uint32_t for float, uint64_t for
/// double; `Mant` mantissa bits, exponent `Bias`) to binary16 bits, nearest-even. Directly
/// from double, so a double is rounded once (never double -> float -> half).
template <class UInt, int Mant, int Bias>
KOKKOS_INLINE_FUNCTION std::uint16_t round_to_half_bits(UInt x) {
  constexpr int bits = static_cast<int>(sizeof(UInt)) * 8;
  constexpr UInt one = 1;
  constexpr UInt mant_mask = (one << Mant) - 1;
  const auto sign = static_cast<std::uint16_t>((x >> (bits - 16)) & 0x8000u);
  const UInt ax = x & ~(one << (bits - 1));
  constexpr UInt inf = (~UInt(0) >> 1) & ~mant_mask;  // exponent all ones
  if (ax >= inf) {
    if (ax == inf) return static_cast<std::uint16_t>(sign | 0x7c00u);
    // NaN: keep the sign and the top payload bits, set the quiet bit.
    return static_cast<std::uint16_t>(sign | 0x7e00u | ((ax >> (Mant - 10)) & 0x3ffu));
  }
  // 65520 = 65504 + half an ulp: the tie rounds to the "even" 2^16, i.e. to Inf.
  constexpr UInt overflow = (UInt(Bias + 15) << Mant) | (UInt(0x7ff) << (Mant - 11));
  if (ax >= overflow) return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (ax >= (UInt(Bias - 14) << Mant)) {  // normal half (>= 2^-14)
    // Rebias the exponent, then drop the low S bits with round-half-even: adding
    // 2^(S-1) - 1 plus the lowest kept bit carries exactly when above (or at an odd) tie.
    // A carry out of the mantissa correctly bumps the exponent.
    constexpr int S = Mant - 10;
    const UInt a = ax - (UInt(Bias - 15) << Mant);
    return static_cast<std::uint16_t>(
        sign | ((a + ((one << (S - 1)) - 1) + ((a >> S) & 1)) >> S));
  }
  // Subnormal half: at most 2^-25 (half of the smallest subnormal) ties to even, i.e. to 0.
  if (ax <= (UInt(Bias - 25) << Mant)) return sign;
  // value = m * 2^(e - Bias - Mant); in units of 2^-24 that is m >> (Bias + Mant - 24 - e).
  const int e = static_cast<int>(ax >> Mant);
  const UInt m = (ax & mant_mask) | (one << Mant);
  const int s = Bias + Mant - 24 - e;
  UInt r = m >> s;
  const UInt rem = m & ((one << s) - 1);
  const UInt tie = one << (s - 1);
  if (rem > tie || (rem == tie && (r & 1))) ++r;  // r == 0x400 is the smallest normal: fine
  return static_cast<std::uint16_t>(sign | r);
}

/// binary16 bits -> float; exact (every half is a float). NaN payloads are kept.
KOKKOS_INLINE_FUNCTION float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  int exp = (h >> 10) & 0x1f;
  std::uint32_t man = h & 0x3ffu;
  if (exp == 0x1f) return bit_cast<float>(sign | 0x7f800000u | (man << 13));  // Inf, NaN
  if (exp == 0) {
    if (man == 0) return bit_cast<float>(sign);  // +-0
    // Subnormal: shift the leading 1 up to the implicit-bit position (bit 10).
    exp = 1;
    while ((man & 0x400u) == 0) {
      man <<= 1;
      --exp;
    }
    man &= 0x3ffu;
  }
  return bit_cast<float>(sign | (static_cast<std::uint32_t>(exp + 112) << 23) | (man << 13));
}

/// The binary16 format for impl::Float16: its conversions and limits.
struct HalfFormat {
  KOKKOS_INLINE_FUNCTION static std::uint16_t from_float(float f) {
    return round_to_half_bits<std::uint32_t, 23, 127>(bit_cast<std::uint32_t>(f));
  }
  KOKKOS_INLINE_FUNCTION static std::uint16_t from_double(double d) {
    return round_to_half_bits<std::uint64_t, 52, 1023>(bit_cast<std::uint64_t>(d));
  }
  /// Through float, which is exact here: every integer float rounds is already past the Inf
  /// threshold (65520) of binary16.
  template <class I>
  KOKKOS_INLINE_FUNCTION static std::uint16_t from_integer(I i) { return from_float(static_cast<float>(i)); }
  KOKKOS_INLINE_FUNCTION static float to_float(std::uint16_t h) { return half_bits_to_float(h); }

  static constexpr bool is_iec559 = true;
  static constexpr int digits = 11, digits10 = 3, max_digits10 = 5;
  static constexpr int min_exponent = -13, min_exponent10 = -4, max_exponent = 16, max_exponent10 = 4;
  static constexpr std::uint16_t min_bits = 0x0400;      // 2^-14
  static constexpr std::uint16_t max_bits = 0x7bff;      // 65504
  static constexpr std::uint16_t epsilon_bits = 0x1400;  // 2^-10
  static constexpr std::uint16_t one_half_bits = 0x3800;
  static constexpr std::uint16_t infinity_bits = 0x7c00;
  static constexpr std::uint16_t quiet_nan_bits = 0x7e00, signaling_nan_bits = 0x7d00;
};

}  // namespace impl

}  // namespace kt
