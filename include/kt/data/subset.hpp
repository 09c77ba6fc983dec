#pragma once
/// \file kt/data/subset.hpp
/// `kt::Subset` (a dataset restricted to a list of indices) and `kt::random_split`
/// (`torch.utils.data.random_split` with an explicit seed).
///
///     auto parts = kt::random_split(train, {50000, 10000}, /*seed=*/0);  // lengths
///     auto halves = kt::random_split(train, {0.5, 0.5}, /*seed=*/0);      // or fractions
///     kt::Subset<decltype(train)> first_ten(train, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"
#include "kt/core/profiling.hpp"
#include "kt/data/dataset.hpp"
#include "kt/data/impl/permutation.hpp"
#include "kt/data/impl/split_lengths.hpp"

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kt {

template <class Dataset>
class Subset {
  static_assert(is_dataset_v<Dataset>, "kt::Subset<Dataset>: Dataset must model kt's Dataset "
                                       "concept (size() and get(i) -> kt::Sample<X, Y>)");

public:
  /// Samples indices[0], indices[1], ... of `dataset` (held by value: datasets of tensors
  /// are cheap to copy, they share storage). Every index must be in range.
  Subset(Dataset dataset, std::vector<std::int64_t> indices)
      : dataset_(std::move(dataset)),
        indices_(std::make_shared<const std::vector<std::int64_t>>(std::move(indices))) {
    const std::int64_t n = dataset_.size();
    for (std::size_t k = 0; k < indices_->size(); ++k)
      KT_REQUIRE((*indices_)[k] >= 0 && (*indices_)[k] < n, "kt::Subset: index ", (*indices_)[k],
                 " (position ", k, ") is out of range for a dataset of ", n, " samples");
  }

  std::int64_t size() const { return static_cast<std::int64_t>(indices_->size()); }

  sample_t<Dataset> get(std::int64_t i) const {
    KT_REQUIRE(i >= 0 && i < size(), "kt::Subset::get: index ", i,
               " is out of range for a subset of ", size(), " samples");
    return dataset_.get((*indices_)[static_cast<std::size_t>(i)]);
  }

  /// A plain copy when the underlying dataset's gather is one (kt/data/impl/dataset_traits.hpp).
  static constexpr bool gather_is_plain_copy = impl::gather_is_plain_copy<Dataset>::value;

  const Dataset& dataset() const { return dataset_; }
  const std::vector<std::int64_t>& indices() const { return *indices_; }

  /// The contiguous fast path, when the underlying dataset has one.
  template <class D = Dataset, class = std::enable_if_t<has_gather_v<D>>>
  Shape input_shape() const {
    return dataset_.input_shape();
  }
  template <class D = Dataset, class = std::enable_if_t<has_gather_v<D>>>
  Shape target_shape() const {
    return dataset_.target_shape();
  }
  template <class D = Dataset, class = std::enable_if_t<has_gather_v<D>>>
  void gather(const std::int64_t* indices, std::int64_t count, input_t<D>* inputs,
              target_t<D>* targets) const {
    std::vector<std::int64_t> mapped(static_cast<std::size_t>(count));
    for (std::int64_t k = 0; k < count; ++k) {
      KT_REQUIRE(indices[k] >= 0 && indices[k] < size(), "kt::Subset::gather: index ", indices[k],
                 " is out of range for a subset of ", size(), " samples");
      mapped[static_cast<std::size_t>(k)] = (*indices_)[static_cast<std::size_t>(indices[k])];
    }
    dataset_.gather(mapped.data(), count, inputs, targets);
  }

private:
  Dataset dataset_;
  std::shared_ptr<const std::vector<std::int64_t>> indices_;
};

/// Splits `dataset` into non-overlapping random subsets of the given lengths (or fractions
/// of its size), in an order that depends only on `seed`.
template <class Dataset>
std::vector<Subset<Dataset>> random_split(const Dataset& dataset, const std::vector<double>& lengths,
                                          std::uint64_t seed) {
  KT_PROFILE_REGION("kt::random_split");
  static_assert(is_dataset_v<Dataset>, "kt::random_split: the first argument must model kt's "
                                       "Dataset concept (size() and get(i) -> kt::Sample<X, Y>)");
  const auto sizes = impl::split_lengths(lengths, dataset.size());
  const auto order = impl::permutation(dataset.size(), seed, /*stream=*/0);
  std::vector<Subset<Dataset>> parts;
  auto first = order.begin();
  for (auto len : sizes) {
    parts.emplace_back(dataset, std::vector<std::int64_t>(first, first + len));
    first += len;
  }
  return parts;
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
