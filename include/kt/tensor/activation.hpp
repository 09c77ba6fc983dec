#pragma once
/// \file kt/tensor/activation.hpp
/// `kt::Activation`: the activation a fused Linear layer applies in its epilogue
/// (kt/tensor/linear.hpp, kt::nn::LinearOptions::activation). Each activation's value and
/// derivative are the functors of kt/tensor/impl/ops.hpp — the same ones kt::relu, kt::gelu,
/// ... and their gradients use.
///
///     kt::nn::LinearOptions(784, 256).activation(kt::Activation::ReLU)
///     std::cout << kt::to_string(kt::Activation::GELU);   // "gelu"

namespace kt {

enum class Activation { Identity, ReLU, GELU, Tanh, Sigmoid };

inline const char* to_string(Activation act) {
  switch (act) {
    case Activation::Identity: return "identity";
    case Activation::ReLU: return "relu";
    case Activation::GELU: return "gelu";
    case Activation::Tanh: return "tanh";
    case Activation::Sigmoid: return "sigmoid";
  }
  return "unknown";
}

}  // namespace kt
