#pragma once
// The bit-level conversions and limits of kt::half's format (kt/core/half.hpp).

#include "kt/core/impl/internal.hpp"

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

/// All ones where `condition`, else zero: selects as bit masks, so that compilers keep the
/// conversions below branch-free (and vectorise loops of them) even without SSE4/AVX blends.
KOKKOS_INLINE_FUNCTION std::uint32_t mask_if(bool condition) { return 0u - static_cast<std::uint32_t>(condition); }

/// binary16 bits -> float; exact (every half is a float). NaN payloads are kept. Branch-free:
/// the exponent and mantissa shift into float position and are rebiased; Inf/NaN get float's
/// all-ones exponent; a subnormal (or zero) is built as the normal float 2^-14 * (1 + m/1024)
/// and made exact by subtracting the 2^-14 that the implicit bit added (an exact subtraction).
KOKKOS_INLINE_FUNCTION float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t shifted = static_cast<std::uint32_t>(h & 0x7fffu) << 13;
  const std::uint32_t exponent = shifted & 0x0f800000u;
  const std::uint32_t rebiased = shifted + (112u << 23);  // 127 - 15
  const std::uint32_t special = rebiased + (112u << 23);  // Inf/NaN: exponent 143 -> 255
  const std::uint32_t subnormal =
      bit_cast<std::uint32_t>(bit_cast<float>(rebiased + (1u << 23)) - bit_cast<float>(113u << 23));
  const std::uint32_t is_special = mask_if(exponent == 0x0f800000u), is_subnormal = mask_if(exponent == 0);
  const std::uint32_t magnitude =
      (special & is_special) | (subnormal & is_subnormal) | (rebiased & ~(is_special | is_subnormal));
  return bit_cast<float>(sign | magnitude);
}

/// float -> binary16 bits, nearest-even: the results of round_to_half_bits (checked for every
/// float), branch-free. Normal results rebias and round as there; subnormal ones add 0.5f,
/// which puts the half's unit 2^-24 at the float's last mantissa bit, so the float addition
/// itself rounds half-even and the bits above 0.5f are the result (up to 0x400, the smallest
/// normal, which is then right too).
KOKKOS_INLINE_FUNCTION std::uint16_t float_to_half_bits(float f) {
  const auto x = bit_cast<std::uint32_t>(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t ax = x & 0x7fffffffu;
  const std::uint32_t normal = (ax - (112u << 23) + 0xfffu + ((ax >> 13) & 1u)) >> 13;
  const std::uint32_t subnormal = bit_cast<std::uint32_t>(bit_cast<float>(ax) + 0.5f) - 0x3f000000u;
  const std::uint32_t nan = 0x7e00u | ((ax >> 13) & 0x3ffu);  // quiet, top payload kept
  const std::uint32_t is_nan = mask_if(ax > 0x7f800000u);
  const std::uint32_t is_inf = mask_if(ax >= (143u << 23)) & ~is_nan;  // >= 2^16 ([65520, 2^16) carries)
  const std::uint32_t is_subnormal = mask_if(ax < (113u << 23));      // < 2^-14
  const std::uint32_t r = (nan & is_nan) | (0x7c00u & is_inf) | (subnormal & is_subnormal) |
                          (normal & ~(is_nan | is_inf | is_subnormal));
  return static_cast<std::uint16_t>(sign | r);
}

/// The binary16 format for impl::Float16: its conversions and limits.
struct HalfFormat {
  KOKKOS_INLINE_FUNCTION static std::uint16_t from_float(float f) { return float_to_half_bits(f); }
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
