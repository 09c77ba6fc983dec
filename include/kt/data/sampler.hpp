#pragma once
/// \file kt/data/sampler.hpp
/// Samplers decide the order in which a DataLoader visits a dataset
/// (`torch.utils.data.Sampler`): a function from (dataset size, epoch) to a list of indices.
/// The indices may repeat or leave samples out (weighted or distributed sampling).
///
///     auto order = kt::random_sampler(/*seed=*/0)(10, /*epoch=*/3);  // a permutation of 0..9
///     kt::DataLoaderOptions().sampler([](std::int64_t n, std::uint64_t) {
///       std::vector<std::int64_t> evens;                              // a user sampler
///       for (std::int64_t i = 0; i < n; i += 2) evens.push_back(i);
///       return evens;
///     });

#include "kt/core/impl/public_begin.hpp"

#include "kt/data/impl/permutation.hpp"

#include <cstdint>
#include <functional>
#include <numeric>
#include <vector>

namespace kt {

/// (dataset size, epoch) -> the indices of one pass, in order.
using Sampler = std::function<std::vector<std::int64_t>(std::int64_t size, std::uint64_t epoch)>;

/// 0, 1, ..., size-1 every epoch.
inline Sampler sequential_sampler() {
  return [](std::int64_t size, std::uint64_t) {
    std::vector<std::int64_t> order(static_cast<std::size_t>(size > 0 ? size : 0));
    std::iota(order.begin(), order.end(), std::int64_t{0});
    return order;
  };
}

/// A permutation of 0..size-1 that depends only on (seed, epoch): the same seed gives the
/// same order for the same epoch, and every epoch a different one.
inline Sampler random_sampler(std::uint64_t seed) {
  return [seed](std::int64_t size, std::uint64_t epoch) { return impl::permutation(size, seed, epoch); };
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
