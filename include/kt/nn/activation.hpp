#pragma once
/// \file kt/nn/activation.hpp
/// Activation layers without parameters: `ReLU`, `GELU`, `Tanh`, `Sigmoid` (`torch.nn.ReLU`
/// ...). For a Linear followed by one of the first three, prefer
/// `LinearOptions(...).activation(...)`: the fused epilogue saves a pass over the output.
///
///     kt::nn::Sequential<float> mlp;
///     mlp.push_back(kt::nn::Linear<float>(64, 64));
///     mlp.push_back(kt::nn::Tanh<float>());

#include "kt/autograd/unary.hpp"
#include "kt/nn/module.hpp"

#include <string>

namespace kt::nn {

// A parameterless layer: an empty options struct and forward = fn(x).
#define KT_NN_ACTIVATION(Name, fn)                                                   \
  struct Name##Options {};                                                           \
  template <class T, class D = DefaultDevice>                                        \
  class Name : public impl::Convertible<Name, T, D> {                                \
  public:                                                                            \
    Name() = default;                                                                \
    explicit Name(const Name##Options&) {}                                           \
    Var<T, D> forward(const Var<T, D>& x) override {                                 \
      KT_PROFILE_REGION("kt::nn::" #Name "::forward");                               \
      return kt::fn(x);                                                              \
    }                                                                                \
    std::string name() const override { return #Name; }                              \
    Name##Options options() const { return {}; }                                     \
  };

KT_NN_ACTIVATION(ReLU, relu)
KT_NN_ACTIVATION(GELU, gelu)
KT_NN_ACTIVATION(Tanh, tanh)
KT_NN_ACTIVATION(Sigmoid, sigmoid)
#undef KT_NN_ACTIVATION

}  // namespace kt::nn
