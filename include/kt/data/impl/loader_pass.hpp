#pragma once
// One pass of a kt::DataLoader over its dataset: the index plan, the worker threads and the
// bounded, ordered queue of host batches. Batch k holds plan[k*B, k*B+B) whatever thread
// built it, so the batches do not depend on num_workers.

#include "kt/core/impl/internal.hpp"

#include "kt/core/device.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/concat.hpp"
#include "kt/core/impl/nested_error.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/data/dataloader_options.hpp"
#include "kt/data/impl/dataset_source.hpp"
#include "kt/data/impl/staging.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace kt::impl {

template <class X, class Y>
using BatchTransformFn = std::function<void(Tensor<X, Host>&, Tensor<Y, Host>&)>;

/// A collated batch on the host, or the exception that prevented it.
template <class X, class Y>
struct HostBatch {
  Tensor<X, Host> inputs;
  Tensor<Y, Host> targets;
  std::shared_ptr<void> staging_x, staging_y;  // pinned owners (empty without pinning)
  std::exception_ptr error;
};

/// Batches of a pass: ceil or floor of plan size / batch size.
inline std::int64_t batch_count(std::int64_t samples, std::int64_t batch_size, bool drop_last) {
  // Not (samples + batch_size - 1) / batch_size: that overflows for batch_size near INT64_MAX.
  return samples / batch_size + (!drop_last && samples % batch_size != 0 ? 1 : 0);
}

template <class X, class Y>
class LoaderPass {
public:
  LoaderPass(std::shared_ptr<const DatasetSource<X, Y>> source, const DataLoaderOptions& options,
             BatchTransformFn<X, Y> transform, StagingAllocator staging, std::uint64_t epoch)
      : source_(std::move(source)), transform_(std::move(transform)), staging_(std::move(staging)),
        batch_size_(options.batch_size()) {
    const std::int64_t n = source_->size();
    plan_ = options.effective_sampler()(n, epoch);
    for (std::size_t k = 0; k < plan_.size(); ++k)
      KT_REQUIRE(plan_[k] >= 0 && plan_[k] < n, "kt::DataLoader: the sampler returned index ", plan_[k],
                 " (position ", k, ") for a dataset of ", n, " samples");
    num_batches_ = batch_count(static_cast<std::int64_t>(plan_.size()), batch_size_, options.drop_last());
    capacity_ = std::max(options.prefetch(), options.num_workers());
    const int workers = static_cast<int>(std::min<std::int64_t>(options.num_workers(), num_batches_));
    // Without workers the consuming thread collates while the host pool idles: split each
    // batch's rows over the pool (a plain-copy gather only; see gather_rows).
    if (workers == 0 && source_->gather_splits()) gather_ways_ = Kokkos::DefaultHostExecutionSpace().concurrency();
    threads_.reserve(static_cast<std::size_t>(workers));
    for (int w = 0; w < workers; ++w) {
      try {
        threads_.emplace_back([this] { work(); });
      } catch (...) {
        // The destructor does not run for a constructor that throws: join the started
        // workers here (a joinable std::thread destroyed would terminate the process).
        stop();
        throw_nested_error(std::current_exception(),
                           concat("kt::DataLoader: cannot start worker thread ", w + 1, " of ", workers,
                                  " (use fewer num_workers): "),
                           __FILE__, __LINE__);
      }
    }
  }

  ~LoaderPass() { stop(); }
  LoaderPass(const LoaderPass&) = delete;
  LoaderPass& operator=(const LoaderPass&) = delete;

  std::int64_t num_batches() const { return num_batches_; }

  /// The next batch in order; false after the last. A failed batch throws kt::Error with
  /// the original message, and the original exception nested in it.
  bool next(HostBatch<X, Y>& out) {
    if (consumed_ >= num_batches_) return false;
    const std::int64_t k = consumed_;
    if (threads_.empty()) {
      build(k, out);
      ++consumed_;
    } else {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_cv_.wait(lock, [&] { return ready_.count(k) > 0; });
        out = std::move(ready_[k]);
        ready_.erase(k);
        ++consumed_;
      }
      work_cv_.notify_all();
    }
    if (out.error) {
      stop();
      throw_nested_error(out.error, concat("kt::DataLoader: building batch ", k, " failed: "), __FILE__, __LINE__);
    }
    return true;
  }

  /// Stops and joins the workers (idempotent).
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    work_cv_.notify_all();
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }

private:
  void build(std::int64_t k, HostBatch<X, Y>& out) noexcept {
    try {
      const std::int64_t first = k * batch_size_;
      const std::int64_t count = std::min<std::int64_t>(batch_size_, static_cast<std::int64_t>(plan_.size()) - first);
      const Shape xs = batch_shape(count, source_->input_shape());
      const Shape ys = batch_shape(count, source_->target_shape());
      if (staging_) {
        void *px = nullptr, *py = nullptr;
        out.staging_x = staging_(static_cast<std::size_t>(xs.numel()) * sizeof(X), px);
        out.staging_y = staging_(static_cast<std::size_t>(ys.numel()) * sizeof(Y), py);
        out.inputs = Tensor<X, Host>::from_blob(static_cast<X*>(px), xs);
        out.targets = Tensor<Y, Host>::from_blob(static_cast<Y*>(py), ys);
      } else {
        out.inputs = Tensor<X, Host>(xs);
        out.targets = Tensor<Y, Host>(ys);
      }
      gather_rows(plan_.data() + first, count, out.inputs.data(), out.targets.data());
      if (transform_) transform_(out.inputs, out.targets);
    } catch (...) {
      out.error = std::current_exception();
    }
  }

  /// The source's gather, split into up to gather_ways_ pieces of at least kGatherPieceBytes
  /// of batch, run on the host's threads (kt::impl::parallel_pieces). Fashion-MNIST at batch
  /// 256 (800 KB of floats): 2 pieces on 2 threads, 6 on 8 or more. A failing piece's
  /// exception is rethrown after all pieces ended, the first piece's first (so the message
  /// names the first bad index, as unsplit).
  void gather_rows(const std::int64_t* indices, std::int64_t count, X* inputs, Y* targets) const {
    constexpr std::int64_t kGatherPieceBytes = 128 * 1024;
    const std::int64_t in_row = source_->input_shape().numel(), tg_row = source_->target_shape().numel();
    const std::int64_t bytes = count * (in_row * std::int64_t(sizeof(X)) + tg_row * std::int64_t(sizeof(Y)));
    const int pieces = static_cast<int>(std::clamp<std::int64_t>(
        bytes / kGatherPieceBytes, 1, std::min<std::int64_t>(gather_ways_, std::max<std::int64_t>(count, 1))));
    if (pieces == 1) {
      source_->gather(indices, count, inputs, targets);
      return;
    }
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(pieces));
    parallel_pieces("kt::DataLoader::gather", pieces, [&](int p) {
      const std::int64_t begin = count * p / pieces, end = count * (p + 1) / pieces;
      try {
        source_->gather(indices + begin, end - begin, inputs + begin * in_row, targets + begin * tg_row);
      } catch (...) {
        errors[static_cast<std::size_t>(p)] = std::current_exception();
      }
    });
    for (const auto& error : errors)
      if (error) std::rethrow_exception(error);
  }

  void work() {
    while (true) {
      std::int64_t k;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        work_cv_.wait(lock, [&] {
          return stopping_ || claimed_ >= num_batches_ || claimed_ < consumed_ + capacity_;
        });
        if (stopping_ || claimed_ >= num_batches_) return;
        k = claimed_++;
      }
      HostBatch<X, Y> batch;
      build(k, batch);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        ready_.emplace(k, std::move(batch));
      }
      ready_cv_.notify_one();
    }
  }

  std::shared_ptr<const DatasetSource<X, Y>> source_;
  BatchTransformFn<X, Y> transform_;
  StagingAllocator staging_;
  std::int64_t batch_size_;
  std::vector<std::int64_t> plan_;
  std::int64_t num_batches_ = 0;
  std::int64_t capacity_ = 1;
  int gather_ways_ = 1;  // threads the consuming thread's gather may split a batch over

  std::mutex mutex_;
  std::condition_variable work_cv_, ready_cv_;
  std::map<std::int64_t, HostBatch<X, Y>> ready_;
  std::int64_t claimed_ = 0;  // guarded by mutex_
  std::int64_t consumed_ = 0; // written by the consumer under mutex_ when workers run
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace kt::impl
