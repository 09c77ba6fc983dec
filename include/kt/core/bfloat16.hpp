#pragma once
/// \file kt/core/bfloat16.hpp
/// kt::bfloat16: the upper 16 bits of an IEEE float (1 sign, 8 exponent, 7 mantissa bits),
/// on host and device. Same range as float, about 2-3 significant decimal digits.
///
///     kt::bfloat16 b = 3.14159f;               // nearest even: 3.140625
///     float f = b * 2.0f;                      // bfloat16 op float   -> float
///     kt::bfloat16 c = b + 1;                  // bfloat16 op integer -> bfloat16
///     kt::bfloat16 p = b * c;                  // bfloat16 op bfloat16 -> bfloat16, rounded once
///     Kokkos::View<kt::bfloat16*, D::memory_space> v("v", n);  // a 2-byte trivial type
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

} // namespace impl

/// bfloat16: a float with the low 16 mantissa bits dropped. Trivially copyable, 2 bytes, no
/// invariants: Views of it work on every device. Converts implicitly from float/double/
/// integers (nearest-even) and to float (exact: the bits shifted left by 16).
class bfloat16 {
public:
  /// Trivial: `bfloat16 b;` is uninitialised, `bfloat16 b{};` is +0.
  bfloat16() = default;

  /// Rounds to nearest even; past max gives +-Inf; NaN stays NaN (quiet, sign kept).
  KOKKOS_INLINE_FUNCTION bfloat16(float f) : bits_(impl::float_to_bfloat16_bits(f)) {}
  /// Rounds the double directly (once) to nearest even.
  KOKKOS_INLINE_FUNCTION bfloat16(double d) : bits_(impl::double_to_bfloat16_bits(d)) {}
  /// Integers: exact up to 256, nearest-even above (correctly rounded for 64-bit values too).
  template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
  KOKKOS_INLINE_FUNCTION bfloat16(I i) : bfloat16(impl::integer_to_double_for_rounding(i)) {}

  /// Exact.
  KOKKOS_INLINE_FUNCTION operator float() const {
    return impl::bit_cast<float>(static_cast<std::uint32_t>(bits_) << 16);
  }
  /// `static_cast<double>(x)` (exact), `static_cast<int>(x)` (truncates, as from float), ...
  /// One explicit template, so that such casts pick it instead of being ambiguous between
  /// float -> int and double -> int.
  template <class T, std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, float>, int> = 0>
  KOKKOS_INLINE_FUNCTION explicit operator T() const {
    return static_cast<T>(static_cast<float>(*this));
  }

  /// The bfloat16 with these bits: `bfloat16::from_bits(0x3f80) == 1`.
  KOKKOS_INLINE_FUNCTION static constexpr bfloat16 from_bits(std::uint16_t bits) {
    return bfloat16(bits_tag{}, bits);
  }
  /// The raw bits: `bfloat16(1.0f).to_bits() == 0x3f80`.
  KOKKOS_INLINE_FUNCTION constexpr std::uint16_t to_bits() const { return bits_; }

  /// Flips the sign bit (exact, also for zero and NaN).
  KOKKOS_INLINE_FUNCTION constexpr bfloat16 operator-() const {
    return from_bits(static_cast<std::uint16_t>(bits_ ^ 0x8000u));
  }
  KOKKOS_INLINE_FUNCTION constexpr bfloat16 operator+() const { return *this; }

private:
  struct bits_tag {};
  KOKKOS_INLINE_FUNCTION constexpr bfloat16(bits_tag, std::uint16_t bits) : bits_(bits) {}
  std::uint16_t bits_;
};

/// True for NaN (any payload, either sign).
KOKKOS_INLINE_FUNCTION bool isnan(bfloat16 b) { return (b.to_bits() & 0x7fffu) > 0x7f80u; }
/// True for +-Inf.
KOKKOS_INLINE_FUNCTION bool isinf(bfloat16 b) { return (b.to_bits() & 0x7fffu) == 0x7f80u; }
/// True for everything but Inf and NaN.
KOKKOS_INLINE_FUNCTION bool isfinite(bfloat16 b) { return (b.to_bits() & 0x7fffu) < 0x7f80u; }

// Arithmetic and comparisons (rules in kt/core/impl/float16_operators.hpp).
KT_IMPL_FLOAT16_OPERATORS(bfloat16)

/// Prints the value as a float: `std::cout << kt::bfloat16(0.5f)` prints 0.5.
inline std::ostream& operator<<(std::ostream& os, bfloat16 b) { return os << static_cast<float>(b); }

} // namespace kt

namespace std {
/// numeric_limits for kt::bfloat16: float's range with 8 significant bits.
template <>
struct numeric_limits<kt::bfloat16> {
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
  static constexpr bool is_iec559 = false;  // not an IEEE 754 interchange format
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int digits = 8;
  static constexpr int digits10 = 2;
  static constexpr int max_digits10 = 4;
  static constexpr int radix = 2;
  static constexpr int min_exponent = -125;
  static constexpr int min_exponent10 = -37;
  static constexpr int max_exponent = 128;
  static constexpr int max_exponent10 = 38;
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;

  // clang-format off
  KOKKOS_INLINE_FUNCTION static constexpr kt::bfloat16 min() noexcept { return kt::bfloat16::from_bits(0x0080); }         // 2^-126
  KOKKOS_INLINE_FUNCTION static constexpr kt::bfloat16 max() noexcept { return kt::bfloat16::from_bits(0x7f7f); }         // ~3.39e38
  KOKKOS_INLINE_FUNCTION static constexpr kt::bfloat16 lowest() noexcept { return kt::bfloat16::from_bits(0xff7f); }
  KOKKOS_INLINE_FUNCTION static constexpr kt::bfloat16 epsilon() noexcept { return kt::bfloat16::from_bits(0x3c00); }     // 2^-7
  KOKKOS_INLINE_FUNCTION static constexpr kt::bfloat16 round_error() noexcept { return kt::bfloat16::from_bits(0x3f00); } // 0.5
  KOKKOS_INLINE_FUNCTION static constexpr kt::bfloat16 infinity() noexcept { return kt::bfloat16::from_bits(0x7f80); }
  KOKKOS_INLINE_FUNCTION static constexpr kt::bfloat16 quiet_NaN() noexcept { return kt::bfloat16::from_bits(0x7fc0); }
  KOKKOS_INLINE_FUNCTION static constexpr kt::bfloat16 signaling_NaN() noexcept { return kt::bfloat16::from_bits(0x7fa0); }
  KOKKOS_INLINE_FUNCTION static constexpr kt::bfloat16 denorm_min() noexcept { return kt::bfloat16::from_bits(0x0001); }  // 2^-133
  // clang-format on
};
} // namespace std
