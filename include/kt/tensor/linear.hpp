#pragma once
/// \file kt/tensor/linear.hpp
/// The fused Linear layer as tensor functions (`torch.nn.functional.linear` + activation):
/// y = act(x · Wᵀ + b) is one GEMM and one pass over y; the backward pass is one fused pass
/// (activation gradient × upstream gradient, bias gradient as a column reduction) and two
/// GEMMs. The differentiable form is kt::linear on Vars (kt/functional/linear.hpp). Each
/// function also takes an execution-space instance first.
///
///     auto fwd = kt::linear_forward(x, w, b, kt::Activation::ReLU);   // x (N, in), w (out, in)
///     auto g = kt::linear_backward(dy, x, w, fwd, kt::Activation::ReLU);   // g.dx, g.dw, g.db
///     auto y = kt::linear(x, w, b, kt::Activation::GELU);             // inference: y only

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/impl/compiled.hpp"
#include "kt/tensor/activation.hpp"
#include "kt/tensor/impl/linear_impl.hpp"
#include "kt/tensor/impl/linear_tile_epilogue.hpp"
#include "kt/tensor/impl/matmul_impl.hpp"
#include "kt/tensor/impl/with_activation.hpp"
#include "kt/tensor/tensor.hpp"

#include <string>
#include <tuple>
#include <type_traits>

namespace kt {

/// What the forward pass keeps for the backward pass: the output, and the pre-activation
/// when the activation's derivative needs it (GELU; undefined otherwise).
template <class T, class D>
struct LinearForward {
  Tensor<T, D> output;
  Tensor<T, D> pre_activation;
};

/// Gradients of a Linear layer; dx and dw are undefined when not requested, db when there is
/// no bias.
/// The parameters' gradients have dtype G: T, or float for fp32 master weights of a 16-bit layer.
template <class T, class D, class G = T>
struct LinearGrads {
  Tensor<T, D> dx;
  Tensor<G, D> dw, db;
};

/// Forward pass keeping what linear_backward needs. x: (N, in); w: (out, in); b: (out) or an
/// undefined tensor for no bias.
template <class T, class D>
LinearForward<T, D> linear_forward(const D& exec, const Tensor<T, D>& x, const Tensor<T, D>& w,
                                   const Tensor<T, D>& b, Activation act = Activation::Identity) {
  KT_PROFILE_REGION("kt::linear_forward");
  impl::check_linear(x, w, b);
  LinearForward<T, D> out;
  impl::with_activation(act, [&](auto a) {
    using Act = decltype(a);
    if constexpr (Act::uses_input) {
      out.output = impl::matmul(exec, x, w, MatmulOptions().transpose_b(true));
      out.pre_activation = Tensor<T, D>(out.output.shape(), exec);
      impl::linear_epilogue<Act>(exec, out.output, b, out.pre_activation);
    } else {
      out.output = impl::linear_output<Act>(exec, x, w, b);
    }
  });
  return out;
}
template <class T, class D>
LinearForward<T, D> linear_forward(const Tensor<T, D>& x, const Tensor<T, D>& w, const Tensor<T, D>& b,
                                   Activation act = Activation::Identity) {
  return linear_forward(D(), x, w, b, act);
}

/// Inference: y = act(x · wᵀ + b).
template <class T, class D>
Tensor<T, D> linear(const D& exec, const Tensor<T, D>& x, const Tensor<T, D>& w, const Tensor<T, D>& b,
                    Activation act = Activation::Identity) {
  KT_PROFILE_REGION("kt::linear");
  impl::check_linear(x, w, b);
  Tensor<T, D> y;
  impl::with_activation(act, [&](auto a) { y = impl::linear_output<decltype(a)>(exec, x, w, b); });
  return y;
}
template <class T, class D>
Tensor<T, D> linear(const Tensor<T, D>& x, const Tensor<T, D>& w, const Tensor<T, D>& b,
                    Activation act = Activation::Identity) {
  return linear(D(), x, w, b, act);
}

/// Backward pass from the upstream gradient dy (N, out): dz = dy ⊙ act'(z), db = Σ_rows dz,
/// dw = dzᵀ · x, dx = dz · w; each GEMM is skipped when its need_ flag is false (dx for the first
/// layer, dw for frozen weights).
/// With G = float for 16-bit T (`linear_backward<T, D, float>`: fp32 master weights), dw comes
/// straight from the GEMM's fp32 accumulation, not rounded to T, and db is T's column sum
/// widened.
template <class T, class D, class G = T>
LinearGrads<T, D, G> linear_backward(const D& exec, const Tensor<T, D>& dy, const Tensor<T, D>& x,
                                     const Tensor<T, D>& w, const LinearForward<T, D>& fwd, Activation act,
                                     bool has_bias = true, bool need_dx = true, bool need_dw = true) {
  static_assert(gemm_output_ok_v<T, G>, "kt::linear_backward<T, D, G>: G is T, or float for kt::half / kt::bfloat16");
  KT_PROFILE_REGION("kt::linear_backward");
  KT_REQUIRE(dy.defined() && dy.shape() == fwd.output.shape(), "kt::linear_backward: dy has shape ",
             dy.defined() ? dy.shape().str() : std::string("undefined"), " but the output has shape ",
             fwd.output.shape().str());
  LinearGrads<T, D, G> g;
  Tensor<T, D> dz(dy.shape(), exec);
  Tensor<T, D> db = has_bias ? Tensor<T, D>(Shape{dy.size(1)}, exec) : Tensor<T, D>();
  impl::linear_grad_epilogue(exec, dy, fwd.output, fwd.pre_activation, act, dz, db);
  if constexpr (std::is_same_v<G, T>) g.db = db;
  else if (has_bias) g.db = db.template to<G>(exec);
  const auto dw_options = MatmulOptions().transpose_a(true);  // dw = dzᵀ · x: (out, N) · (N, in)
  if constexpr (std::is_same_v<G, T>) {
    if (need_dw && need_dx) {  // dx = dz · w, (N, out) · (out, in): independent of dw, so at once
      std::tie(g.dw, g.dx) = impl::matmul_pair(exec, dz, x, dw_options, dz, w, MatmulOptions());
      return g;
    }
  }
  if (need_dw) g.dw = impl::matmul<G>(exec, dz, x, dw_options);
  if (need_dx) g.dx = impl::matmul(exec, dz, w, MatmulOptions());
  return g;
}
template <class T, class D, class G = T>
LinearGrads<T, D, G> linear_backward(const Tensor<T, D>& dy, const Tensor<T, D>& x, const Tensor<T, D>& w,
                                     const LinearForward<T, D>& fwd, Activation act, bool has_bias = true,
                                     bool need_dx = true, bool need_dw = true) {
  return linear_backward<T, D, G>(D(), dy, x, w, fwd, act, has_bias, need_dx, need_dw);
}

}  // namespace kt

// kt_compiled (kt/core/impl/compiled.hpp): the three passes with every activation.
#define KT_ETI_LINEAR_ONE(T, D, KW)                                                                   \
  KW kt::LinearForward<T, D> kt::linear_forward<T, D>(const D&, const kt::Tensor<T, D>&,              \
                                                      const kt::Tensor<T, D>&, const kt::Tensor<T, D>&, \
                                                      kt::Activation);                                \
  KW kt::Tensor<T, D> kt::linear<T, D>(const D&, const kt::Tensor<T, D>&, const kt::Tensor<T, D>&,    \
                                       const kt::Tensor<T, D>&, kt::Activation);                      \
  KW kt::LinearGrads<T, D> kt::linear_backward<T, D>(const D&, const kt::Tensor<T, D>&,               \
                                                     const kt::Tensor<T, D>&, const kt::Tensor<T, D>&, \
                                                     const kt::LinearForward<T, D>&, kt::Activation, bool, bool, bool);
#define KT_ETI_LINEAR(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_LINEAR_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_LINEAR)
KT_ETI_LINEAR(extern template)
#endif

#include "kt/core/impl/public_end.hpp"
