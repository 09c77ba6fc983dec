#pragma once
// From a run-time kt::Activation to the compile-time functor of kt/tensor/impl/ops.hpp.

#include "kt/core/error.hpp"
#include "kt/tensor/activation.hpp"
#include "kt/tensor/impl/ops.hpp"

namespace kt {

namespace impl {
/// Calls f(op::Relu{}) ... with the functor of `act`: a run-time choice becomes a compile-time
/// kernel. Every enumerator has its case; a value outside the enum is an error, never a
/// silent identity.
template <class F>
decltype(auto) with_activation(Activation act, F&& f) {
  switch (act) {
    case Activation::Identity: return f(op::Identity{});
    case Activation::ReLU: return f(op::Relu{});
    case Activation::GELU: return f(op::Gelu{});
    case Activation::Tanh: return f(op::Tanh{});
    case Activation::Sigmoid: return f(op::Sigmoid{});
  }
  KT_THROW("kt: unknown kt::Activation value ", static_cast<int>(act));
}
}  // namespace impl

}  // namespace kt
