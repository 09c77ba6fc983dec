#pragma once
/// \file kt/tensor/random.hpp
/// Seeded random tensors from a counter-based generator (Philox4x32-10): the same seed gives
/// bit-identical `rand` tensors on every device (Cuda included) and bit-identical `randn`
/// tensors on every host device at every thread count (on a GPU, randn's log/sin/cos come from
/// CUDA's math library: values agree to about an ulp). Seeds are explicit, or come from
/// kt::default_generator() (`torch.manual_seed`) — never from the clock.
///
///     auto w = kt::randn<float>({512, 784}, /*seed=*/42);    // torch.randn with manual_seed
///     kt::Generator gen(7);                                   // a stream of draws:
///     auto a = kt::rand<float>({3}, gen), b = kt::rand<float>({3}, gen);   // a != b
///     kt::manual_seed(0);
///     auto c = kt::randn<float>({3});                         // from kt::default_generator()
///     auto i = kt::randint<std::int64_t>(0, 10, {5}, gen);    // torch.randint(0, 10, (5,))

#include "kt/core/impl/public_begin.hpp"

#include "kt/tensor/generator.hpp"
#include "kt/tensor/impl/random_impl.hpp"
#include "kt/tensor/tensor.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

namespace kt {

/// Uniform values in [low, high) (`torch.rand`, `torch.empty(...).uniform_(low, high)`), on
/// `exec`; the generator advances once.
template <class T, class D>
Tensor<T, D> rand(const D& exec, const Shape& shape, Generator& gen, double low = 0, double high = 1) {
  static_assert(is_floating_dtype_v<T>, "kt::rand: T must be a floating dtype");
  KT_REQUIRE(low <= high, "kt::rand: low (", low, ") must not exceed high (", high, ")");
  using C = compute_t<T>;
  return impl::random_fill<T>(exec, "kt::rand", shape, gen, impl::UniformFill<C>{C(low), C(high)},
                              low < high ? impl::largest_below<T>(high) : static_cast<T>(C(high)));
}
template <class T, class D = DefaultDevice>
Tensor<T, D> rand(const Shape& shape, Generator& gen, double low = 0, double high = 1) {
  return rand<T>(D(), shape, gen, low, high);
}
/// With a seed of its own (a fresh Generator(seed)).
template <class T, class D = DefaultDevice>
Tensor<T, D> rand(const Shape& shape, std::uint64_t seed, double low = 0, double high = 1) {
  Generator gen(seed);
  return rand<T>(D(), shape, gen, low, high);
}
/// From kt::default_generator() (`torch.rand(shape)` after `torch.manual_seed`).
template <class T, class D = DefaultDevice>
Tensor<T, D> rand(const Shape& shape) {
  return rand<T>(D(), shape, default_generator());
}

/// Normal values with the given mean and standard deviation (`torch.randn`, `normal_`), on
/// `exec`; the generator advances once.
template <class T, class D>
Tensor<T, D> randn(const D& exec, const Shape& shape, Generator& gen, double mean = 0, double stddev = 1) {
  static_assert(is_floating_dtype_v<T>, "kt::randn: T must be a floating dtype");
  KT_REQUIRE(stddev >= 0, "kt::randn: stddev must be non-negative, got ", stddev);
  using C = compute_t<T>;
  return impl::random_fill<T>(exec, "kt::randn", shape, gen, impl::NormalFill<C>{C(mean), C(stddev)});
}
template <class T, class D = DefaultDevice>
Tensor<T, D> randn(const Shape& shape, Generator& gen, double mean = 0, double stddev = 1) {
  return randn<T>(D(), shape, gen, mean, stddev);
}
template <class T, class D = DefaultDevice>
Tensor<T, D> randn(const Shape& shape, std::uint64_t seed, double mean = 0, double stddev = 1) {
  Generator gen(seed);
  return randn<T>(D(), shape, gen, mean, stddev);
}
template <class T, class D = DefaultDevice>
Tensor<T, D> randn(const Shape& shape) {
  return randn<T>(D(), shape, default_generator());
}

/// Integers uniform in [low, high) (`torch.randint`); T an integer or floating dtype.
template <class T, class D>
Tensor<T, D> randint(const D& exec, std::int64_t low, std::int64_t high, const Shape& shape, Generator& gen) {
  static_assert(is_dtype_v<T>, "kt::randint: T must be a kt dtype");
  KT_REQUIRE(low < high, "kt::randint: low (", low, ") must be below high (", high, ")");
  const auto range = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low);
  return impl::random_fill<T>(exec, "kt::randint", shape, gen, impl::IntegerFill<compute_t<T>>{low, range});
}
template <class T, class D = DefaultDevice>
Tensor<T, D> randint(std::int64_t low, std::int64_t high, const Shape& shape, Generator& gen) {
  return randint<T>(D(), low, high, shape, gen);
}
template <class T, class D = DefaultDevice>
Tensor<T, D> randint(std::int64_t low, std::int64_t high, const Shape& shape, std::uint64_t seed) {
  Generator gen(seed);
  return randint<T>(D(), low, high, shape, gen);
}
template <class T, class D = DefaultDevice>
Tensor<T, D> randint(std::int64_t low, std::int64_t high, const Shape& shape) {
  return randint<T>(D(), low, high, shape, default_generator());
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
