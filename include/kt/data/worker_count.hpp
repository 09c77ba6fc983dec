#pragma once
/// \file kt/data/worker_count.hpp
/// How many DataLoader workers to give a training loop on device D — the rule behind
/// examples/fashion_mnist's default `--workers auto`:
///
///     kt::DataLoaderOptions().batch_size(256).num_workers(kt::recommended_num_workers<Device>())
///
/// One worker per host core that D's computation leaves free, at most 2; none when D's
/// threads take every core. A worker that shares a core with a compute thread only trades
/// places with it (and wakes it late from a barrier), while collating on the consuming thread
/// costs what the gather costs: with OpenMP on every core, workers do not shorten the epoch;
/// with a core free, they take the gather off the training loop's path. A worker collates a
/// 256-image Fashion-MNIST batch in a small fraction of a training step, so one keeps up; the
/// second leaves room for per-sample transforms (docs/performance.md, "Data loading"). GPU
/// devices compute from one host thread.

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/device.hpp"
#include "kt/core/impl/host_cores.hpp"

#include <algorithm>

namespace kt {

/// The most workers kt::recommended_num_workers ever suggests.
inline constexpr int kMaxRecommendedWorkers = 2;

/// Loader workers for training on D in this process (needs a live kt::Runtime).
template <class D>
int recommended_num_workers() {
  const int compute_threads = is_host_accessible_v<D> ? device_info<D>().concurrency : 1;
  return std::clamp(impl::available_host_cores() - compute_threads, 0, kMaxRecommendedWorkers);
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
