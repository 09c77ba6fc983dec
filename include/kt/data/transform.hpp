#pragma once
/// \file kt/data/transform.hpp
/// Transforms (`torchvision.transforms`): `kt::Normalize` and `kt::Flatten` work on host
/// tensors, per sample (wrap a dataset with `kt::map_inputs`) or per batch (a DataLoader's
/// `set_batch_transform`, which runs in the loader's workers on the host batch). With
/// num_workers > 0 transforms run on worker threads: plain loops, no Kokkos kernels.
///
///     kt::Normalize normalize(0.2860, 0.3530);         // (x - mean) / std
///     auto per_sample = kt::map_inputs(train, normalize);           // a new Dataset
///     loader.set_batch_transform([=](kt::Tensor<float, kt::Host>& x, kt::Tensor<std::int64_t, kt::Host>&) {
///       normalize.apply_(x);                            // in place on the fresh batch
///       x = kt::Flatten(1)(x);                          // (B, 28, 28) -> (B, 784), a view
///     });

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/device.hpp"
#include "kt/core/error.hpp"
#include "kt/core/profiling.hpp"
#include "kt/data/dataset.hpp"
#include "kt/tensor/tensor.hpp"

#include <cstdint>
#include <utility>

namespace kt {

/// (x - mean) / std elementwise, for floating host tensors.
class Normalize {
public:
  Normalize(double mean, double std) : mean_(mean), std_(std) {
    KT_REQUIRE(std > 0, "kt::Normalize: std must be positive, got ", std);
  }

  /// A normalised copy of x (x is unchanged: per-sample inputs are often views into a dataset).
  template <class T>
  Tensor<T, Host> operator()(const Tensor<T, Host>& x) const {
    static_assert(is_floating_dtype_v<T>, "kt::Normalize: the tensor must have a floating dtype");
    KT_REQUIRE(x.defined(), "kt::Normalize: the tensor is undefined");
    Tensor<T, Host> out(x.shape());  // a serial loop, no Kokkos kernel: safe in loader workers
    transform(x.data(), out.data(), x.numel());
    return out;
  }

  /// Normalises x in place and returns it.
  template <class T>
  const Tensor<T, Host>& apply_(const Tensor<T, Host>& x) const {
    static_assert(is_floating_dtype_v<T>, "kt::Normalize: the tensor must have a floating dtype");
    KT_PROFILE_REGION("kt::Normalize");
    KT_REQUIRE(x.defined(), "kt::Normalize: the tensor is undefined");
    transform(x.data(), x.data(), x.numel());
    return x;
  }

  double mean() const { return mean_; }
  double std() const { return std_; }

  /// One element x of a floating dtype T, normalised and rounded as apply_ does (loops that
  /// convert while copying call this: kt::NormalizedDataset).
  template <class T>
  T element(T x) const {
    using C = compute_t<T>;
    return static_cast<T>((static_cast<C>(x) - static_cast<C>(mean_)) * static_cast<C>(1.0 / std_));
  }

private:
  template <class T>
  void transform(const T* in, T* out, std::int64_t n) const {
    const Normalize local = *this;  // a local copy: the loop cannot change it, so 1/std is hoisted
    for (std::int64_t i = 0; i < n; ++i) out[i] = local.element(in[i]);
  }

  double mean_, std_;
};

/// Merges dims start_dim.. into one (a view): Flatten(0) for a sample, Flatten(1) for a batch.
class Flatten {
public:
  explicit Flatten(int start_dim = 0) : start_dim_(start_dim) {}
  template <class T, class D>
  Tensor<T, D> operator()(const Tensor<T, D>& x) const {
    return x.flatten(start_dim_);
  }

private:
  int start_dim_;
};

/// A dataset whose samples are `f(dataset.get(i))`; f maps a kt::Sample to a kt::Sample.
template <class Dataset, class F>
class MapDataset {
  static_assert(is_dataset_v<Dataset>, "kt::map_samples: the first argument must model kt's "
                                       "Dataset concept (size() and get(i) -> kt::Sample<X, Y>)");

public:
  MapDataset(Dataset dataset, F f) : dataset_(std::move(dataset)), f_(std::move(f)) {}
  std::int64_t size() const { return dataset_.size(); }
  auto get(std::int64_t i) const { return f_(dataset_.get(i)); }
  const Dataset& dataset() const { return dataset_; }

private:
  Dataset dataset_;
  F f_;
};

/// Applies f (Sample -> Sample) to every sample when it is read.
template <class Dataset, class F>
MapDataset<Dataset, F> map_samples(Dataset dataset, F f) {
  return {std::move(dataset), std::move(f)};
}

/// Applies f (input tensor -> input tensor) to every sample's input when it is read.
template <class Dataset, class F>
auto map_inputs(Dataset dataset, F f) {
  auto g = [f = std::move(f)](auto sample) {
    sample.input = f(sample.input);
    return sample;
  };
  return MapDataset<Dataset, decltype(g)>(std::move(dataset), std::move(g));
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
