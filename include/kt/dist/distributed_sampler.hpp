#pragma once
/// \file kt/dist/distributed_sampler.hpp
/// Each rank's share of a data set (`torch.utils.data.DistributedSampler`), as a kt::Sampler
/// for `DataLoaderOptions().sampler(...)`. PyTorch's semantics: every epoch one order of the
/// whole data set, the same on every rank (shuffled from seed + epoch, or in order); padded by
/// repeating its start so that it splits evenly (or, with drop_last, cut to a multiple of the
/// rank count); rank r takes positions r, r + R, r + 2R, ... So shards are disjoint (without
/// padding), cover the data set, and every rank gets num_samples() indices: the same number
/// of batches everywhere, which collectives need.
///
///     kt::dist::DistributedSampler sampler(kt::dist::world());      // or (num_replicas, rank)
///     auto loader = kt::make_data_loader<D>(train, kt::DataLoaderOptions().batch_size(128)
///                                                      .sampler(sampler));
///
/// The epoch: kt's DataLoader passes its own epoch (loader.set_epoch(e) or its count of
/// passes), so each epoch shuffles differently without more code. `sampler.set_epoch(e)` pins
/// the epoch as PyTorch's does, for every copy of this sampler (the loader holds one).
/// The order is kt's permutation of (seed, epoch), not torch.randperm's.

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/data/impl/permutation.hpp"

#include <cstdint>
#include <memory>
#include <numeric>
#include <utility>
#include <optional>
#include <vector>

namespace kt::dist {

class DistributedSampler {
public:
  KT_INLINE_UNLESS_COMPILED DistributedSampler(int num_replicas, int rank, bool shuffle = true,
                                               std::uint64_t seed = 0, bool drop_last = false);
  /// The shard of `group`'s rank (a kt::dist::ProcessGroup, or anything with rank() and size()).
  template <class Group, class = decltype(std::declval<const Group&>().rank())>
  explicit DistributedSampler(const Group& group, bool shuffle = true, std::uint64_t seed = 0, bool drop_last = false)
      : DistributedSampler(group.size(), group.rank(), shuffle, seed, drop_last) {}

  /// Pins the epoch of every following pass (PyTorch's set_epoch); shared by all copies.
  void set_epoch(std::uint64_t epoch) { *pinned_epoch_ = epoch; }

  /// Indices per rank for a data set of `size` samples.
  std::int64_t num_samples(std::int64_t size) const {
    // PyTorch's ceil((size - R) / R) with drop_last, ceil(size / R) without.
    const std::int64_t r = num_replicas_;
    return drop_last_ ? size / r : (size + r - 1) / r;
  }

  /// This rank's indices of one pass (the kt::Sampler signature).
  KT_INLINE_UNLESS_COMPILED std::vector<std::int64_t> operator()(std::int64_t size, std::uint64_t loader_epoch) const;

  int num_replicas() const { return num_replicas_; }
  int rank() const { return rank_; }

private:
  int num_replicas_, rank_;
  bool shuffle_;
  std::uint64_t seed_;
  bool drop_last_;
  std::shared_ptr<std::optional<std::uint64_t>> pinned_epoch_;
};

// Defined once in kt_compiled when it is linked (kt/core/impl/compiled.hpp).
#if !defined(KT_COMPILED) || defined(KT_COMPILED_DEFINES_DIST)

KT_INLINE_UNLESS_COMPILED DistributedSampler::DistributedSampler(int num_replicas, int rank, bool shuffle,
                                                                 std::uint64_t seed, bool drop_last)
    : num_replicas_(num_replicas), rank_(rank), shuffle_(shuffle), seed_(seed), drop_last_(drop_last),
      pinned_epoch_(std::make_shared<std::optional<std::uint64_t>>()) {
  KT_REQUIRE(num_replicas >= 1, "kt::dist::DistributedSampler: num_replicas must be >= 1, got ", num_replicas);
  KT_REQUIRE(rank >= 0 && rank < num_replicas, "kt::dist::DistributedSampler: rank ", rank,
             " is not in [0, ", num_replicas, ")");
}

KT_INLINE_UNLESS_COMPILED std::vector<std::int64_t> DistributedSampler::operator()(std::int64_t size,
                                                                                   std::uint64_t loader_epoch) const {
  KT_REQUIRE(size >= 0, "kt::dist::DistributedSampler: negative data set size ", size);
  const std::uint64_t epoch = pinned_epoch_->value_or(loader_epoch);
  std::vector<std::int64_t> order;
  if (shuffle_) {
    order = impl::permutation(size, seed_, epoch);
  } else {
    order.resize(static_cast<std::size_t>(size));
    std::iota(order.begin(), order.end(), std::int64_t{0});
  }
  const std::int64_t per_rank = num_samples(size);
  const std::int64_t total = per_rank * num_replicas_;
  if (size > 0)  // pad by repeating the order from its start (as often as needed)
    for (std::int64_t i = size; i < total; ++i) order.push_back(order[static_cast<std::size_t>((i - size) % size)]);
  std::vector<std::int64_t> shard;
  shard.reserve(static_cast<std::size_t>(per_rank));
  for (std::int64_t i = rank_; i < total; i += num_replicas_) shard.push_back(order[static_cast<std::size_t>(i)]);
  return shard;
}

#endif

}  // namespace kt::dist

#include "kt/core/impl/public_end.hpp"
