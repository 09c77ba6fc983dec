#pragma once
/// \file kt/data/dataset.hpp
/// The Dataset concept (`torch.utils.data.Dataset`): a type with `size()` and `get(i)` that
/// returns a `kt::Sample<X, Y>`, an (input, target) pair of host tensors.
///
///     struct Squares {                               // any type of this form is a Dataset
///       std::int64_t size() const { return 100; }
///       kt::Sample<float, float> get(std::int64_t i) const {
///         return {kt::full<float, kt::Host>({1}, float(i)), kt::full<float, kt::Host>({}, float(i * i))};
///       }
///     };
///     static_assert(kt::is_dataset_v<Squares>);
///     auto [x, y] = Squares().get(3);                 // structured bindings
///
/// A dataset may also offer `gather(indices, count, inputs, targets)`, which writes the
/// samples' elements row after row into two contiguous buffers, with `input_shape()` and
/// `target_shape()` (one sample's shapes): kt::DataLoader then collates without building a
/// tensor per sample (kt::TensorDataset and kt::Subset do).

#include "kt/core/device.hpp"
#include "kt/tensor/tensor.hpp"

#include <cstdint>
#include <type_traits>
#include <utility>

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

namespace impl {
template <class D, class = void>
struct dataset_traits {
  static constexpr bool value = false;
};
template <class D>
struct dataset_traits<D, std::void_t<decltype(std::int64_t(std::declval<const D&>().size())),
                                     decltype(std::declval<const D&>().get(std::int64_t{}))>> {
  using sample = std::decay_t<decltype(std::declval<const D&>().get(std::int64_t{}))>;
  static constexpr bool value = is_sample_v<sample>;
};

}  // namespace impl

/// True when D models the Dataset concept: `std::int64_t size() const` and
/// `kt::Sample<X, Y> get(std::int64_t) const`.
template <class D>
inline constexpr bool is_dataset_v = impl::dataset_traits<D>::value;

/// The sample type of dataset D.
template <class D>
using sample_t = typename impl::dataset_traits<D>::sample;
/// The element types of D's inputs and targets.
template <class D>
using input_t = typename decltype(std::declval<sample_t<D>>().input)::value_type;
template <class D>
using target_t = typename decltype(std::declval<sample_t<D>>().target)::value_type;

namespace impl {
template <class D, class = void>
struct has_gather : std::false_type {};
template <class D>
struct has_gather<D, std::void_t<decltype(std::declval<const D&>().gather(
                                     std::declval<const std::int64_t*>(), std::int64_t{},
                                     std::declval<input_t<D>*>(), std::declval<target_t<D>*>())),
                                 decltype(Shape(std::declval<const D&>().input_shape())),
                                 decltype(Shape(std::declval<const D&>().target_shape()))>>
    : std::true_type {};
}  // namespace impl

/// True when D also offers the contiguous fast path `gather` (see the file comment).
template <class D>
inline constexpr bool has_gather_v = impl::has_gather<D>::value;

}  // namespace kt
