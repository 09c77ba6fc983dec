#pragma once
/// \file kt/nn/activation.hpp
/// Activation layers without parameters: `ReLU`, `GELU`, `Tanh`, `Sigmoid` (`torch.nn.ReLU`
/// ...), all one template over the activation's functor. For a Linear followed by one of
/// them, prefer `LinearOptions(...).activation(...)`: the fused epilogue saves a pass.
///
///     kt::nn::Sequential<float> mlp;
///     mlp.push_back(kt::nn::Linear<float>(64, 64));
///     mlp.push_back(kt::nn::Tanh<float>());

#include "kt/core/impl/compiled.hpp"
#include "kt/functional/activation.hpp"
#include "kt/nn/impl/layer.hpp"
#include "kt/tensor/activation.hpp"

#include <string>

namespace kt::nn {

/// Options of the activation layers: none (they exist for symmetry with the other layers).
struct ActivationOptions {};

/// The layer applying activation `A` elementwise.
template <class T, class D, class A>
class ActivationLayer : public kt::impl::Layer<ActivationLayer<T, D, A>, T, D> {
public:
  ActivationLayer() = default;
  explicit ActivationLayer(const ActivationOptions&) {}
  Var<T, D> forward(const Var<T, D>& x) override {
    KT_PROFILE_REGION("kt::nn::activation::forward");
    return kt::activation(x, A::value);
  }
  std::string name() const override { return A::layer_name; }
  ActivationOptions options() const { return {}; }
};

namespace activations {
struct ReLU { static constexpr Activation value = Activation::ReLU; static constexpr const char* layer_name = "ReLU"; };
struct GELU { static constexpr Activation value = Activation::GELU; static constexpr const char* layer_name = "GELU"; };
struct Tanh { static constexpr Activation value = Activation::Tanh; static constexpr const char* layer_name = "Tanh"; };
struct Sigmoid { static constexpr Activation value = Activation::Sigmoid; static constexpr const char* layer_name = "Sigmoid"; };
}  // namespace activations

template <class T, class D = DefaultDevice>
using ReLU = ActivationLayer<T, D, activations::ReLU>;
template <class T, class D = DefaultDevice>
using GELU = ActivationLayer<T, D, activations::GELU>;
template <class T, class D = DefaultDevice>
using Tanh = ActivationLayer<T, D, activations::Tanh>;
template <class T, class D = DefaultDevice>
using Sigmoid = ActivationLayer<T, D, activations::Sigmoid>;

}  // namespace kt::nn

// kt_compiled (kt/core/impl/compiled.hpp): the four activation layers.
#define KT_ETI_ACTIVATION_LAYER(T, D, A, KW) \
  KW class kt::impl::Layer<kt::nn::ActivationLayer<T, D, A>, T, D>; KW class kt::nn::ActivationLayer<T, D, A>;
#define KT_ETI_ACTIVATION_LAYERS_ONE(T, D, KW)                                                             \
  KT_ETI_ACTIVATION_LAYER(T, D, kt::nn::activations::ReLU, KW)                                            \
  KT_ETI_ACTIVATION_LAYER(T, D, kt::nn::activations::GELU, KW)                                            \
  KT_ETI_ACTIVATION_LAYER(T, D, kt::nn::activations::Tanh, KW)                                            \
  KT_ETI_ACTIVATION_LAYER(T, D, kt::nn::activations::Sigmoid, KW)
#define KT_ETI_ACTIVATION_LAYERS(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_ACTIVATION_LAYERS_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_NN)
KT_ETI_ACTIVATION_LAYERS(extern template)
#endif
