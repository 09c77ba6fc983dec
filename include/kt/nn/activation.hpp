#pragma once
/// \file kt/nn/activation.hpp
/// Activation layers without parameters: `ReLU`, `GELU`, `Tanh`, `Sigmoid` (`torch.nn.ReLU`
/// ...), all one template over the activation's functor. For a Linear followed by one of
/// them, prefer `LinearOptions(...).activation(...)`: the fused epilogue saves a pass.
///
///     kt::nn::Sequential<float> mlp;
///     mlp.push_back(kt::nn::Linear<float>(64, 64));
///     mlp.push_back(kt::nn::Tanh<float>());

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/impl/compiled.hpp"
#include "kt/functional/activation.hpp"
#include "kt/nn/impl/layer.hpp"
#include "kt/tensor/activation.hpp"

#include <string>
#include <type_traits>

namespace kt::nn {

/// Options of the activation layers: none (they exist for symmetry with the other layers).
struct ActivationOptions {};

/// The layer applying activation `A::value` elementwise, A = std::integral_constant<Activation,
/// ...> (a type, so kt::nn::to can rename the class on another device); its name is the
/// activation's layer name (kt/tensor/activation.hpp).
template <class T, class D, class A>
class ActivationLayer : public kt::impl::Layer<ActivationLayer<T, D, A>, T, D> {
  static_assert(A::value != Activation::Identity && kt::impl::is_activation(A::value),
                "kt::nn::ActivationLayer: A::value must be ReLU, GELU, Tanh or Sigmoid");

public:
  static constexpr Activation activation = A::value;

  ActivationLayer() = default;
  explicit ActivationLayer(const ActivationOptions&) {}
  Var<T, D> forward(const Var<T, D>& x) override {
    KT_PROFILE_REGION("kt::nn::activation::forward");
    return kt::activation(x, activation);
  }
  std::string name() const override { return kt::impl::activation_names[int(activation)].layer; }
  ActivationOptions options() const { return {}; }
};

/// ActivationLayer of activation A.
template <class T, class D, Activation A>
using ActivationLayerOf = ActivationLayer<T, D, std::integral_constant<Activation, A>>;

template <class T, class D = DefaultDevice>
using ReLU = ActivationLayerOf<T, D, Activation::ReLU>;
template <class T, class D = DefaultDevice>
using GELU = ActivationLayerOf<T, D, Activation::GELU>;
template <class T, class D = DefaultDevice>
using Tanh = ActivationLayerOf<T, D, Activation::Tanh>;
template <class T, class D = DefaultDevice>
using Sigmoid = ActivationLayerOf<T, D, Activation::Sigmoid>;

}  // namespace kt::nn

// kt_compiled (kt/core/impl/compiled.hpp): the four activation layers.
#define KT_ETI_ACTIVATION_LAYER(T, D, A, KW)                                 \
  KW class kt::impl::Layer<kt::nn::ActivationLayerOf<T, D, A>, T, D>; \
  KW class kt::nn::ActivationLayer<T, D, std::integral_constant<kt::Activation, A>>;
#define KT_ETI_ACTIVATION_LAYERS_ONE(T, D, KW) \
  KT_ETI_ACTIVATION_LAYER(T, D, kt::Activation::ReLU, KW) \
  KT_ETI_ACTIVATION_LAYER(T, D, kt::Activation::GELU, KW) \
  KT_ETI_ACTIVATION_LAYER(T, D, kt::Activation::Tanh, KW) \
  KT_ETI_ACTIVATION_LAYER(T, D, kt::Activation::Sigmoid, KW)
#define KT_ETI_ACTIVATION_LAYERS(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_ACTIVATION_LAYERS_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_NN)
KT_ETI_ACTIVATION_LAYERS(extern template)
#endif

#include "kt/core/impl/public_end.hpp"
