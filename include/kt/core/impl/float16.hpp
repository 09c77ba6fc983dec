#pragma once
// What kt::half and kt::bfloat16 share: the storage class (2 bytes of bits, conversions
// through the format's rounding functions), the arithmetic and comparison operators, and the
// numeric_limits members that do not depend on the format. Each format (kt/core/half.hpp,
// kt/core/bfloat16.hpp) supplies only its bit-level conversions and its limits.
//
// Operator rules. F16 op F16 -> F16: computed in float and rounded once more; float's 24 bits
// are at least twice the 16-bit type's precision + 2 (2*11+2 for half, 2*8+2 for bfloat16), so
// this double rounding equals one correct rounding for + - * /. F16 op integer -> F16 (the
// integer is first converted, as for C++23's std::float16_t / std::bfloat16_t and PyTorch's
// scalar promotion); F16 op float/double -> float/double. The templates make mixed
// expressions exact matches, so they never compete with the built-in float operators
// (`h * 2.0f` stays unambiguous). Comparisons compare values: NaN is unordered (NaN != NaN)
// and -0 == +0.

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/bit_cast.hpp"

#include <Kokkos_Macros.hpp>

#include <cstdint>
#include <limits>
#include <type_traits>

namespace kt::impl {

/// The storage class of a 16-bit float type F (CRTP): `class half : public Float16<half,
/// HalfFormat>`. Format provides `from_float`, `from_double` and `to_float` on raw bits.
/// Trivially copyable, 2 bytes, no invariants: Views of it work on every device.
template <class F, class Format>
class Float16 {
public:
  /// Trivial: `F x;` is uninitialised, `F x{};` is +0.
  Float16() = default;

  /// Rounds to nearest even; out of range gives +-Inf; NaN stays NaN (quiet, sign kept).
  KOKKOS_INLINE_FUNCTION Float16(float f) : bits_(Format::from_float(f)) {}
  /// Rounds the double directly (once) to nearest even.
  KOKKOS_INLINE_FUNCTION Float16(double d) : bits_(Format::from_double(d)) {}
  /// Integers round to nearest even (correctly for 64-bit values too).
  template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
  KOKKOS_INLINE_FUNCTION Float16(I i) : bits_(Format::from_integer(i)) {}

  /// Exact.
  KOKKOS_INLINE_FUNCTION operator float() const { return Format::to_float(bits_); }
  /// `static_cast<double>(x)` (exact), `static_cast<int>(x)` (truncates, as from float), ...
  /// One explicit template, so that such casts pick it instead of being ambiguous between
  /// float -> int and double -> int.
  template <class T, std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, float>, int> = 0>
  KOKKOS_INLINE_FUNCTION explicit operator T() const {
    return static_cast<T>(Format::to_float(bits_));
  }

  /// The value with these bits: `half::from_bits(0x3c00) == 1`.
  KOKKOS_INLINE_FUNCTION static constexpr F from_bits(std::uint16_t bits) { return F(BitsTag{}, bits); }
  /// The raw bits: `half(1.0f).to_bits() == 0x3c00`.
  KOKKOS_INLINE_FUNCTION constexpr std::uint16_t to_bits() const { return bits_; }

  /// Flips the sign bit (exact, also for zero and NaN).
  KOKKOS_INLINE_FUNCTION constexpr F operator-() const {
    return from_bits(static_cast<std::uint16_t>(bits_ ^ 0x8000u));
  }
  KOKKOS_INLINE_FUNCTION constexpr F operator+() const { return from_bits(bits_); }

protected:
  struct BitsTag {};
  KOKKOS_INLINE_FUNCTION constexpr Float16(BitsTag, std::uint16_t bits) : bits_(bits) {}

private:
  std::uint16_t bits_;
};

/// True for kt::half and kt::bfloat16 (classes derived from Float16 that name their format).
template <class T, class = void>
struct is_float16 : std::false_type {};
template <class T>
struct is_float16<T, std::void_t<typename T::format>>
    : std::bool_constant<std::is_base_of_v<Float16<T, typename T::format>, T>> {};

/// Enables an operator for (F16, F16), (F16, arithmetic) and (arithmetic, F16).
template <class A, class B>
using float16_operands_t = std::enable_if_t<
    (is_float16<A>::value && (std::is_same_v<A, B> || std::is_arithmetic_v<B>)) ||
        (is_float16<B>::value && std::is_arithmetic_v<A>),
    int>;

/// One operand as it enters the arithmetic: an F16 meets an integer as F16 (converted first),
/// a float or double as that type; two F16s meet as float.
template <class Self, class Other>
KOKKOS_INLINE_FUNCTION auto float16_operand(Self x) {
  if constexpr (!is_float16<Self>::value) {
    if constexpr (std::is_integral_v<Self>) return static_cast<float>(Other(x));  // integer -> F16 first
    else return x;
  } else if constexpr (std::is_floating_point_v<Other>) {
    return static_cast<Other>(static_cast<float>(x));
  } else {
    return static_cast<float>(x);
  }
}

/// a op b under the rules above: the result is the F16 type unless a float/double took part.
template <class A, class B, class Op>
KOKKOS_INLINE_FUNCTION auto float16_apply(A a, B b, Op op) {
  const auto r = op(float16_operand<A, B>(a), float16_operand<B, A>(b));
  using F = std::conditional_t<is_float16<A>::value, A, B>;
  if constexpr (std::is_same_v<decltype(r), bool>) return r;
  else if constexpr (std::is_floating_point_v<A> || std::is_floating_point_v<B>) return r;
  else return F(r);
}

struct Float16Add { template <class X, class Y> KOKKOS_INLINE_FUNCTION auto operator()(X x, Y y) const { return x + y; } };
struct Float16Sub { template <class X, class Y> KOKKOS_INLINE_FUNCTION auto operator()(X x, Y y) const { return x - y; } };
struct Float16Mul { template <class X, class Y> KOKKOS_INLINE_FUNCTION auto operator()(X x, Y y) const { return x * y; } };
struct Float16Div { template <class X, class Y> KOKKOS_INLINE_FUNCTION auto operator()(X x, Y y) const { return x / y; } };
struct Float16Eq { template <class X, class Y> KOKKOS_INLINE_FUNCTION bool operator()(X x, Y y) const { return x == y; } };
struct Float16Ne { template <class X, class Y> KOKKOS_INLINE_FUNCTION bool operator()(X x, Y y) const { return x != y; } };
struct Float16Lt { template <class X, class Y> KOKKOS_INLINE_FUNCTION bool operator()(X x, Y y) const { return x < y; } };
struct Float16Le { template <class X, class Y> KOKKOS_INLINE_FUNCTION bool operator()(X x, Y y) const { return x <= y; } };
struct Float16Gt { template <class X, class Y> KOKKOS_INLINE_FUNCTION bool operator()(X x, Y y) const { return x > y; } };
struct Float16Ge { template <class X, class Y> KOKKOS_INLINE_FUNCTION bool operator()(X x, Y y) const { return x >= y; } };

/// std::numeric_limits of a 16-bit type F: the members common to both formats, and the
/// format's own constants (F::format: digits, exponents, bit patterns).
template <class F>
struct Float16NumericLimits {
  using Format = typename F::format;
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
  static constexpr bool is_iec559 = Format::is_iec559;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int digits = Format::digits;
  static constexpr int digits10 = Format::digits10;
  static constexpr int max_digits10 = Format::max_digits10;
  static constexpr int radix = 2;
  static constexpr int min_exponent = Format::min_exponent;
  static constexpr int min_exponent10 = Format::min_exponent10;
  static constexpr int max_exponent = Format::max_exponent;
  static constexpr int max_exponent10 = Format::max_exponent10;
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;

  KOKKOS_INLINE_FUNCTION static constexpr F min() noexcept { return F::from_bits(Format::min_bits); }
  KOKKOS_INLINE_FUNCTION static constexpr F max() noexcept { return F::from_bits(Format::max_bits); }
  KOKKOS_INLINE_FUNCTION static constexpr F lowest() noexcept { return F::from_bits(Format::max_bits | 0x8000u); }
  KOKKOS_INLINE_FUNCTION static constexpr F epsilon() noexcept { return F::from_bits(Format::epsilon_bits); }
  KOKKOS_INLINE_FUNCTION static constexpr F round_error() noexcept { return F::from_bits(Format::one_half_bits); }
  KOKKOS_INLINE_FUNCTION static constexpr F infinity() noexcept { return F::from_bits(Format::infinity_bits); }
  KOKKOS_INLINE_FUNCTION static constexpr F quiet_NaN() noexcept { return F::from_bits(Format::quiet_nan_bits); }
  KOKKOS_INLINE_FUNCTION static constexpr F signaling_NaN() noexcept { return F::from_bits(Format::signaling_nan_bits); }
  KOKKOS_INLINE_FUNCTION static constexpr F denorm_min() noexcept { return F::from_bits(0x0001u); }
};

}  // namespace kt::impl

namespace kt {

// The operators of kt::half and kt::bfloat16 (found by argument-dependent lookup).
template <class A, class B, impl::float16_operands_t<A, B> = 0>
KOKKOS_INLINE_FUNCTION auto operator+(A a, B b) { return impl::float16_apply(a, b, impl::Float16Add{}); }
template <class A, class B, impl::float16_operands_t<A, B> = 0>
KOKKOS_INLINE_FUNCTION auto operator-(A a, B b) { return impl::float16_apply(a, b, impl::Float16Sub{}); }
template <class A, class B, impl::float16_operands_t<A, B> = 0>
KOKKOS_INLINE_FUNCTION auto operator*(A a, B b) { return impl::float16_apply(a, b, impl::Float16Mul{}); }
template <class A, class B, impl::float16_operands_t<A, B> = 0>
KOKKOS_INLINE_FUNCTION auto operator/(A a, B b) { return impl::float16_apply(a, b, impl::Float16Div{}); }
template <class A, class B, impl::float16_operands_t<A, B> = 0>
KOKKOS_INLINE_FUNCTION bool operator==(A a, B b) { return impl::float16_apply(a, b, impl::Float16Eq{}); }
template <class A, class B, impl::float16_operands_t<A, B> = 0>
KOKKOS_INLINE_FUNCTION bool operator!=(A a, B b) { return impl::float16_apply(a, b, impl::Float16Ne{}); }
template <class A, class B, impl::float16_operands_t<A, B> = 0>
KOKKOS_INLINE_FUNCTION bool operator<(A a, B b) { return impl::float16_apply(a, b, impl::Float16Lt{}); }
template <class A, class B, impl::float16_operands_t<A, B> = 0>
KOKKOS_INLINE_FUNCTION bool operator<=(A a, B b) { return impl::float16_apply(a, b, impl::Float16Le{}); }
template <class A, class B, impl::float16_operands_t<A, B> = 0>
KOKKOS_INLINE_FUNCTION bool operator>(A a, B b) { return impl::float16_apply(a, b, impl::Float16Gt{}); }
template <class A, class B, impl::float16_operands_t<A, B> = 0>
KOKKOS_INLINE_FUNCTION bool operator>=(A a, B b) { return impl::float16_apply(a, b, impl::Float16Ge{}); }

/// True for NaN (any payload, either sign).
template <class F, std::enable_if_t<impl::is_float16<F>::value, int> = 0>
KOKKOS_INLINE_FUNCTION bool isnan(F x) { return (x.to_bits() & 0x7fffu) > F::format::infinity_bits; }
/// True for +-Inf.
template <class F, std::enable_if_t<impl::is_float16<F>::value, int> = 0>
KOKKOS_INLINE_FUNCTION bool isinf(F x) { return (x.to_bits() & 0x7fffu) == F::format::infinity_bits; }
/// True for everything but Inf and NaN.
template <class F, std::enable_if_t<impl::is_float16<F>::value, int> = 0>
KOKKOS_INLINE_FUNCTION bool isfinite(F x) { return (x.to_bits() & 0x7fffu) < F::format::infinity_bits; }

/// `x op= y` for a 16-bit x: x = x op y, rounded to x's type.
template <class F, class B, std::enable_if_t<impl::is_float16<F>::value, int> = 0, impl::float16_operands_t<F, B> = 0>
KOKKOS_INLINE_FUNCTION F& operator+=(F& a, B b) { return a = F(a + b); }
template <class F, class B, std::enable_if_t<impl::is_float16<F>::value, int> = 0, impl::float16_operands_t<F, B> = 0>
KOKKOS_INLINE_FUNCTION F& operator-=(F& a, B b) { return a = F(a - b); }
template <class F, class B, std::enable_if_t<impl::is_float16<F>::value, int> = 0, impl::float16_operands_t<F, B> = 0>
KOKKOS_INLINE_FUNCTION F& operator*=(F& a, B b) { return a = F(a * b); }
template <class F, class B, std::enable_if_t<impl::is_float16<F>::value, int> = 0, impl::float16_operands_t<F, B> = 0>
KOKKOS_INLINE_FUNCTION F& operator/=(F& a, B b) { return a = F(a / b); }

}  // namespace kt
