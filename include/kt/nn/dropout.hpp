#pragma once
/// \file kt/nn/dropout.hpp
/// `kt::nn::Dropout` (`torch.nn.Dropout`): zeroes elements with probability p in training
/// mode and scales the rest by 1 / (1 − p); the identity after `eval()`. Its own seeded
/// counter-based generator advances once per forward call, so a run is reproducible. Without
/// a seed it takes one from kt::default_generator() when built (as torch draws from its global
/// generator): two Dropouts draw different masks, and kt::manual_seed fixes them all.
///
///     kt::nn::Dropout<float> drop(kt::nn::DropoutOptions(0.2).seed(7));
///     model.eval();                       // dropout off

#include "kt/core/impl/public_begin.hpp"

#include "kt/functional/dropout.hpp"
#include "kt/nn/impl/layer.hpp"
#include "kt/tensor/generator.hpp"
#include "kt/tensor/impl/philox.hpp"

#include <cstdint>
#include <optional>
#include <sstream>
#include <string>

namespace kt::nn {

class DropoutOptions {
public:
  DropoutOptions(double p = 0.5) : p_(p) {}  // NOLINT: implicit like torch's
  DropoutOptions& p(double value) { p_ = value; return *this; }
  /// Seed of its own generator; without one, drawn from kt::default_generator().
  DropoutOptions& seed(std::uint64_t s) { seed_ = s; return *this; }
  double p() const { return p_; }
  const std::optional<std::uint64_t>& seed() const { return seed_; }

private:
  double p_;
  std::optional<std::uint64_t> seed_;
};

template <class T, class D = DefaultDevice>
class Dropout : public kt::impl::Layer<Dropout<T, D>, T, D> {
public:
  /// A copy rebuilt from options() (to<D2>(), clone()) keeps the seed this one drew.
  explicit Dropout(const DropoutOptions& options = {})
      : options_(DropoutOptions(options).seed(options.seed() ? *options.seed() : kt::impl::draw_seed(default_generator()))),
        gen_(*options_.seed()) {
    KT_REQUIRE(options.p() >= 0 && options.p() <= 1,
               "kt::nn::Dropout: probability has to be between 0 and 1, but got ", options.p());
  }
  Var<T, D> forward(const Var<T, D>& x) override {
    KT_PROFILE_REGION("kt::nn::Dropout::forward");
    return kt::dropout(x, options_.p(), this->is_training(), gen_);
  }
  std::string name() const override { return "Dropout"; }
  const Generator* own_generator() const override { return &gen_; }
  std::string extra_repr() const override {
    std::ostringstream s;
    s << "p=" << options_.p() << ", inplace=False";
    return s.str();
  }
  const DropoutOptions& options() const { return options_; }

private:
  DropoutOptions options_;
  Generator gen_;
};

}  // namespace kt::nn

#include "kt/core/impl/public_end.hpp"
