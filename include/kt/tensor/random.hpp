#pragma once
/// \file kt/tensor/random.hpp
/// Seeded random tensors from a counter-based generator (Philox4x32-10): the same seed gives
/// bit-identical tensors on every host device at every thread count. There is no global or
/// time-based seed; seeds are always explicit.
///
///     auto w = kt::randn<float>({512, 784}, /*seed=*/42);    // torch.randn with manual_seed
///     kt::Generator gen(7);                                   // a stream of draws:
///     auto a = kt::rand<float>({3}, gen), b = kt::rand<float>({3}, gen);   // a != b

#include "kt/core/impl/kokkos_compat.hpp"
#include "kt/tensor/impl/philox.hpp"
#include "kt/tensor/tensor.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

namespace kt {

/// A seed plus a position in its stream. Each draw through a Generator uses a fresh Philox
/// stream (the offset), so consecutive draws differ and a copied Generator repeats them.
class Generator {
public:
  explicit Generator(std::uint64_t seed) : seed_(seed) {}
  std::uint64_t seed() const { return seed_; }
  std::uint64_t offset() const { return offset_; }
  /// The stream for the next draw; advances the generator.
  std::uint64_t next_offset() { return offset_++; }

private:
  std::uint64_t seed_;
  std::uint64_t offset_ = 0;
};

namespace impl {

// Each Philox block of four 32-bit words yields four floats or two doubles; element i lives
// in block i / per_block, so the result does not depend on how threads split the work.
// `upper` caps every value (after rounding to T): rand's results must stay below `high` even
// when low + (high - low) * u rounds up to it, which happens in float and often in 16 bits.
template <class T, class D, class Fill>
Tensor<T, D> random_fill(const char* label, const Shape& shape, Generator& gen, Fill fill,
                         T upper = std::numeric_limits<T>::max()) {
  KT_PROFILE_REGION(label);
  Tensor<T, D> out(shape);
  const auto v = out.view();
  const auto n = static_cast<std::int64_t>(v.extent(0));
  constexpr std::int64_t per_block = std::is_same_v<compute_t<T>, double> ? 2 : 4;
  const std::uint64_t seed = gen.seed(), offset = gen.next_offset();
  Kokkos::parallel_for(label, Kokkos::RangePolicy<D>(0, (n + per_block - 1) / per_block),
                       KOKKOS_LAMBDA(std::int64_t block) {
                         compute_t<T> values[4];
                         fill(philox_block(seed, offset, static_cast<std::uint64_t>(block)), values);
                         for (std::int64_t k = 0; k < per_block && block * per_block + k < n; ++k) {
                           const T value = static_cast<T>(values[k]);
                           v(static_cast<std::size_t>(block * per_block + k)) = value < upper ? value : upper;
                         }
                       });
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

template <class C>
struct UniformFill {
  C low, high;
  KOKKOS_INLINE_FUNCTION void operator()(const Philox4x32& r, C* out) const {
    if constexpr (std::is_same_v<C, double>) {
      out[0] = low + (high - low) * uniform_double(r.v[0], r.v[1]);
      out[1] = low + (high - low) * uniform_double(r.v[2], r.v[3]);
    } else {
      for (int k = 0; k < 4; ++k) out[k] = low + (high - low) * uniform_float(r.v[k]);
    }
  }
};

// Box-Muller: a pair of uniforms u1 in (0, 1], u2 in [0, 1) gives two independent normals.
template <class C>
struct NormalFill {
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

}  // namespace impl

/// Uniform values in [low, high) (`torch.rand`, `torch.empty(...).uniform_(low, high)`).
template <class T, class D = DefaultDevice>
Tensor<T, D> rand(const Shape& shape, Generator& gen, double low = 0, double high = 1) {
  static_assert(is_floating_dtype_v<T>, "kt::rand: T must be a floating dtype");
  KT_REQUIRE(low <= high, "kt::rand: low (", low, ") must not exceed high (", high, ")");
  using C = compute_t<T>;
  return impl::random_fill<T, D>("kt::rand", shape, gen, impl::UniformFill<C>{C(low), C(high)},
                                 low < high ? impl::largest_below<T>(high) : static_cast<T>(C(high)));
}

template <class T, class D = DefaultDevice>
Tensor<T, D> rand(const Shape& shape, std::uint64_t seed, double low = 0, double high = 1) {
  Generator gen(seed);
  return rand<T, D>(shape, gen, low, high);
}

/// Normal values with the given mean and standard deviation (`torch.randn`, `normal_`).
template <class T, class D = DefaultDevice>
Tensor<T, D> randn(const Shape& shape, Generator& gen, double mean = 0, double stddev = 1) {
  static_assert(is_floating_dtype_v<T>, "kt::randn: T must be a floating dtype");
  KT_REQUIRE(stddev >= 0, "kt::randn: stddev must be non-negative, got ", stddev);
  using C = compute_t<T>;
  return impl::random_fill<T, D>("kt::randn", shape, gen, impl::NormalFill<C>{C(mean), C(stddev)});
}

template <class T, class D = DefaultDevice>
Tensor<T, D> randn(const Shape& shape, std::uint64_t seed, double mean = 0, double stddev = 1) {
  Generator gen(seed);
  return randn<T, D>(shape, gen, mean, stddev);
}

}  // namespace kt
