#pragma once
/// \file kt/nn/softmax.hpp
/// `kt::nn::Softmax` and `kt::nn::LogSoftmax` along a dimension (`torch.nn.Softmax(dim)`).
///
///     kt::nn::LogSoftmax<float> log_probs(/*dim=*/1);

#include "kt/core/impl/public_begin.hpp"

#include "kt/functional/softmax.hpp"
#include "kt/nn/impl/layer.hpp"

#include <string>

namespace kt::nn {

struct SoftmaxOptions {
  int dim = -1;
};

/// softmax (Log = false) or log_softmax (Log = true) along options().dim.
template <class T, class D, class Log>
class SoftmaxLayer : public kt::impl::Layer<SoftmaxLayer<T, D, Log>, T, D> {
public:
  explicit SoftmaxLayer(int dim = -1) : dim_(dim) {}
  explicit SoftmaxLayer(const SoftmaxOptions& options) : dim_(options.dim) {}
  Var<T, D> forward(const Var<T, D>& x) override {
    KT_PROFILE_REGION(Log::value ? "kt::nn::LogSoftmax::forward" : "kt::nn::Softmax::forward");
    if constexpr (Log::value) return kt::log_softmax(x, dim_);
    else return kt::softmax(x, dim_);
  }
  std::string name() const override { return Log::value ? "LogSoftmax" : "Softmax"; }
  std::string extra_repr() const override { return "dim=" + std::to_string(dim_); }
  SoftmaxOptions options() const { return {dim_}; }

private:
  int dim_;
};

template <class T, class D = DefaultDevice>
using Softmax = SoftmaxLayer<T, D, std::false_type>;
template <class T, class D = DefaultDevice>
using LogSoftmax = SoftmaxLayer<T, D, std::true_type>;

}  // namespace kt::nn

#include "kt/core/impl/public_end.hpp"
