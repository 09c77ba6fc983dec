#pragma once
/// \file kt/nn/flatten.hpp
/// `kt::nn::Flatten` (`torch.nn.Flatten`): merges dims start_dim..end_dim (default 1..-1),
/// e.g. images (N, 28, 28) to rows (N, 784). Never copies.
///
///     kt::nn::Flatten<float> flatten;      // (N, 1, 28, 28) -> (N, 784)

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/shape_ops.hpp"
#include "kt/nn/impl/layer.hpp"

#include <string>

namespace kt::nn {

struct FlattenOptions {
  int start_dim = 1;
  int end_dim = -1;
};

template <class T, class D = DefaultDevice>
class Flatten : public kt::impl::Layer<Flatten<T, D>, T, D> {
public:
  explicit Flatten(const FlattenOptions& options = {}) : options_(options) {}
  Var<T, D> forward(const Var<T, D>& x) override {
    KT_PROFILE_REGION("kt::nn::Flatten::forward");
    return kt::flatten(x, options_.start_dim, options_.end_dim);
  }
  std::string name() const override { return "Flatten"; }
  std::string extra_repr() const override {
    return "start_dim=" + std::to_string(options_.start_dim) + ", end_dim=" + std::to_string(options_.end_dim);
  }
  const FlattenOptions& options() const { return options_; }

private:
  FlattenOptions options_;
};

}  // namespace kt::nn

#include "kt/core/impl/public_end.hpp"
