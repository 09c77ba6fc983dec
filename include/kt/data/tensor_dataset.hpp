#pragma once
/// \file kt/data/tensor_dataset.hpp
/// `kt::TensorDataset`: samples are the rows (dim 0) of an input tensor and a target tensor
/// (`torch.utils.data.TensorDataset`). Inputs of shape (N, ...), targets of shape (N) or
/// (N, ...), any dtypes; both on the host (tensors of another host device are shared, not
/// copied).
///
///     auto images = kt::read_idx_float("train-images-idx3-ubyte.gz");   // (60000, 28, 28)
///     auto labels = kt::read_idx<std::int64_t>("train-labels-idx1-ubyte.gz");
///     kt::TensorDataset train(images.reshape({-1, 784}), labels);
///     auto [x, y] = train.get(0);                 // x: (784) float, y: () int64 — views

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/device.hpp"
#include "kt/core/error.hpp"
#include "kt/core/profiling.hpp"
#include "kt/data/dataset.hpp"
#include "kt/data/impl/prefetch_row.hpp"
#include "kt/tensor/tensor.hpp"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace kt {

template <class X, class Y>
class TensorDataset {
public:
  using input_type = X;
  using target_type = Y;
  /// gather() copies rows and nothing else: the DataLoader may split a batch over threads.
  static constexpr bool gather_is_plain_copy = true;

  /// Pairs row i of `inputs` with row i of `targets`; both need rank >= 1 and equal dim 0.
  template <class DX, class DY>
  TensorDataset(const Tensor<X, DX>& inputs, const Tensor<Y, DY>& targets) {
    static_assert(is_host_accessible_v<DX> && is_host_accessible_v<DY>,
                  "kt::TensorDataset: the tensors must be on a host device; move them with "
                  ".to<kt::Host>() (the DataLoader moves each batch to your device)");
    KT_REQUIRE(inputs.defined() && targets.defined(), "kt::TensorDataset: the ",
               inputs.defined() ? "targets are" : "inputs are", " an undefined tensor");
    KT_REQUIRE(inputs.rank() >= 1 && targets.rank() >= 1,
               "kt::TensorDataset: inputs and targets need a sample dimension (rank >= 1); got "
               "inputs ", inputs.shape().str(), ", targets ", targets.shape().str());
    KT_REQUIRE(inputs.size(0) == targets.size(0), "kt::TensorDataset: inputs have ",
               inputs.size(0), " samples but targets have ", targets.size(0), " (inputs ",
               inputs.shape().str(), ", targets ", targets.shape().str(), ")");
    inputs_ = inputs.template to<Host>();
    targets_ = targets.template to<Host>();
  }

  /// Number of samples (dim 0).
  std::int64_t size() const { return inputs_.size(0); }

  /// Sample i: row i of the inputs and of the targets (views that share the storage).
  Sample<X, Y> get(std::int64_t i) const {
    check_index(i, "get");
    return {inputs_[i], targets_[i]};
  }

  /// One sample's input shape (inputs' shape without dim 0), and target shape.
  Shape input_shape() const { return inputs_.shape().without(0); }
  Shape target_shape() const { return targets_.shape().without(0); }

  const Tensor<X, Host>& inputs() const { return inputs_; }
  const Tensor<Y, Host>& targets() const { return targets_; }

  /// The DataLoader's fast path: copies rows indices[0..count) of the inputs and targets,
  /// in that order, into contiguous buffers of count * input_shape().numel() and
  /// count * target_shape().numel() elements (one memcpy per row).
  void gather(const std::int64_t* indices, std::int64_t count, X* inputs, Y* targets) const {
    const std::size_t in_row = static_cast<std::size_t>(input_shape().numel());
    const std::size_t tg_row = static_cast<std::size_t>(target_shape().numel());
    const X* in = inputs_.data();
    const Y* tg = targets_.data();
    for (std::int64_t k = 0; k < count; ++k) {
      const std::int64_t i = indices[k];
      check_index(i, "gather");
      const auto row = static_cast<std::size_t>(i);
      if (k + 1 < count && indices[k + 1] >= 0 && indices[k + 1] < size())
        impl::prefetch_row(in + static_cast<std::size_t>(indices[k + 1]) * in_row, std::int64_t(in_row * sizeof(X)));
      if (in_row > 0)
        std::memcpy(inputs + static_cast<std::size_t>(k) * in_row, in + row * in_row, in_row * sizeof(X));
      if (tg_row > 0)
        std::memcpy(targets + static_cast<std::size_t>(k) * tg_row, tg + row * tg_row, tg_row * sizeof(Y));
    }
  }

private:
  void check_index(std::int64_t i, const char* what) const {
    KT_REQUIRE(i >= 0 && i < size(), "kt::TensorDataset::", what, ": index ", i,
               " is out of range for a dataset of ", size(), " samples");
  }

  Tensor<X, Host> inputs_;
  Tensor<Y, Host> targets_;
};

template <class X, class DX, class Y, class DY>
TensorDataset(const Tensor<X, DX>&, const Tensor<Y, DY>&) -> TensorDataset<X, Y>;

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
