#pragma once
/// \file kt/nn/packed_mlp.hpp
/// `kt::nn::PackedMLP<W, D>`: a snapshot of a trained `kt::nn::Sequential` of Linear layers
/// and activations, packed into one buffer in device D's memory for evaluation inside your
/// own kernels through its `evaluator()` (kt/nn/mlp_evaluator.hpp). W is the weights' storage
/// type: float, kt::half or kt::bfloat16 (half the memory; converted to fp32 as loaded).
///
///     kt::nn::Sequential<float, D> model;             // trained as usual
///     model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(2, 32).activation(kt::Activation::Tanh)));
///     model.push_back(kt::nn::Linear<float, D>(32, 32));
///     model.push_back(kt::nn::Tanh<float, D>());
///     model.push_back(kt::nn::Linear<float, D>(32, 1));
///     kt::nn::PackedMLP<float, D> packed(model);      // copies the weights now
///     auto mlp = packed.evaluator();                   // trivially copyable, for KOKKOS_LAMBDA
///     kt::nn::PackedMLP<kt::bfloat16, D> small(model); // the same in 16-bit weights
///
/// What it takes: Linear layers (bias or not, with or without a fused activation), each
/// optionally followed by one ReLU, GELU, Tanh or Sigmoid module; consecutive widths must
/// chain. Anything else (Dropout, LayerNorm, nested modules...) is a kt::Error naming the
/// module's index and type. The Sequential may live on any device (its weights are read
/// through the host) and have any dtype.
///
/// Snapshot and lifetime: the weights are copied when the PackedMLP is built; training the
/// model afterwards does not change it (build a new one to refresh). Copies of a PackedMLP
/// share the buffer, like tensors; evaluators hold raw pointers into it and are valid while
/// the PackedMLP or one of its copies lives.

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/dtype.hpp"
#include "kt/core/profiling.hpp"
#include "kt/nn/impl/mlp_pack.hpp"
#include "kt/nn/mlp_evaluator.hpp"
#include "kt/nn/sequential.hpp"
#include "kt/tensor/factories.hpp"

#include <cstddef>
#include <type_traits>
#include <vector>

namespace kt::nn {

template <class W = float, class D = DefaultDevice>
class PackedMLP {
  static_assert(std::is_same_v<W, float> || std::is_same_v<W, half> || std::is_same_v<W, bfloat16>,
                "kt::nn::PackedMLP: the weights' storage type W must be float, kt::half or kt::bfloat16");

public:
  using weight_type = W;
  using device_type = D;

  /// Packs the model's current weights (converted to W) into D's memory.
  template <class T, class D2>
  explicit PackedMLP(const Sequential<T, D2>& model) {
    KT_PROFILE_REGION("kt::nn::PackedMLP::PackedMLP");
    std::vector<W> host;
    impl::mlp_pack(model, host, layers_);
    buffer_ = from_host<W, D>(host.data(), Shape{static_cast<std::int64_t>(host.size())});
  }

  /// The evaluator for kernels on D (see kt/nn/mlp_evaluator.hpp). MaxWidth: the most outputs
  /// of any layer (the per-thread call keeps two stack buffers of that many floats); MaxLayers:
  /// the most Linear layers. A model beyond either is a kt::Error saying what to raise.
  template <int MaxWidth = 128, int MaxLayers = 8>
  MLPEvaluator<W, MaxWidth, MaxLayers> evaluator() const {
    return MLPEvaluator<W, MaxWidth, MaxLayers>(buffer_.data(), layers_);
  }

  /// Number of Linear layers.
  int layers() const { return static_cast<int>(layers_.size()); }
  int in_features() const { return layers_.front().in; }
  int out_features() const { return layers_.back().out; }
  /// in_features(), then every layer's out_features: {2, 32, 32, 1}.
  std::vector<int> widths() const {
    std::vector<int> w{in_features()};
    for (const auto& l : layers_) w.push_back(l.out);
    return w;
  }
  /// The activation applied to layer l's output.
  Activation activation(int l) const { return layers_.at(static_cast<std::size_t>(l)).act; }
  /// Bytes of device memory the packed weights take (padding included).
  std::size_t bytes() const { return buffer_.nbytes(); }
  /// The packed buffer (layout: kt/nn/impl/mlp_pack.hpp).
  const Tensor<W, D>& buffer() const { return buffer_; }

private:
  std::vector<impl::MLPLayer> layers_;
  Tensor<W, D> buffer_;
};

}  // namespace kt::nn

#include "kt/core/impl/public_end.hpp"
