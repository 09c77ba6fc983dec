#pragma once
/// \file kt/optim/sgd.hpp
/// Stochastic gradient descent with momentum, dampening, Nesterov momentum and L2 weight decay
/// (`torch.optim.SGD`). Nesterov momentum follows Sutskever, Martens, Dahl & Hinton, "On the
/// importance of initialization and momentum in deep learning", ICML 2013, in PyTorch's form.
///
///     kt::optim::SGD<float> opt(model.parameters(),
///                               kt::optim::SGDOptions(0.1).momentum(0.9).nesterov(true));
///     opt.zero_grad();
///     loss.backward();
///     opt.step();
///     auto buf = opt.state(0).at("momentum_buffer");   // once momentum > 0 and a step ran
///
/// The update is PyTorch's, per element of each parameter p with gradient g (μ = momentum,
/// τ = dampening, λ = weight_decay, γ = lr):
///
///     g ← −g if maximize;   g ← g + λ·p if λ ≠ 0
///     if μ ≠ 0: b ← g on the first step, else b ← μ·b + (1 − τ)·g
///               g ← g + μ·b if nesterov, else g ← b
///     p ← p − γ·g
///
/// in one fused kernel per parameter tensor, computed in kt::compute_t<T> (fp32 for kt::half
/// and kt::bfloat16). The gradient itself is not modified.

#include "kt/core/error.hpp"
#include "kt/core/profiling.hpp"
#include "kt/optim/impl/sgd_impl.hpp"
#include "kt/optim/optimizer.hpp"

#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace kt::optim {

/// Hyperparameters of kt::optim::SGD (`torch.optim.SGD`'s arguments).
class SGDOptions {
public:
  /// lr is required, as in PyTorch's C++ frontend.
  explicit SGDOptions(double lr) : lr_(lr) {}
  SGDOptions& lr(double v) { lr_ = v; return *this; }
  SGDOptions& momentum(double v) { momentum_ = v; return *this; }
  SGDOptions& dampening(double v) { dampening_ = v; return *this; }
  SGDOptions& weight_decay(double v) { weight_decay_ = v; return *this; }
  /// Needs momentum > 0 and dampening 0.
  SGDOptions& nesterov(bool v) { nesterov_ = v; return *this; }
  /// Ascends the objective instead.
  SGDOptions& maximize(bool v) { maximize_ = v; return *this; }

  double lr() const { return lr_; }
  double momentum() const { return momentum_; }
  double dampening() const { return dampening_; }
  double weight_decay() const { return weight_decay_; }
  bool nesterov() const { return nesterov_; }
  bool maximize() const { return maximize_; }

private:
  double lr_;
  double momentum_ = 0, dampening_ = 0, weight_decay_ = 0;
  bool nesterov_ = false, maximize_ = false;
};

/// SGD over `Var<T, D>` parameters (see the file comment for the update).
template <class T, class D = DefaultDevice>
class SGD final : public Optimizer<T, D> {
  using Base = Optimizer<T, D>;
  using C = compute_t<T>;

public:
  /// kt::Error when the options are invalid (negative values, nesterov without momentum or
  /// with dampening) or the parameter list is empty or repeats a parameter.
  SGD(std::vector<Var<T, D>> params, const SGDOptions& options)
      : Base(std::move(params), "kt::optim::SGD"), options_(options) {
    validate(options_);
  }

  const char* name() const override { return "kt::optim::SGD"; }
  const SGDOptions& options() const { return options_; }
  /// Replaces all hyperparameters (validated first).
  void set_options(const SGDOptions& options) {
    validate(options);
    options_ = options;
  }

  double lr() const override { return options_.lr(); }
  void set_lr(double lr) override { set_options(SGDOptions(options_).lr(lr)); }

  void step() override {
    KT_PROFILE_REGION("kt::optim::SGD::step");
    const auto& o = options_;
    impl::SGDStepArgs<C> args{C(o.lr()), C(o.momentum()), C(1.0 - o.dampening()),
                              C(o.weight_decay()), o.nesterov(), o.maximize(), false};
    const auto& ps = this->params();
    for (std::size_t i = 0; i < ps.size(); ++i) {
      const auto& grad = ps[i].grad();
      if (!grad.defined()) continue;
      auto& st = this->mutable_state(i);
      Tensor<C, D> buf;
      args.first = false;
      if (o.momentum() != 0) {
        auto it = st.tensors.find("momentum_buffer");
        if (it == st.tensors.end()) {
          it = st.tensors.emplace("momentum_buffer", Tensor<C, D>(ps[i].shape())).first;
          args.first = true;
        }
        buf = it->second;
      }
      impl::sgd_step(ps[i].data(), grad, buf, args);
    }
  }

  std::map<std::string, double> hyperparameters() const override {
    const auto& o = options_;
    return {{"lr", o.lr()},
            {"momentum", o.momentum()},
            {"dampening", o.dampening()},
            {"weight_decay", o.weight_decay()},
            {"nesterov", o.nesterov() ? 1.0 : 0.0},
            {"maximize", o.maximize() ? 1.0 : 0.0}};
  }

  void set_hyperparameters(const std::map<std::string, double>& h) override {
    SGDOptions o = options_;
    for (const auto& [key, v] : h) {
      if (key == "lr") o.lr(v);
      else if (key == "momentum") o.momentum(v);
      else if (key == "dampening") o.dampening(v);
      else if (key == "weight_decay") o.weight_decay(v);
      else if (key == "nesterov") o.nesterov(v != 0);
      else if (key == "maximize") o.maximize(v != 0);
      else KT_THROW("kt::optim::SGD::set_hyperparameters: unknown hyperparameter \"", key,
                    "\" (expected lr, momentum, dampening, weight_decay, nesterov, maximize)");
    }
    set_options(o);
  }

protected:
  std::vector<std::string> state_names() const override { return {"momentum_buffer"}; }

private:
  void validate(const SGDOptions& o) const {
    this->require_non_negative("learning rate", o.lr());
    this->require_non_negative("momentum", o.momentum());
    KT_REQUIRE(std::isfinite(o.dampening()), "kt::optim::SGD: invalid dampening ", o.dampening(),
               " (expected a finite value)");
    this->require_non_negative("weight_decay", o.weight_decay());
    KT_REQUIRE(!o.nesterov() || (o.momentum() > 0 && o.dampening() == 0),
               "kt::optim::SGD: Nesterov momentum requires a momentum > 0 and zero dampening, "
               "but momentum is ", o.momentum(), " and dampening ", o.dampening());
  }

  SGDOptions options_;
};

}  // namespace kt::optim
