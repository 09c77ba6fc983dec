#pragma once
/// \file kt/nn/linear.hpp
/// `kt::nn::Linear`: y = act(x · Wᵀ + b) (`torch.nn.Linear`, with an optional activation
/// fused into the same pass). Weight (out, in) and bias (out) start as PyTorch's do:
/// Kaiming-uniform with a = √5 for the weight, U(±1/√in) for the bias — i.e. both
/// U(−1/√in, 1/√in). Inputs of shape (*, in) are accepted.
///
///     kt::nn::Linear<float> fc(kt::nn::LinearOptions(784, 512).activation(kt::Activation::ReLU).seed(1));
///     auto y = fc(x);                    // x: (N, 784) -> (N, 512), ReLU applied
///     kt::nn::Linear<float> head(512, 10);   // no activation, bias on, default generator
///     auto on_gpu = fc.to<kt::Cuda>();   // a copy on another device (kt::nn::Linear<float, kt::Cuda>)

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/shape_ops.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/functional/linear.hpp"
#include "kt/nn/impl/layer.hpp"
#include "kt/nn/init.hpp"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

namespace kt::nn {

/// Options of Linear: sizes, bias, fused activation, initialisation seed.
class LinearOptions {
public:
  LinearOptions(std::int64_t in_features, std::int64_t out_features) : in_(in_features), out_(out_features) {}
  LinearOptions& bias(bool on) { bias_ = on; return *this; }
  LinearOptions& activation(Activation act) { act_ = act; return *this; }
  /// Seed of the initial weights; without one they come from kt::default_generator().
  LinearOptions& seed(std::uint64_t s) { seed_ = s; return *this; }

  std::int64_t in_features() const { return in_; }
  std::int64_t out_features() const { return out_; }
  bool bias() const { return bias_; }
  Activation activation() const { return act_; }
  const std::optional<std::uint64_t>& seed() const { return seed_; }

private:
  std::int64_t in_, out_;
  bool bias_ = true;
  Activation act_ = Activation::Identity;
  std::optional<std::uint64_t> seed_;
};

template <class T, class D = DefaultDevice>
class Linear : public kt::impl::Layer<Linear<T, D>, T, D> {
public:
  explicit Linear(const LinearOptions& options) : options_(options) {
    KT_REQUIRE(options.in_features() > 0 && options.out_features() > 0, "kt::nn::Linear: in_features (",
               options.in_features(), ") and out_features (", options.out_features(), ") must be positive");
    std::optional<Generator> own;
    if (options.seed()) own.emplace(*options.seed());
    Generator& gen = own ? *own : kt::default_generator();
    weight = this->register_parameter("weight", Tensor<T, D>(Shape{options.out_features(), options.in_features()}));
    init::kaiming_uniform_(weight.data(), gen, std::sqrt(5.0));
    if (options.bias()) {
      bias = this->register_parameter("bias", Tensor<T, D>(Shape{options.out_features()}));
      const double bound = 1.0 / std::sqrt(static_cast<double>(options.in_features()));
      init::uniform_(bias.data(), gen, -bound, bound);
    }
  }
  Linear(std::int64_t in_features, std::int64_t out_features) : Linear(LinearOptions(in_features, out_features)) {}

  Var<T, D> forward(const Var<T, D>& x) override {
    KT_PROFILE_REGION("kt::nn::Linear::forward");
    KT_REQUIRE(x.defined() && x.rank() >= 1 && x.size(-1) == options_.in_features(),
               "kt::nn::Linear::forward: expected input of shape (*, ", options_.in_features(), "), got ",
               x.defined() ? x.shape().str() : std::string("undefined"));
    if (x.rank() == 2) return kt::linear(x, weight, bias, options_.activation());
    std::vector<std::int64_t> dims = x.shape().dims();
    dims.back() = options_.out_features();
    const Var<T, D> rows = kt::reshape(x, {-1, options_.in_features()});
    return kt::reshape(kt::linear(rows, weight, bias, options_.activation()), dims);
  }

  std::string name() const override { return "Linear"; }
  std::string extra_repr() const override {
    std::string s = "in_features=" + std::to_string(options_.in_features()) +
                    ", out_features=" + std::to_string(options_.out_features()) +
                    ", bias=" + (options_.bias() ? "True" : "False");
    if (options_.activation() != Activation::Identity) s += std::string(", activation=") + to_string(options_.activation());
    return s;
  }
  const LinearOptions& options() const { return options_; }

  Var<T, D> weight;  ///< (out_features, in_features)
  Var<T, D> bias;    ///< (out_features), undefined without bias

private:
  LinearOptions options_;
};

}  // namespace kt::nn

// kt_compiled (kt/core/impl/compiled.hpp): the whole module, virtual members included, so a
// program's Linear neither instantiates its forward nor its copies for the other devices.
#define KT_ETI_NN_LINEAR_ONE(T, D, KW) \
  KW class kt::impl::Layer<kt::nn::Linear<T, D>, T, D>; KW class kt::nn::Linear<T, D>;
#define KT_ETI_NN_LINEAR(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_NN_LINEAR_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_NN)
KT_ETI_NN_LINEAR(extern template)
#endif

#include "kt/core/impl/public_end.hpp"
