#pragma once
/// \file kt/data/sample.hpp
/// `kt::Sample<X, Y>`: one example of a dataset, an input and its target, host tensors.
///
///     kt::Sample<float, std::int64_t> s{image, label};
///     auto [x, y] = s;

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/device.hpp"
#include "kt/tensor/tensor.hpp"

namespace kt {

/// One example: an input tensor and its target, both on the host.
template <class X, class Y>
struct Sample {
  Tensor<X, Host> input;
  Tensor<Y, Host> target;
};

/// True for kt::Sample<X, Y>.
template <class S>
inline constexpr bool is_sample_v = false;
template <class X, class Y>
inline constexpr bool is_sample_v<Sample<X, Y>> = true;

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
