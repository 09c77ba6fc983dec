#pragma once
// The operators kt::half and kt::bfloat16 share, generated for each by one macro.
// F16 op F16 -> F16: computed in float and rounded once more; float's 24 bits are at least
// twice the 16-bit type's precision + 2 (2*11+2 for half, 2*8+2 for bfloat16), so this double
// rounding equals one correct rounding for + - * /. F16 op integer -> F16 (the integer is
// first converted, as for C++23's std::float16_t / std::bfloat16_t and PyTorch's scalar
// promotion); F16 op float/double -> float/double. The templates make mixed expressions exact
// matches, so they never compete with the built-in float operators (`h * 2.0f` stays
// unambiguous). Comparisons compare values: NaN is unordered (NaN != NaN) and -0 == +0.

#include <Kokkos_Macros.hpp>
#include <type_traits>

#define KT_IMPL_FLOAT16_ARITH(F16, OP)                                             \
  KOKKOS_INLINE_FUNCTION F16 operator OP(F16 a, F16 b) {                           \
    return F16(static_cast<float>(a) OP static_cast<float>(b));                    \
  }                                                                                \
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>           \
  KOKKOS_INLINE_FUNCTION auto operator OP(F16 a, T b) {                            \
    if constexpr (std::is_integral_v<T>)                                           \
      return a OP F16(b);                                                          \
    else                                                                           \
      return static_cast<T>(static_cast<float>(a)) OP b;                           \
  }                                                                                \
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>           \
  KOKKOS_INLINE_FUNCTION auto operator OP(T a, F16 b) {                            \
    if constexpr (std::is_integral_v<T>)                                           \
      return F16(a) OP b;                                                          \
    else                                                                           \
      return a OP static_cast<T>(static_cast<float>(b));                           \
  }                                                                                \
  KOKKOS_INLINE_FUNCTION F16& operator OP##=(F16& a, F16 b) { return a = a OP b; } \
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>           \
  KOKKOS_INLINE_FUNCTION F16& operator OP##=(F16& a, T b) {                        \
    return a = F16(a OP b);                                                        \
  }

#define KT_IMPL_FLOAT16_CMP(F16, OP)                                     \
  KOKKOS_INLINE_FUNCTION bool operator OP(F16 a, F16 b) {                \
    return static_cast<float>(a) OP static_cast<float>(b);               \
  }                                                                      \
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0> \
  KOKKOS_INLINE_FUNCTION bool operator OP(F16 a, T b) {                  \
    if constexpr (std::is_integral_v<T>)                                 \
      return a OP F16(b);                                                \
    else                                                                 \
      return static_cast<T>(static_cast<float>(a)) OP b;                 \
  }                                                                      \
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0> \
  KOKKOS_INLINE_FUNCTION bool operator OP(T a, F16 b) {                  \
    if constexpr (std::is_integral_v<T>)                                 \
      return F16(a) OP b;                                                \
    else                                                                 \
      return a OP static_cast<T>(static_cast<float>(b));                 \
  }

#define KT_IMPL_FLOAT16_OPERATORS(F16) \
  KT_IMPL_FLOAT16_ARITH(F16, +)        \
  KT_IMPL_FLOAT16_ARITH(F16, -)        \
  KT_IMPL_FLOAT16_ARITH(F16, *)        \
  KT_IMPL_FLOAT16_ARITH(F16, /)        \
  KT_IMPL_FLOAT16_CMP(F16, ==)         \
  KT_IMPL_FLOAT16_CMP(F16, !=)         \
  KT_IMPL_FLOAT16_CMP(F16, <)          \
  KT_IMPL_FLOAT16_CMP(F16, <=)         \
  KT_IMPL_FLOAT16_CMP(F16, >)          \
  KT_IMPL_FLOAT16_CMP(F16, >=)
