#pragma once
// The kernels and distributions behind kt/tensor/random.hpp: Philox blocks to values.

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/host_work.hpp"
#include "kt/core/impl/kokkos_compat.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/tensor/generator.hpp"
#include "kt/tensor/impl/philox.hpp"
#include "kt/tensor/tensor.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace kt::impl {

// Each Philox block of four 32-bit words yields four floats or two doubles; element i lives
// in block i / per_block, so the result does not depend on how threads split the work.
// `upper` caps every value (after rounding to T): rand's results must stay below `high` even
// when low + (high - low) * u rounds up to it, which happens in float and often in 16 bits.
template <class D, class View, class Fill, class T = typename View::non_const_value_type>
void launch_random_fill(const D& exec, const char* label, const View& v, std::uint64_t seed, std::uint64_t offset,
                        const Fill& fill, T upper) {
  const auto n = static_cast<std::int64_t>(v.extent(0));
  constexpr std::int64_t per_block = Fill::per_block;
  parallel_for(exec, label, (n + per_block - 1) / per_block, KOKKOS_LAMBDA(std::int64_t block) {
                         compute_t<T> values[4];
                         fill(philox_block(seed, offset, static_cast<std::uint64_t>(block)), values);
                         for (std::int64_t k = 0; k < per_block && block * per_block + k < n; ++k) {
                           const T value = static_cast<T>(values[k]);
                           v(static_cast<std::size_t>(block * per_block + k)) = value < upper ? value : upper;
                         }
                       });
}

/// A recorded host step draws a new offset from `gen` at every replay, as the eager step does
/// (kt/core/impl/host_work.hpp): `gen` must outlive the step graph.
template <class T, class D, class Fill>
Tensor<T, D> random_fill(const D& exec, const char* label, const Shape& shape, Generator& gen, Fill fill,
                         T upper = std::numeric_limits<T>::max()) {
  KT_PROFILE_REGION(label);
  Tensor<T, D> out(shape, exec);
  const auto v = out.view();
  if constexpr (is_host_accessible_v<D>) {
    if (HostWork* recording = host_recording<D>()) {
      record_host_work(recording, [exec, name = std::string(label), v, &gen, fill, upper] {
        launch_random_fill(exec, name.c_str(), v, gen.seed(), gen.next_offset(), fill, upper);
      });
      return out;
    }
  }
  launch_random_fill(exec, label, v, gen.seed(), gen.next_offset(), fill, upper);
  return out;
}

/// The next representable T below t.
template <class T>
T next_down(T t) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16>) {
    const float v = static_cast<float>(t);  // both are sign-magnitude bit patterns
    const std::uint16_t bits = t.to_bits();
    return T::from_bits(static_cast<std::uint16_t>(v > 0 ? bits - 1 : (v == 0 ? 0x8001 : bits + 1)));
  } else {
    return std::nextafter(t, -std::numeric_limits<T>::infinity());
  }
}

/// The largest T strictly below `high`.
template <class T>
T largest_below(double high) {
  T t = static_cast<T>(static_cast<compute_t<T>>(high));
  while (!(static_cast<double>(static_cast<compute_t<T>>(t)) < high)) t = next_down(t);
  return t;
}

/// low + (high - low) u, as one fused multiply-add: a compiler may contract the expression
/// into an FMA on one device and not on another (nvcc does by default, GCC only with FMA
/// hardware enabled), so kt asks for the FMA explicitly — correctly rounded everywhere.
template <class C>
struct UniformFill {
  static constexpr int per_block = std::is_same_v<C, double> ? 2 : 4;  // values per Philox block
  C low, high;
  KOKKOS_INLINE_FUNCTION void operator()(const Philox4x32& r, C* out) const {
    const C width = high - low;
    if constexpr (std::is_same_v<C, double>) {
      out[0] = kt::impl::fma(width, uniform_double(r.v[0], r.v[1]), low);
      out[1] = kt::impl::fma(width, uniform_double(r.v[2], r.v[3]), low);
    } else {
      for (int k = 0; k < 4; ++k) out[k] = kt::impl::fma(width, uniform_float(r.v[k]), low);
    }
  }
};

/// low + (64-bit draw mod range): exact for ranges up to 2^32 and biased by at most
/// range / 2^64 beyond (two words per value).
template <class C>
struct IntegerFill {
  static constexpr int per_block = 2;
  std::int64_t low;
  std::uint64_t range;
  KOKKOS_INLINE_FUNCTION void operator()(const Philox4x32& r, C* out) const {
    for (int k = 0; k < 2; ++k) {
      const std::uint64_t bits = (static_cast<std::uint64_t>(r.v[2 * k]) << 32) | r.v[2 * k + 1];
      out[k] = static_cast<C>(low + static_cast<std::int64_t>(bits % range));
    }
  }
};

// Box-Muller: a pair of uniforms u1 in (0, 1], u2 in [0, 1) gives two independent normals.
template <class C>
struct NormalFill {
  static constexpr int per_block = std::is_same_v<C, double> ? 2 : 4;
  C mean, stddev;
  KOKKOS_INLINE_FUNCTION void pair(C u1, C u2, C* out) const {
    const C radius = KT_KOKKOS_MATH::sqrt(C(-2) * KT_KOKKOS_MATH::log(u1));
    const C angle = C(6.283185307179586476925) * u2;
    out[0] = mean + stddev * radius * KT_KOKKOS_MATH::cos(angle);
    out[1] = mean + stddev * radius * KT_KOKKOS_MATH::sin(angle);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const Philox4x32& r, C* out) const {
    if constexpr (std::is_same_v<C, double>) {
      pair(C(1) - uniform_double(r.v[0], r.v[1]), uniform_double(r.v[2], r.v[3]), out);
    } else {
      pair(C(1) - uniform_float(r.v[0]), uniform_float(r.v[1]), out);
      pair(C(1) - uniform_float(r.v[2]), uniform_float(r.v[3]), out + 2);
    }
  }
};

}  // namespace kt::impl
