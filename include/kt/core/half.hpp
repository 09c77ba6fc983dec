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

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/impl/half_format.hpp"
#include "kt/core/impl/float16.hpp"

#include <Kokkos_Macros.hpp>

#include <cstdint>
#include <limits>
#include <ostream>
#include <type_traits>

namespace kt {

/// IEEE 754 binary16. Trivially copyable, 2 bytes, no invariants: Views of it work on every
/// device. Converts implicitly from float/double/integers (nearest-even; integers exact up to
/// 2048, +-Inf from 65520 on) and to float (exact). Arithmetic: kt/core/impl/float16.hpp.
class half : public impl::Float16<half, impl::HalfFormat> {
public:
  using format = impl::HalfFormat;
  using Float16::Float16;
  half() = default;

private:
  friend class impl::Float16<half, impl::HalfFormat>;
};

/// Prints the value as a float: `std::cout << kt::half(0.5f)` prints 0.5.
inline std::ostream& operator<<(std::ostream& os, half h) { return os << static_cast<float>(h); }

}  // namespace kt

/// numeric_limits for kt::half, as for an IEEE binary16 type.
template <>
struct std::numeric_limits<kt::half> : kt::impl::Float16NumericLimits<kt::half> {};

#include "kt/core/impl/public_end.hpp"
