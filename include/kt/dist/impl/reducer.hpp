#pragma once
// DistributedDataParallel's gradient reducer (PyTorch's Reducer, kept small).
//
// Design. Parameters are packed, in reverse registration order (the order backward produces
// their gradients), into buckets of about `bucket_bytes` (the first bucket capped at 1 MiB, as
// PyTorch does, so that communication starts early). Each parameter's post-accumulate-grad hook
// copies its gradient into its bucket's flat buffer; when a bucket is full it is all-reduced
// (avg) with a non-blocking collective while backward computes the earlier layers' gradients.
// Buckets start strictly in order, so every rank issues the same collectives in the same order
// even when its gradients become ready in another order. Every hook also tests the buckets in
// flight: MPI progresses non-blocking collectives only inside MPI calls. A callback queued on
// the first hook runs when backward ends: it fills the slots of parameters that got no gradient
// in this backward (their current .grad, or zeros), starts the remaining buckets, waits for all
// and copies the averages back into .grad. Under no_sync() the hooks do nothing: gradients
// accumulate locally and the next synchronised backward reduces the sum.

#include "kt/core/impl/internal.hpp"

#include "kt/autograd/hooks.hpp"
#include "kt/autograd/var.hpp"
#include "kt/dist/process_group.hpp"
#include "kt/tensor/factories.hpp"

#include <Kokkos_Core.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace kt::dist {

/// When each bucket's all-reduce ran in the last synchronised backward, in seconds from the
/// first gradient hook; `backward_end` is when backward's own work ended (the final callback).
struct BucketTiming {
  std::size_t bytes = 0;
  double started = 0, completed = 0;
};
struct SyncTimings {
  double backward_end = 0, finished = 0;
  std::vector<BucketTiming> buckets;
  /// The share of all-reduce time that ran while backward was still computing: for each
  /// bucket min(completed, backward_end) - started, summed, over the sum of completed - started.
  double overlap_fraction() const {
    double hidden = 0, total = 0;
    for (const auto& b : buckets) {
      total += b.completed - b.started;
      hidden += std::max(0.0, std::min(b.completed, backward_end) - b.started);
    }
    return total > 0 ? hidden / total : 0;
  }
};

}  // namespace kt::dist

namespace kt::impl {

template <class T, class D>
class Reducer {
  using Clock = std::chrono::steady_clock;

public:
  Reducer(std::vector<Var<T, D>> params, dist::ProcessGroup group, std::size_t bucket_bytes,
          std::size_t first_bucket_bytes)
      : params_(std::move(params)), group_(std::move(group)) {
    slot_.resize(params_.size());
    Bucket* open = nullptr;
    std::size_t cap = first_bucket_bytes;
    for (std::size_t k = params_.size(); k-- > 0;) {
      if (!open || open->elements * sizeof(T) >= cap) {
        if (open) cap = bucket_bytes;
        buckets_.emplace_back();
        open = &buckets_.back();
      }
      slot_[k] = {buckets_.size() - 1, open->elements};
      open->params.push_back(k);
      open->elements += params_[k].numel();
    }
    for (auto& bucket : buckets_) bucket.flat = Tensor<T, D>(Shape{bucket.elements}, D());
    for (std::size_t k = 0; k < params_.size(); ++k)
      hooks_.push_back(params_[k].register_post_accumulate_grad_hook([this, k](const Var<T, D>&) { ready(k); }));
    reset();
  }
  ~Reducer() {
    for (auto& hook : hooks_) hook.remove();
  }
  Reducer(const Reducer&) = delete;
  Reducer& operator=(const Reducer&) = delete;

  void set_sync(bool on) { sync_ = on; }
  bool sync() const { return sync_; }
  std::size_t bucket_count() const { return buckets_.size(); }
  const dist::SyncTimings& timings() const { return timings_; }

private:
  struct Bucket {
    std::vector<std::size_t> params;  // in the order they are packed
    std::int64_t elements = 0;
    Tensor<T, D> flat;
    std::size_t waiting = 0;  // parameters whose gradient is not in flat yet
    bool started = false, completed = false;
    dist::Work work;
  };
  struct Slot {
    std::size_t bucket = 0;
    std::int64_t offset = 0;
  };

  double now() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }

  void reset() {
    for (auto& bucket : buckets_) {
      bucket.waiting = bucket.params.size();
      bucket.started = bucket.completed = false;
      bucket.work = dist::Work();
    }
    in_backward_ = false;
    next_ = 0;
    packed_.assign(params_.size(), false);
  }

  auto slice(std::size_t k) const {
    const Slot& s = slot_[k];
    const auto n = params_[k].numel();
    return Kokkos::subview(buckets_[s.bucket].flat.view(), std::make_pair(s.offset, s.offset + n));
  }

  // Called by parameter k's hook: its gradient of this backward is complete.
  void ready(std::size_t k) {
    if (!sync_) return;
    if (!in_backward_) {
      in_backward_ = true;
      t0_ = Clock::now();
      timings_ = dist::SyncTimings();
      autograd::queue_callback([this] { finish(); });
    }
    pack(k);
    start_ready_buckets();
    poll();
  }

  void pack(std::size_t k) {
    if (packed_[k]) return;
    packed_[k] = true;
    const Tensor<T, D>& grad = params_[k].grad();
    if (grad.defined()) Kokkos::deep_copy(slice(k), grad.view());
    else Kokkos::deep_copy(slice(k), T(0));  // no gradient on this rank: contributes zero
    --buckets_[slot_[k].bucket].waiting;
  }

  void start_ready_buckets() {
    while (next_ < buckets_.size() && buckets_[next_].waiting == 0) {
      Bucket& bucket = buckets_[next_++];
      bucket.started = true;
      timings_.buckets.push_back({static_cast<std::size_t>(bucket.elements) * sizeof(T), now(), 0});
      bucket.work = group_.all_reduce_async(bucket.flat, dist::ReduceOp::avg);
    }
  }

  void poll() {
    for (std::size_t b = 0; b < next_; ++b)
      if (!buckets_[b].completed && buckets_[b].work.is_completed()) complete(b);
  }
  void complete(std::size_t b) {
    buckets_[b].completed = true;
    timings_.buckets[b].completed = now();
  }

  // The end of backward: every bucket is reduced and its averages become the gradients.
  void finish() {
    struct Reset {  // however finish ends, the next backward starts afresh
      Reducer& r;
      ~Reset() { r.reset(); }
    } reset_at_end{*this};
    timings_.backward_end = now();
    for (std::size_t k = 0; k < params_.size(); ++k) pack(k);  // parameters backward did not reach
    start_ready_buckets();
    for (std::size_t b = 0; b < buckets_.size(); ++b)
      if (!buckets_[b].completed) {
        buckets_[b].work.wait();
        complete(b);
      }
    for (std::size_t k = 0; k < params_.size(); ++k) {
      Var<T, D>& p = params_[k];
      if (!p.grad().defined()) p.set_grad(Tensor<T, D>(p.shape(), D()));
      Kokkos::deep_copy(p.grad().view(), slice(k));
    }
    timings_.finished = now();
  }

  std::vector<Var<T, D>> params_;
  dist::ProcessGroup group_;
  std::vector<Bucket> buckets_;
  std::vector<Slot> slot_;
  std::vector<HookHandle> hooks_;
  std::vector<bool> packed_;
  std::size_t next_ = 0;  // the next bucket to start
  bool sync_ = true, in_backward_ = false;
  Clock::time_point t0_;
  dist::SyncTimings timings_;
};

}  // namespace kt::impl
