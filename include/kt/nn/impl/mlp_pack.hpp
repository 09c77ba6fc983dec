#pragma once
// Reading a kt::nn::Sequential of Linear layers and activations into the packed layout of
// kt::nn::PackedMLP (host side): for each Linear, Wt[in][ld] = W[out][in] transposed, rows
// padded with zeros to ld = out rounded up to kMLPPad, then b[ld] (zeros without a bias), each
// block starting at a multiple of kMLPPad elements (64-byte aligned fp32 rows).

#include "kt/core/impl/internal.hpp"

#include "kt/core/dtype.hpp"
#include "kt/core/error.hpp"
#include "kt/nn/activation.hpp"
#include "kt/nn/impl/mlp_kernels.hpp"
#include "kt/nn/impl/mlp_layout.hpp"
#include "kt/nn/linear.hpp"
#include "kt/nn/sequential.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace kt::impl {

/// The activation of m when m is an activation layer (kt::nn::ActivationLayer), else none.
template <class T, class D, int... I>
std::optional<Activation> mlp_activation_of(const nn::Module<T, D>& m, std::integer_sequence<int, I...>) {
  std::optional<Activation> found;
  ((dynamic_cast<const nn::ActivationLayerOf<T, D, Activation(I + 1)>*>(&m) ? void(found = Activation(I + 1)) : void()),
   ...);
  return found;
}
template <class T, class D>
std::optional<Activation> mlp_activation_of(const nn::Module<T, D>& m) {
  // Every enumerator but Identity (the first) has a layer.
  return mlp_activation_of(m, std::make_integer_sequence<int, activation_count - 1>());
}

inline std::int64_t mlp_round_up(std::int64_t n) { return (n + kMLPPad - 1) / kMLPPad * kMLPPad; }

/// Packs `model` into `buffer` (host, converted to W) and describes its layers in `layers`.
template <class W, class T, class D>
void mlp_pack(const nn::Sequential<T, D>& model, std::vector<W>& buffer, std::vector<MLPLayer>& layers) {
  KT_REQUIRE(!model.empty(), "kt::nn::PackedMLP: the Sequential is empty: there is no layer to pack");
  const char* supported = "the evaluator takes Linear layers, each optionally followed by one of ReLU, GELU, "
                          "Tanh, Sigmoid (or with the activation fused: LinearOptions::activation)";
  buffer.clear();
  layers.clear();
  std::vector<bool> fused;  // per layer: its activation came from LinearOptions (for messages)
  for (std::size_t i = 0; i < model.size(); ++i) {
    const nn::Module<T, D>& m = *model[i];
    if (const auto act = mlp_activation_of(m)) {
      KT_REQUIRE(!layers.empty(), "kt::nn::PackedMLP: module ", i, " (", m.name(),
                 ") comes before any Linear layer; ", supported);
      MLPLayer& prev = layers.back();
      KT_REQUIRE(prev.act == Activation::Identity, "kt::nn::PackedMLP: module ", i, " (", m.name(),
                 ") follows Linear module ", prev.module, ", whose output already goes through ",
                 to_string(prev.act), (fused.back() ? " (LinearOptions::activation)" : ""),
                 "; the evaluator applies one activation per Linear");
      prev.act = *act;
      continue;
    }
    const auto* linear = dynamic_cast<const nn::Linear<T, D>*>(&m);
    KT_REQUIRE(linear != nullptr, "kt::nn::PackedMLP: module ", i, " (", m.name(), ") is not supported: ",
               supported);
    const std::int64_t in = linear->options().in_features(), out = linear->options().out_features();
    KT_REQUIRE(in <= std::numeric_limits<int>::max() && out <= std::numeric_limits<int>::max(),
               "kt::nn::PackedMLP: module ", i, " (Linear) is too large: ", in, " x ", out);
    if (!layers.empty())
      KT_REQUIRE(layers.back().out == in, "kt::nn::PackedMLP: module ", i, " (Linear) takes ", in,
                 " inputs but the previous Linear (module ", layers.back().module, ") gives ", layers.back().out);
    MLPLayer layer;
    layer.in = static_cast<int>(in);
    layer.out = static_cast<int>(out);
    layer.ld = static_cast<int>(mlp_round_up(out));
    layer.act = linear->options().activation();
    layer.module = i;
    layer.weight_offset = static_cast<std::int64_t>(buffer.size());
    layer.bias_offset = layer.weight_offset + in * layer.ld;  // in * ld is a multiple of kMLPPad
    buffer.resize(static_cast<std::size_t>(layer.bias_offset + layer.ld), W(0.0f));
    const std::vector<T> w = linear->weight.data().to_vector();  // (out, in), row-major
    for (std::int64_t j = 0; j < out; ++j)
      for (std::int64_t k = 0; k < in; ++k)
        buffer[static_cast<std::size_t>(layer.weight_offset + k * layer.ld + j)] =
            W(static_cast<float>(static_cast<compute_t<T>>(w[static_cast<std::size_t>(j * in + k)])));
    if (linear->bias.defined()) {
      const std::vector<T> b = linear->bias.data().to_vector();
      for (std::int64_t j = 0; j < out; ++j)
        buffer[static_cast<std::size_t>(layer.bias_offset + j)] =
            W(static_cast<float>(static_cast<compute_t<T>>(b[static_cast<std::size_t>(j)])));
    }
    layers.push_back(layer);
    fused.push_back(layer.act != Activation::Identity);
  }
}

}  // namespace kt::impl
