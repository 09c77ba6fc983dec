#pragma once
/// \file kt/nn/layer_norm.hpp
/// `kt::nn::LayerNorm` (`torch.nn.LayerNorm`): normalises over the trailing
/// `normalized_shape` dimensions, then (elementwise_affine) scales by `weight` (ones) and
/// shifts by `bias` (zeros).
///
///     kt::nn::LayerNorm<float> norm(kt::nn::LayerNormOptions({64}).eps(1e-5));

#include "kt/core/impl/public_begin.hpp"

#include "kt/functional/layer_norm.hpp"
#include "kt/nn/impl/layer.hpp"
#include "kt/tensor/factories.hpp"

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace kt::nn {

/// The knobs of kt::layer_norm (kt/functional/layer_norm.hpp): normalized_shape, eps,
/// elementwise_affine.
using LayerNormOptions = kt::LayerNormOptions;

template <class T, class D = DefaultDevice>
class LayerNorm : public kt::impl::Layer<LayerNorm<T, D>, T, D> {
public:
  explicit LayerNorm(const LayerNormOptions& options) : options_(options) {
    KT_REQUIRE(!options.normalized_shape().empty(), "kt::nn::LayerNorm: normalized_shape is empty");
    if (options.elementwise_affine()) {
      weight = this->register_parameter("weight", ones<T, D>(Shape(options.normalized_shape())));
      bias = this->register_parameter("bias", zeros<T, D>(Shape(options.normalized_shape())));
    }
  }
  Var<T, D> forward(const Var<T, D>& x) override {
    KT_PROFILE_REGION("kt::nn::LayerNorm::forward");
    return kt::layer_norm(x, options_, weight, bias);
  }
  std::string name() const override { return "LayerNorm"; }
  std::string extra_repr() const override {
    std::ostringstream s;
    const auto& dims = options_.normalized_shape();  // a Python tuple: "(3,)", "(3, 5)"
    s << "(";
    for (std::size_t i = 0; i < dims.size(); ++i) s << (i ? ", " : "") << dims[i];
    s << (dims.size() == 1 ? ",)" : ")") << ", eps=" << options_.eps()
      << ", elementwise_affine=" << (options_.elementwise_affine() ? "True" : "False");
    return s.str();
  }
  const LayerNormOptions& options() const { return options_; }

  Var<T, D> weight, bias;

private:
  LayerNormOptions options_;
};

}  // namespace kt::nn

#include "kt/core/impl/public_end.hpp"
