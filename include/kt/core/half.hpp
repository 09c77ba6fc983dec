#pragma once
/// \file kt/core/half.hpp
/// kt::half: IEEE 754 binary16 (1 sign, 5 exponent, 10 mantissa bits) on host and device.
///
///     kt::half h = 0.1f;                       // nearest even: 0.0999755859375
///     float f = h * 2.0f;                      // half op float   -> float
///     kt::half g = h + 1;                      // half op integer -> half
///     kt::half s = h * g;                      // half op half    -> half, rounded once
///     Kokkos::View<kt::half*, D::memory_space> v("v", n);  // a 2-byte trivial type
///
/// Storage type: arithmetic runs in float. Conversions are integer bit manipulation with
/// round-to-nearest-even, so every device gives the same bits.

#include "kt/core/impl/bit_cast.hpp"
#include "kt/core/impl/float16_operators.hpp"

#include <Kokkos_Macros.hpp>

#include <cstdint>
#include <limits>
#include <ostream>
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

} // namespace impl

/// IEEE 754 binary16. Trivially copyable, 2 bytes, no invariants: Views of it work on every
/// device. Converts implicitly from float/double/integers (nearest-even) and to float (exact).
class half {
public:
  /// Trivial: `half h;` is uninitialised, `half h{};` is +0.
  half() = default;

  /// Rounds to nearest even; out of range gives +-Inf; NaN stays NaN (quiet, sign kept).
  KOKKOS_INLINE_FUNCTION half(float f)
      : bits_(impl::round_to_half_bits<std::uint32_t, 23, 127>(impl::bit_cast<std::uint32_t>(f))) {}
  /// Rounds the double directly (once) to nearest even.
  KOKKOS_INLINE_FUNCTION half(double d)
      : bits_(impl::round_to_half_bits<std::uint64_t, 52, 1023>(impl::bit_cast<std::uint64_t>(d))) {}
  /// Integers: exact up to 2048, nearest-even above; |i| >= 65520 gives +-Inf. (Going through
  /// float is exact here: every integer that float rounds is already past the Inf threshold.)
  template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
  KOKKOS_INLINE_FUNCTION half(I i) : half(static_cast<float>(i)) {}

  /// Exact.
  KOKKOS_INLINE_FUNCTION operator float() const { return impl::half_bits_to_float(bits_); }
  /// `static_cast<double>(x)` (exact), `static_cast<int>(x)` (truncates, as from float), ...
  /// One explicit template, so that such casts pick it instead of being ambiguous between
  /// float -> int and double -> int.
  template <class T, std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, float>, int> = 0>
  KOKKOS_INLINE_FUNCTION explicit operator T() const {
    return static_cast<T>(static_cast<float>(*this));
  }

  /// The half with these bits: `half::from_bits(0x3c00) == 1`.
  KOKKOS_INLINE_FUNCTION static constexpr half from_bits(std::uint16_t bits) {
    return half(bits_tag{}, bits);
  }
  /// The raw bits: `half(1.0f).to_bits() == 0x3c00`.
  KOKKOS_INLINE_FUNCTION constexpr std::uint16_t to_bits() const { return bits_; }

  /// Flips the sign bit (exact, also for zero and NaN).
  KOKKOS_INLINE_FUNCTION constexpr half operator-() const {
    return from_bits(static_cast<std::uint16_t>(bits_ ^ 0x8000u));
  }
  KOKKOS_INLINE_FUNCTION constexpr half operator+() const { return *this; }

private:
  struct bits_tag {};
  KOKKOS_INLINE_FUNCTION constexpr half(bits_tag, std::uint16_t bits) : bits_(bits) {}
  std::uint16_t bits_;
};

/// True for NaN (any payload, either sign).
KOKKOS_INLINE_FUNCTION bool isnan(half h) { return (h.to_bits() & 0x7fffu) > 0x7c00u; }
/// True for +-Inf.
KOKKOS_INLINE_FUNCTION bool isinf(half h) { return (h.to_bits() & 0x7fffu) == 0x7c00u; }
/// True for everything but Inf and NaN.
KOKKOS_INLINE_FUNCTION bool isfinite(half h) { return (h.to_bits() & 0x7fffu) < 0x7c00u; }

// Arithmetic and comparisons (rules in kt/core/impl/float16_operators.hpp).
KT_IMPL_FLOAT16_OPERATORS(half)

/// Prints the value as a float: `std::cout << kt::half(0.5f)` prints 0.5.
inline std::ostream& operator<<(std::ostream& os, half h) { return os << static_cast<float>(h); }

} // namespace kt

namespace std {
/// numeric_limits for kt::half, as for an IEEE binary16 type.
template <>
struct numeric_limits<kt::half> {
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr std::float_denorm_style has_denorm = std::denorm_present;
  static constexpr bool has_denorm_loss = false;
  static constexpr std::float_round_style round_style = std::round_to_nearest;
  static constexpr bool is_iec559 = true;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int digits = 11;
  static constexpr int digits10 = 3;
  static constexpr int max_digits10 = 5;
  static constexpr int radix = 2;
  static constexpr int min_exponent = -13;
  static constexpr int min_exponent10 = -4;
  static constexpr int max_exponent = 16;
  static constexpr int max_exponent10 = 4;
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;

  // clang-format off
  KOKKOS_INLINE_FUNCTION static constexpr kt::half min() noexcept { return kt::half::from_bits(0x0400); }           // 2^-14
  KOKKOS_INLINE_FUNCTION static constexpr kt::half max() noexcept { return kt::half::from_bits(0x7bff); }           // 65504
  KOKKOS_INLINE_FUNCTION static constexpr kt::half lowest() noexcept { return kt::half::from_bits(0xfbff); }        // -65504
  KOKKOS_INLINE_FUNCTION static constexpr kt::half epsilon() noexcept { return kt::half::from_bits(0x1400); }       // 2^-10
  KOKKOS_INLINE_FUNCTION static constexpr kt::half round_error() noexcept { return kt::half::from_bits(0x3800); }   // 0.5
  KOKKOS_INLINE_FUNCTION static constexpr kt::half infinity() noexcept { return kt::half::from_bits(0x7c00); }
  KOKKOS_INLINE_FUNCTION static constexpr kt::half quiet_NaN() noexcept { return kt::half::from_bits(0x7e00); }
  KOKKOS_INLINE_FUNCTION static constexpr kt::half signaling_NaN() noexcept { return kt::half::from_bits(0x7d00); }
  KOKKOS_INLINE_FUNCTION static constexpr kt::half denorm_min() noexcept { return kt::half::from_bits(0x0001); }    // 2^-24
  // clang-format on
};
} // namespace std
