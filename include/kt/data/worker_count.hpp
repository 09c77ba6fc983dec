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
/// costs what the gather costs: measured on 2 cores with OpenMP on both, 0, 1 and 2 workers
/// were within run-to-run noise of each other, the loader's share of the epoch 5.6% with 0
/// workers and 9.9% with 2 (bench_loader's train_epoch); on the Serial device (1 core free),
/// 2 workers took it from 4.8% to 2.8%. A worker collates a 256-image Fashion-MNIST batch in
/// ~0.1 ms, a tenth of a training step, so one keeps up; the second covers transforms that
/// cost ten times more. GPU devices compute from one host thread.

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
