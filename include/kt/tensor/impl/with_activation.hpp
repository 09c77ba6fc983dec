#pragma once
// From a run-time kt::Activation to the compile-time functor of kt/tensor/impl/ops.hpp: the one
// place that pairs each enumerator with its functor.

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"
#include "kt/tensor/activation.hpp"
#include "kt/tensor/impl/ops.hpp"

#include <Kokkos_Macros.hpp>

namespace kt {

namespace impl {
/// Calls f(op::Relu{}) ... with the functor of `act`: a run-time choice becomes a compile-time
/// kernel. Callable in kernels, where nothing can throw: a value outside the enum runs as
/// Identity there, so host code goes through with_activation, which refuses it first.
/// A host caller passes host lambdas, which nvcc's execution-space check flags inside a
/// __host__ __device__ function (warning 20013) although the call only ever runs on the host;
/// the check is off for this one template.
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <class F>
KOKKOS_INLINE_FUNCTION decltype(auto) visit_activation(Activation act, F&& f) {
  switch (act) {
    case Activation::ReLU: return f(op::Relu{});
    case Activation::GELU: return f(op::Gelu{});
    case Activation::Tanh: return f(op::Tanh{});
    case Activation::Sigmoid: return f(op::Sigmoid{});
    case Activation::Identity: break;
  }
  return f(op::Identity{});
}

/// visit_activation on the host: a value outside the enum is an error, never a silent identity.
template <class F>
decltype(auto) with_activation(Activation act, F&& f) {
  KT_REQUIRE(is_activation(act), "kt: unknown kt::Activation value ", static_cast<int>(act));
  return visit_activation(act, static_cast<F&&>(f));
}
}  // namespace impl

}  // namespace kt
