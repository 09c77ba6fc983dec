#pragma once
/// \file kt/tensor/activation.hpp
/// `kt::Activation`: the activation a fused Linear layer applies in its epilogue
/// (kt/tensor/linear.hpp, kt::nn::LinearOptions::activation). Each activation's value and
/// derivative are the functors of kt/tensor/impl/ops.hpp — the same ones kt::relu, kt::gelu,
/// ... and their gradients use; `impl::visit_activation` (kt/tensor/impl/with_activation.hpp)
/// is the one map from an enumerator to its functor, and the table below the one place its
/// names are written.
///
///     kt::nn::LinearOptions(784, 256).activation(kt::Activation::ReLU)
///     std::cout << kt::to_string(kt::Activation::GELU);   // "gelu"

namespace kt {

enum class Activation { Identity, ReLU, GELU, Tanh, Sigmoid };

namespace impl {
/// An activation's names: PyTorch's functional name and its nn layer's class name.
struct ActivationNames {
  const char* function;
  const char* layer;
};
/// Indexed by the enumerator's value; one entry per enumerator.
inline constexpr ActivationNames activation_names[] = {
    {"identity", "Identity"}, {"relu", "ReLU"}, {"gelu", "GELU"}, {"tanh", "Tanh"}, {"sigmoid", "Sigmoid"}};
inline constexpr int activation_count = int(sizeof(activation_names) / sizeof(activation_names[0]));
static_assert(int(Activation::Sigmoid) + 1 == activation_count, "kt::Activation: one names entry per enumerator");

/// Whether `act` is one of the enumerators (a value cast from an integer may not be).
constexpr bool is_activation(Activation act) { return int(act) >= 0 && int(act) < activation_count; }
}  // namespace impl

/// PyTorch's functional name of `act` ("relu", ...); "unknown" for a value outside the enum.
inline const char* to_string(Activation act) {
  return impl::is_activation(act) ? impl::activation_names[int(act)].function : "unknown";
}

}  // namespace kt
