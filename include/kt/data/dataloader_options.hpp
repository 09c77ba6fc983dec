#pragma once
/// \file kt/data/dataloader_options.hpp
/// Options of kt::DataLoader, with chained setters (`torch.utils.data.DataLoader`'s keyword
/// arguments). Every setter has a getter of the same name.
///
///     auto options = kt::DataLoaderOptions().batch_size(256).shuffle(true).seed(0)
///                        .drop_last(false).num_workers(2).prefetch(4).pin_memory(true);

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"
#include "kt/data/sampler.hpp"

#include <cstdint>
#include <utility>

namespace kt {

class DataLoaderOptions {
public:
  /// Samples per batch (default 1).
  DataLoaderOptions& batch_size(std::int64_t n) {
    KT_REQUIRE(n >= 1, "kt::DataLoaderOptions::batch_size: must be at least 1, got ", n);
    batch_size_ = n;
    return *this;
  }
  /// Visit the samples in a seeded random order, a different one every epoch (default off).
  DataLoaderOptions& shuffle(bool on) { shuffle_ = on; return *this; }
  /// The shuffle seed (explicit; there is no time-based default). Default 0.
  DataLoaderOptions& seed(std::uint64_t s) { seed_ = s; return *this; }
  /// Drop the last batch when it is smaller than batch_size (default off).
  DataLoaderOptions& drop_last(bool on) { drop_last_ = on; return *this; }
  /// Background threads that collate batches; 0 collates in the consuming thread (default).
  DataLoaderOptions& num_workers(int n) {
    KT_REQUIRE(n >= 0, "kt::DataLoaderOptions::num_workers: must be non-negative, got ", n);
    num_workers_ = n;
    return *this;
  }
  /// At most this many batches are prepared ahead of the consumer, queued or being built
  /// (raised to num_workers when lower, so every worker can work). Default 2.
  DataLoaderOptions& prefetch(int n) {
    KT_REQUIRE(n >= 1, "kt::DataLoaderOptions::prefetch: must be at least 1, got ", n);
    prefetch_ = n;
    return *this;
  }
  /// Stage batches for a GPU in page-locked host memory (Kokkos::CudaHostPinnedSpace) so the
  /// copy to the device is truly asynchronous. Ignored for host devices. Default on.
  DataLoaderOptions& pin_memory(bool on) { pin_memory_ = on; return *this; }
  /// The order of each pass, chosen by the caller; overrides shuffle (see kt/data/sampler.hpp).
  DataLoaderOptions& sampler(Sampler s) { sampler_ = std::move(s); return *this; }

  std::int64_t batch_size() const { return batch_size_; }
  bool shuffle() const { return shuffle_; }
  std::uint64_t seed() const { return seed_; }
  bool drop_last() const { return drop_last_; }
  int num_workers() const { return num_workers_; }
  int prefetch() const { return prefetch_; }
  bool pin_memory() const { return pin_memory_; }
  const Sampler& sampler() const { return sampler_; }

  /// The sampler a pass uses: the user's, else random_sampler(seed) when shuffling, else
  /// sequential.
  Sampler effective_sampler() const {
    if (sampler_) return sampler_;
    return shuffle_ ? random_sampler(seed_) : sequential_sampler();
  }

private:
  std::int64_t batch_size_ = 1;
  bool shuffle_ = false;
  std::uint64_t seed_ = 0;
  bool drop_last_ = false;
  int num_workers_ = 0;
  int prefetch_ = 2;
  bool pin_memory_ = true;
  Sampler sampler_;
};

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
