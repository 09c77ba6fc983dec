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

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/device.hpp"
#include "kt/data/impl/dataset_traits.hpp"
#include "kt/data/sample.hpp"
#include "kt/tensor/tensor.hpp"

#include <cstdint>
#include <type_traits>
#include <utility>

namespace kt {

/// True when D models the Dataset concept: `std::int64_t size() const` and
/// `kt::Sample<X, Y> get(std::int64_t) const`.
template <class D>
inline constexpr bool is_dataset_v = impl::dataset_traits<D>::value;

/// The sample type of dataset D.
template <class D>
using sample_t = typename impl::dataset_traits<D>::sample;
/// The element types of D's inputs and targets.
template <class D>
using input_t = impl::dataset_input_t<D>;
template <class D>
using target_t = impl::dataset_target_t<D>;

/// True when D also offers the contiguous fast path `gather` (see the file comment).
template <class D>
inline constexpr bool has_gather_v = impl::has_gather<D>::value;

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
