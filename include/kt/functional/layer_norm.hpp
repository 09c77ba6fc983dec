#pragma once
/// \file kt/functional/layer_norm.hpp
/// Layer normalisation over the trailing dimensions (`torch.nn.functional.layer_norm`):
/// y = (x − mean) / sqrt(var + eps) · weight + bias, with the biased variance, statistics
/// per leading index. One pass per row forward and backward, accumulating in fp32 for 16-bit
/// dtypes and rounding once (kt/tensor/impl/layer_norm_impl.hpp); backward keeps x and
/// each row's mean and 1/σ.
///
///     kt::Var<float> x(kt::randn<float>({32, 64}, 0), true);
///     kt::Var<float> w(kt::ones<float>({64}), true), b(kt::zeros<float>({64}), true);
///     auto y = kt::layer_norm(x, {64}, w, b);
///     auto z = kt::layer_norm(x, kt::LayerNormOptions({64}).eps(1e-6), w, b);

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/impl/operand.hpp"
#include "kt/autograd/impl/autocast_dispatch.hpp"
#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/core/profiling.hpp"
#include "kt/tensor/impl/layer_norm_impl.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace kt {

/// The knobs of layer normalisation, shared by kt::layer_norm and kt::nn::LayerNorm (whose
/// options are this class): the trailing `normalized_shape`, `eps`, and `elementwise_affine`
/// — whether there are a weight and a bias (the module then makes them; kt::layer_norm, which
/// takes them as operands, refuses one given when it is false).
class LayerNormOptions {
public:
  LayerNormOptions(std::vector<std::int64_t> normalized_shape) : shape_(std::move(normalized_shape)) {}  // NOLINT
  LayerNormOptions& eps(double value) { eps_ = value; return *this; }
  LayerNormOptions& elementwise_affine(bool on) { affine_ = on; return *this; }
  const std::vector<std::int64_t>& normalized_shape() const { return shape_; }
  double eps() const { return eps_; }
  bool elementwise_affine() const { return affine_; }

private:
  std::vector<std::int64_t> shape_;
  double eps_ = 1e-5;
  bool affine_ = true;
};

/// weight and bias are optional (undefined Vars) and have shape options.normalized_shape().
template <class T, class D>
Var<T, D> layer_norm(const Var<T, D>& x, const LayerNormOptions& options, const Var<T, D>& weight = {},
                     const Var<T, D>& bias = {}) {
  KT_PROFILE_REGION("kt::layer_norm");
  impl::require_defined("kt::layer_norm", {x});
  if (Var<T, D> result; impl::autocast_dispatch<impl::op_tag::LayerNorm, T, D>(
          result, [&](const auto& xs, const auto& ws, const auto& bs) { return layer_norm(xs, options, ws, bs); }, x,
          weight, bias))
    return result;
  const Shape& s = x.shape();
  const std::vector<std::int64_t>& normalized_shape = options.normalized_shape();
  KT_REQUIRE(options.elementwise_affine() || (!weight.defined() && !bias.defined()),
             "kt::layer_norm: the options say elementwise_affine(false), but a ", weight.defined() ? "weight" : "bias",
             " was given");
  const int k = static_cast<int>(normalized_shape.size());
  bool matches = k >= 1 && k <= s.rank();
  for (int i = 0; matches && i < k; ++i) matches = s[s.rank() - k + i] == normalized_shape[static_cast<std::size_t>(i)];
  KT_REQUIRE(matches, "kt::layer_norm: normalized_shape ", Shape(normalized_shape).str(),
             " does not match the trailing dimensions of the input ", s.str());
  for (const Var<T, D>* p : {&weight, &bias})
    KT_REQUIRE(!p->defined() || p->shape() == Shape(normalized_shape), "kt::layer_norm: ",
               p == &weight ? "weight" : "bias", " has shape ", p->defined() ? p->shape().str() : "",
               " but normalized_shape is ", Shape(normalized_shape).str());
  const std::int64_t n = Shape(normalized_shape).numel();
  const Tensor<T, D> rows = x.data().reshape({-1, n});
  const Tensor<T, D> w = weight.defined() ? weight.data() : Tensor<T, D>();
  const Tensor<T, D> b = bias.defined() ? bias.data() : Tensor<T, D>();
  impl::LayerNormForward<T, D> fwd = impl::layer_norm_forward(rows, w, b, options.eps());
  Tensor<T, D> y = fwd.y.reshape(s.dims());
  std::vector<Var<T, D>> inputs{x};  // then weight and bias, where defined
  if (weight.defined()) inputs.push_back(weight);
  if (bias.defined()) inputs.push_back(bias);
  return impl::record("kt::layer_norm", y, inputs,
                      [rows, w, fwd = std::move(fwd), shape = s, normalized_rank = k, has_bias = bias.defined()](
                          const Tensor<T, D>& g, const impl::Needs& needs) {
                        const bool need_params = needs[1] || needs[2];
                        auto grads = impl::layer_norm_backward(g.reshape({rows.size(0), rows.size(1)}), rows, w, fwd,
                                                               has_bias, need_params);
                        std::vector<Tensor<T, D>> out{grads.dx.reshape(shape.dims())};
                        const auto normalized = shape.dims();  // the trailing dims, weight's and bias' shape
                        const std::vector<std::int64_t> affine(normalized.end() - normalized_rank, normalized.end());
                        if (w.defined()) out.push_back(grads.dw.reshape(affine));
                        if (has_bias) out.push_back(grads.db.reshape(affine));
                        return out;
                      });
}

/// PyTorch's positional form: `F.layer_norm(x, normalized_shape, weight, bias, eps)`.
template <class T, class D>
Var<T, D> layer_norm(const Var<T, D>& x, const std::vector<std::int64_t>& normalized_shape,
                     const Var<T, D>& weight = {}, const Var<T, D>& bias = {}, double eps = 1e-5) {
  return layer_norm(x, LayerNormOptions(normalized_shape).eps(eps), weight, bias);
}

/// The same with Tensors and Vars mixed (a constant Tensor input with trained Var weight and
/// bias, say): each Tensor becomes a constant Var of the same device and dtype.
template <class X, class W, class B, impl::var_operands_t<X, W, B> = 0>
auto layer_norm(const X& x, const LayerNormOptions& options, const W& weight, const B& bias) {
  using V = impl::var_of_t<X, W, B>;
  impl::require_compatible<V, X>();
  impl::require_compatible<V, W>();
  impl::require_compatible<V, B>();
  return layer_norm(impl::as_var<V>(x), options, impl::as_var<V>(weight), impl::as_var<V>(bias));
}
template <class X, class W, class B, impl::var_operands_t<X, W, B> = 0>
auto layer_norm(const X& x, const std::vector<std::int64_t>& normalized_shape, const W& weight, const B& bias,
                double eps = 1e-5) {
  return layer_norm(x, LayerNormOptions(normalized_shape).eps(eps), weight, bias);
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
