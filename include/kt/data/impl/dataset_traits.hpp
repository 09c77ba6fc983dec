#pragma once
// Detection behind kt::is_dataset_v and kt::has_gather_v (kt/data/dataset.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/data/sample.hpp"
#include "kt/tensor/shape.hpp"

#include <cstdint>
#include <type_traits>
#include <utility>

namespace kt::impl {

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

template <class D>
using dataset_input_t = typename decltype(std::declval<typename dataset_traits<D>::sample>().input)::value_type;
template <class D>
using dataset_target_t = typename decltype(std::declval<typename dataset_traits<D>::sample>().target)::value_type;

template <class D, class = void>
struct has_gather : std::false_type {};
template <class D>
struct has_gather<D, std::void_t<decltype(std::declval<const D&>().gather(
                                     std::declval<const std::int64_t*>(), std::int64_t{},
                                     std::declval<dataset_input_t<D>*>(), std::declval<dataset_target_t<D>*>())),
                                 decltype(Shape(std::declval<const D&>().input_shape())),
                                 decltype(Shape(std::declval<const D&>().target_shape()))>>
    : std::true_type {};

/// True when D's gather is a plain copy of rows that any number of threads may run at once on
/// disjoint parts of a batch, launching no Kokkos kernel (D declares
/// `static constexpr bool gather_is_plain_copy = true;` — TensorDataset, and a Subset of one).
template <class D, class = void>
struct gather_is_plain_copy : std::false_type {};
template <class D>
struct gather_is_plain_copy<D, std::enable_if_t<D::gather_is_plain_copy>> : std::true_type {};

}  // namespace kt::impl
