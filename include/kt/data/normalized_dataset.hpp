#pragma once
/// \file kt/data/normalized_dataset.hpp
/// `kt::NormalizedDataset`: a TensorDataset whose inputs stay in the dtype they were stored in
/// (uint8 images: a quarter of float's bytes) and become floating point while a batch is
/// gathered: x = normalize(s * scale), torchvision's `ToTensor()` (scale 1/255) and
/// `Normalize(mean, std)` fused into the DataLoader's copy. Each value is rounded as
/// `kt::read_idx_float(path, scale)` followed by `Normalize::apply_` rounds it, so training
/// on either gives the same bits; this one reads 4x fewer bytes per batch and keeps the data
/// set 4x smaller.
///
///     auto images = kt::read_idx<std::uint8_t>("train-images-idx3-ubyte.gz");  // (60000, 28, 28)
///     auto labels = kt::read_idx<std::int64_t>("train-labels-idx1-ubyte.gz");
///     kt::NormalizedDataset train(images.reshape({-1, 784}), labels, 1.0 / 255,
///                                 kt::Normalize(0.2860, 0.3530));      // samples: float, int64
///     auto loader = kt::make_data_loader<D>(train, kt::DataLoaderOptions().batch_size(256));

#include "kt/core/impl/public_begin.hpp"

#include "kt/data/impl/prefetch_row.hpp"
#include "kt/data/tensor_dataset.hpp"
#include "kt/data/transform.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace kt {

template <class S, class Y, class X = float>
class NormalizedDataset {
  static_assert(is_floating_dtype_v<X>, "kt::NormalizedDataset<S, Y, X>: X (the inputs' dtype "
                                        "in a batch) must be a floating dtype");

public:
  using input_type = X;
  using target_type = Y;
  /// gather() converts rows element by element and launches no kernel: the DataLoader may
  /// split a batch over threads.
  static constexpr bool gather_is_plain_copy = true;

  /// Row i of `inputs` (stored as S) becomes normalize(s * scale) as X; row i of `targets`
  /// is copied. The tensors' requirements are TensorDataset's.
  template <class DX, class DY>
  NormalizedDataset(const Tensor<S, DX>& inputs, const Tensor<Y, DY>& targets, double scale, Normalize normalize)
      : stored_(inputs, targets), scale_(scale), normalize_(normalize) {}

  std::int64_t size() const { return stored_.size(); }
  Shape input_shape() const { return stored_.input_shape(); }
  Shape target_shape() const { return stored_.target_shape(); }
  double scale() const { return scale_; }
  const Normalize& normalize() const { return normalize_; }
  /// The stored tensors, as they were given.
  const TensorDataset<S, Y>& stored() const { return stored_; }

  /// Sample i: its input converted (a new tensor), its target a view.
  Sample<X, Y> get(std::int64_t i) const {
    auto [stored_input, target] = stored_.get(i);  // (checks i)
    Tensor<X, Host> input(stored_input.shape());
    convert(stored_input.data(), input.data(), stored_input.numel());
    return {input, target};
  }

  /// The DataLoader's fast path: rows indices[0..count) converted into `inputs` and copied
  /// into `targets`, contiguous, in that order.
  void gather(const std::int64_t* indices, std::int64_t count, X* inputs, Y* targets) const {
    const std::int64_t in_row = input_shape().numel(), tg_row = target_shape().numel();
    const S* in = stored_.inputs().data();
    const Y* tg = stored_.targets().data();
    for (std::int64_t k = 0; k < count; ++k) {
      const std::int64_t i = indices[k];
      KT_REQUIRE(i >= 0 && i < size(), "kt::NormalizedDataset::gather: index ", i,
                 " is out of range for a dataset of ", size(), " samples");
      if (k + 1 < count && indices[k + 1] >= 0 && indices[k + 1] < size())
        impl::prefetch_row(in + indices[k + 1] * in_row, in_row * std::int64_t(sizeof(S)));
      convert(in + i * in_row, inputs + k * in_row, in_row);
      if (tg_row > 0) std::memcpy(targets + k * tg_row, tg + i * tg_row, static_cast<std::size_t>(tg_row) * sizeof(Y));
    }
  }

private:
  void convert(const S* in, X* out, std::int64_t n) const {
    // Local copies: a uint8 source may alias anything, members included, so the compiler would
    // otherwise reload them per element and keep the loop scalar.
    const double scale = scale_;
    const Normalize normalize = normalize_;
    for (std::int64_t j = 0; j < n; ++j) out[j] = normalize.element(static_cast<X>(static_cast<double>(in[j]) * scale));
  }

  TensorDataset<S, Y> stored_;
  double scale_;
  Normalize normalize_;
};

template <class S, class DX, class Y, class DY>
NormalizedDataset(const Tensor<S, DX>&, const Tensor<Y, DY>&, double, Normalize) -> NormalizedDataset<S, Y, float>;

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
