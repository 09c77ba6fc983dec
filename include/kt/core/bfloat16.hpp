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

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/impl/bfloat16_format.hpp"
#include "kt/core/impl/float16.hpp"

#include <Kokkos_Macros.hpp>

#include <cstdint>
#include <limits>
#include <ostream>
#include <type_traits>

namespace kt {

/// bfloat16: a float with the low 16 mantissa bits dropped. Trivially copyable, 2 bytes, no
/// invariants: Views of it work on every device. Converts implicitly from float/double/
/// integers (nearest-even; integers exact up to 256) and to float (exact). Arithmetic:
/// kt/core/impl/float16.hpp.
class bfloat16 : public impl::Float16<bfloat16, impl::BFloat16Format> {
public:
  using format = impl::BFloat16Format;
  using Float16::Float16;
  bfloat16() = default;

private:
  friend class impl::Float16<bfloat16, impl::BFloat16Format>;
};

/// Prints the value as a float: `std::cout << kt::bfloat16(0.5f)` prints 0.5.
inline std::ostream& operator<<(std::ostream& os, bfloat16 b) { return os << static_cast<float>(b); }

}  // namespace kt

/// numeric_limits for kt::bfloat16: float's range with 8 significant bits.
template <>
struct std::numeric_limits<kt::bfloat16> : kt::impl::Float16NumericLimits<kt::bfloat16> {};

#include "kt/core/impl/public_end.hpp"
