#pragma once
/// \file kt/data/dataloader.hpp
/// `kt::DataLoader<Device, X, Y>` (`torch.utils.data.DataLoader`): batches of a dataset,
/// collated into contiguous tensors and delivered on Device. Seeded shuffling with a new
/// order every epoch, drop_last, a sampler hook, worker threads with a bounded prefetch queue,
/// and, for a GPU, pinned host staging plus an asynchronous copy of the next batch on an
/// execution-space instance of its own while the current batch is in use. Host devices
/// receive the staged batch itself (no copy): each batch has its own storage, which stays
/// valid for as long as the caller holds the tensors.
///
///     kt::TensorDataset train(images, labels);          // (60000, 784) float, (60000) int64
///     auto loader = kt::make_data_loader<kt::DefaultDevice>(train,
///         kt::DataLoaderOptions().batch_size(256).shuffle(true).seed(0).num_workers(2));
///     for (int epoch = 0; epoch < 10; ++epoch) {
///       loader.set_epoch(epoch);                          // order of this pass
///       for (auto [x, y] : loader) { /* x: (256, 784) on the device, y: (256) */ }
///     }
///
/// Every begin() starts a pass with the current epoch and then advances the epoch by one, so
/// consecutive loops see different orders without set_epoch; set_epoch(e) picks the epoch of
/// the next pass (as DistributedSampler's set_epoch). The same options and epoch give the same
/// batches whatever num_workers is. An exception while building a batch reaches the loop as
/// kt::Error carrying the original message; leaving the loop early stops and joins the workers.

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/device.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/core/profiling.hpp"
#include "kt/data/dataloader_options.hpp"
#include "kt/data/dataset.hpp"
#include "kt/data/impl/dataset_source.hpp"
#include "kt/data/impl/loader_pass.hpp"
#include "kt/data/impl/staging.hpp"
#include "kt/data/normalized_dataset.hpp"
#include "kt/data/tensor_dataset.hpp"
#include "kt/tensor/tensor.hpp"
#include "kt/tensor/transfer.hpp"

#include <cstdint>
#include <exception>
#include <iterator>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace kt {

/// One batch on Device: `auto [inputs, targets] = batch;`.
template <class X, class Y, class Device>
struct Batch {
  Tensor<X, Device> inputs;   ///< (B, input dims...)
  Tensor<Y, Device> targets;  ///< (B, target dims...)
};

/// Runs on every host batch in the worker that built it, before the copy to the device; may
/// modify the tensors in place or replace them (e.g. by a reshaped view).
template <class X, class Y>
using BatchTransform = impl::BatchTransformFn<X, Y>;

template <class Device = DefaultDevice, class X = float, class Y = std::int64_t>
class DataLoader {
  static_assert(is_device_v<Device>, "kt::DataLoader<Device, X, Y>: Device must be a Kokkos execution "
                                     "space such as kt::Serial, kt::OpenMP, kt::Cuda");

  // One pass: the host pipeline plus, for devices with their own memory, the batch whose copy
  // is in flight on the loader's copy instance.
  struct Pass {
    impl::LoaderPass<X, Y> host;
    std::optional<impl::HostBatch<X, Y>> in_flight_host;
    std::optional<impl::HostBatch<X, Y>> retired_host;  // handed off; staging read until retired_mark
    int retired_mark = 0;
    Batch<X, Y, Device> in_flight, current;
    std::exception_ptr pending_error;
    bool done = false;
    impl::CopyInstance<Device> copy;  // last: destroyed (and fenced) first

    template <class... Args>
    explicit Pass(Args&&... args) : host(std::forward<Args>(args)...) {}

    static constexpr bool shares_memory = std::is_same_v<memory_space_t<Device>, memory_space_t<Host>>;

    void advance() {
      KT_PROFILE_REGION("kt::DataLoader::next");
      if constexpr (shares_memory) {
        impl::HostBatch<X, Y> batch;
        if (!host.next(batch)) {
          done = true;
          return;
        }
        current = {batch.inputs.template to<Device>(), batch.targets.template to<Device>()};
      } else {
        if (!in_flight_host && !pending_error) issue();
        if (pending_error) std::rethrow_exception(std::exchange(pending_error, nullptr));
        if (!in_flight_host) {
          done = true;
          return;
        }
        // Batch k's copies come before the caller's kernels on kt's stream: the device
        // orders them, the host does not wait.
        const int mark = copy.hand_off();
        current = std::move(in_flight);
        // The caller's kernels read batch k on kt's stream: its memory must not go to the copy
        // instance's next batch before that work is done (stream-safe reuse).
        current.inputs.record_stream(impl::work_instance(Device()));
        current.targets.record_stream(impl::work_instance(Device()));
        // Batch k's pinned staging goes back to the pool once its copy has read it: kept until
        // the next hand-off, by when that copy is long done.
        if (retired_host) copy.wait(retired_mark);
        retired_host = std::move(in_flight_host);
        retired_mark = mark;
        in_flight_host.reset();
        issue();  // batch k+1 starts copying while the caller uses batch k
      }
    }

    // Takes the next host batch and starts its copy on the copy instance; an error is kept
    // for the next advance() so that the current batch is still delivered.
    void issue() {
      try {
        impl::HostBatch<X, Y> batch;
        if (!host.next(batch)) return;
        // Allocated for the copy instance, which writes them (see advance() for the reads).
        const auto exec = copy.get();
        Batch<X, Y, Device> next{Tensor<X, Device>(batch.inputs.shape(), exec),
                                 Tensor<Y, Device>(batch.targets.shape(), exec)};
        kt::copy(exec, next.inputs, batch.inputs);
        kt::copy(exec, next.targets, batch.targets);
        in_flight = std::move(next);
        in_flight_host = std::move(batch);
      } catch (...) {
        pending_error = std::current_exception();
      }
    }
  };

public:
  using batch_type = Batch<X, Y, Device>;

  /// Input iterator over one pass; `*it` is the current batch, valid until the next `++it`
  /// (the tensors themselves stay valid for as long as they are held).
  class iterator {
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = batch_type;
    using difference_type = std::ptrdiff_t;
    using pointer = const batch_type*;
    using reference = const batch_type&;

    iterator() = default;
    reference operator*() const { return pass_->current; }
    pointer operator->() const { return &pass_->current; }
    iterator& operator++() {
      pass_->advance();
      if (pass_->done) pass_.reset();  // the last batch: stop and join the workers now
      return *this;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.pass_ == b.pass_; }
    friend bool operator!=(const iterator& a, const iterator& b) { return !(a == b); }

  private:
    friend class DataLoader;
    explicit iterator(std::shared_ptr<Pass> pass) : pass_(std::move(pass)) {
      ++*this;  // the first batch
    }
    std::shared_ptr<Pass> pass_;  // null at the end
  };

  /// A loader over `dataset` (held by value; datasets of tensors share storage). The
  /// dataset's samples must be kt::Sample<X, Y>.
  template <class Dataset>
  explicit DataLoader(Dataset dataset, DataLoaderOptions options = DataLoaderOptions())
      : options_(std::move(options)) {
    static_assert(is_dataset_v<Dataset>, "kt::DataLoader: the dataset must model kt's Dataset concept "
                                         "(size() and get(i) -> kt::Sample<X, Y>)");
    static_assert(std::is_same_v<input_t<Dataset>, X> && std::is_same_v<target_t<Dataset>, Y>,
                  "kt::DataLoader<Device, X, Y>: the dataset's samples are not kt::Sample<X, Y>; "
                  "use kt::make_data_loader<Device>(dataset, options), which deduces X and Y");
    KT_PROFILE_REGION("kt::DataLoader::DataLoader");
    source_ = std::make_shared<impl::DatasetSourceFor<Dataset, X, Y>>(std::move(dataset));
    staging_ = impl::staging_allocator<Device>(options_.pin_memory());
  }

  /// Starts a pass with the current epoch, then advances the epoch.
  iterator begin() {
    KT_PROFILE_REGION("kt::DataLoader::begin");
    return iterator(std::make_shared<Pass>(source_, options_, transform_, staging_, epoch_++));
  }
  iterator end() const { return iterator(); }

  /// Batches in one pass (`len(loader)`).
  std::int64_t size() const {
    const std::int64_t samples = options_.sampler()
                                     ? static_cast<std::int64_t>(options_.sampler()(source_->size(), epoch_).size())
                                     : source_->size();
    return impl::batch_count(samples, options_.batch_size(), options_.drop_last());
  }
  /// Samples in the dataset.
  std::int64_t dataset_size() const { return source_->size(); }

  /// The epoch of the next pass (its shuffle order).
  void set_epoch(std::uint64_t epoch) { epoch_ = epoch; }
  std::uint64_t epoch() const { return epoch_; }

  /// A per-batch transform, run on the host batch in the worker that built it.
  void set_batch_transform(BatchTransform<X, Y> transform) { transform_ = std::move(transform); }

  const DataLoaderOptions& options() const { return options_; }

private:
  DataLoaderOptions options_;
  std::shared_ptr<const impl::DatasetSource<X, Y>> source_;
  impl::StagingAllocator staging_;
  BatchTransform<X, Y> transform_;
  std::uint64_t epoch_ = 0;
};

template <class Dataset>
DataLoader(Dataset) -> DataLoader<DefaultDevice, input_t<Dataset>, target_t<Dataset>>;
template <class Dataset>
DataLoader(Dataset, DataLoaderOptions) -> DataLoader<DefaultDevice, input_t<Dataset>, target_t<Dataset>>;

/// A DataLoader delivering on Device, with X and Y deduced from the dataset's samples.
template <class Device = DefaultDevice, class Dataset>
DataLoader<Device, input_t<Dataset>, target_t<Dataset>> make_data_loader(
    Dataset dataset, DataLoaderOptions options = DataLoaderOptions()) {
  return DataLoader<Device, input_t<Dataset>, target_t<Dataset>>(std::move(dataset), std::move(options));
}

}  // namespace kt

// kt_compiled (kt/core/impl/compiled.hpp): loaders of the common samples, floating inputs with
// int64 labels or with targets of their own dtype, from a TensorDataset of host tensors; and of
// 8-bit images normalised to float (kt::NormalizedDataset, as read from IDX files).
#define KT_ETI_EACH_SAMPLE(M, D, KW) \
  M(float, std::int64_t, D, KW) M(double, std::int64_t, D, KW) M(float, float, D, KW) M(double, double, D, KW)
#define KT_ETI_TENSOR_DATASET(X, Y, D, KW) \
  KW class kt::TensorDataset<X, Y>;        \
  KW kt::TensorDataset<X, Y>::TensorDataset(const kt::Tensor<X, D>&, const kt::Tensor<Y, D>&);
#define KT_ETI_LOADER_SOURCE(X, Y, D, KW) \
  KT_ETI_TENSOR_DATASET(X, Y, D, KW)      \
  KW class kt::impl::LoaderPass<X, Y>;    \
  KW class kt::impl::DatasetSourceFor<kt::TensorDataset<X, Y>, X, Y>;
#define KT_ETI_DATALOADER_ONE(X, Y, D, KW) KW class kt::DataLoader<D, X, Y>;
#define KT_ETI_DATALOADER_DEVICE(D, KW) KT_ETI_EACH_SAMPLE(KT_ETI_DATALOADER_ONE, D, KW)
#define KT_ETI_DATALOADER(KW)                                                                                         \
  KT_ETI_EACH_SAMPLE(KT_ETI_LOADER_SOURCE, kt::Host, KW)                                                              \
  KT_ETI_TENSOR_DATASET(std::uint8_t, std::int64_t, kt::Host, KW)                                                     \
  KW class kt::NormalizedDataset<std::uint8_t, std::int64_t, float>;                                                  \
  KW kt::NormalizedDataset<std::uint8_t, std::int64_t, float>::NormalizedDataset(                                     \
      const kt::Tensor<std::uint8_t, kt::Host>&, const kt::Tensor<std::int64_t, kt::Host>&, double, kt::Normalize);   \
  KW class kt::impl::DatasetSourceFor<kt::NormalizedDataset<std::uint8_t, std::int64_t, float>, float, std::int64_t>; \
  KT_ETI_EACH_DEVICE(KT_ETI_DATALOADER_DEVICE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_DATA)
KT_ETI_DATALOADER(extern template)
#endif

#include "kt/core/impl/public_end.hpp"
