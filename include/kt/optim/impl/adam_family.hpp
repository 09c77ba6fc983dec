#pragma once
// What kt::optim::Adam and kt::optim::AdamW share: their options (a CRTP base, so chained
// setters return the derived options type) and the step loop; they differ only in how weight
// decay enters, a compile-time flag.

#include "kt/core/error.hpp"
#include "kt/core/profiling.hpp"
#include "kt/optim/impl/adam_impl.hpp"
#include "kt/optim/impl/validate.hpp"
#include "kt/optim/options_optimizer.hpp"
#include "kt/tensor/factories.hpp"

#include <string>
#include <utility>
#include <vector>

namespace kt::impl {

/// Adam's hyperparameters with setters that return `Derived&`.
template <class Derived>
class AdamOptionsBase {
public:
  Derived& lr(double v) { lr_ = v; return self(); }
  /// Decay rates of the first and second moment estimates (PyTorch's `betas`).
  Derived& betas(double beta1, double beta2) { beta1_ = beta1; beta2_ = beta2; return self(); }
  Derived& beta1(double v) { beta1_ = v; return self(); }
  Derived& beta2(double v) { beta2_ = v; return self(); }
  Derived& eps(double v) { eps_ = v; return self(); }
  Derived& weight_decay(double v) { weight_decay_ = v; return self(); }
  /// Uses the maximum of past second moments (Reddi, Kale & Kumar, "On the Convergence of
  /// Adam and Beyond", ICLR 2018).
  Derived& amsgrad(bool v) { amsgrad_ = v; return self(); }
  Derived& maximize(bool v) { maximize_ = v; return self(); }

  double lr() const { return lr_; }
  double beta1() const { return beta1_; }
  double beta2() const { return beta2_; }
  double eps() const { return eps_; }
  double weight_decay() const { return weight_decay_; }
  bool amsgrad() const { return amsgrad_; }
  bool maximize() const { return maximize_; }

  /// kt::Error when lr, eps or weight_decay is negative or a beta is outside [0, 1).
  void validate(const char* optimizer) const {
    require_non_negative(optimizer, "learning rate", lr_);
    require_non_negative(optimizer, "epsilon", eps_);
    KT_REQUIRE(beta1_ >= 0 && beta1_ < 1, optimizer, ": invalid beta1 ", beta1_, " (expected 0 <= beta1 < 1)");
    KT_REQUIRE(beta2_ >= 0 && beta2_ < 1, optimizer, ": invalid beta2 ", beta2_, " (expected 0 <= beta2 < 1)");
    require_non_negative(optimizer, "weight_decay", weight_decay_);
  }

  /// The hyperparameters by name (kt::optim::OptimizerWithOptions).
  template <class Self, class F>
  static void fields(Self& s, F&& f) {
    f("lr", s.lr_);
    f("beta1", s.beta1_);
    f("beta2", s.beta2_);
    f("eps", s.eps_);
    f("weight_decay", s.weight_decay_);
    f("amsgrad", s.amsgrad_);
    f("maximize", s.maximize_);
  }

protected:
  AdamOptionsBase(double lr, double weight_decay) : lr_(lr), weight_decay_(weight_decay) {}

private:
  Derived& self() { return static_cast<Derived&>(*this); }
  double lr_, beta1_ = 0.9, beta2_ = 0.999, eps_ = 1e-8, weight_decay_;
  bool amsgrad_ = false, maximize_ = false;
};

/// Adam (Decoupled = false: weight decay as an L2 term of the gradient) or AdamW
/// (Decoupled = true: p ← (1 − lr·wd)·p).
template <class T, class D, class Options, bool Decoupled>
class AdamFamily : public optim::OptimizerWithOptions<T, D, Options> {
  using C = compute_t<T>;

protected:
  AdamFamily(optim::Params<T, D> params, const Options& options, const char* qualified_name)
      : optim::OptimizerWithOptions<T, D, Options>(std::move(params), options, qualified_name) {}

  void update() override {
    const char* label = Decoupled ? "kt::optim::AdamW::step" : "kt::optim::Adam::step";
    KT_PROFILE_REGION(label);
    const auto& o = this->options();
    const auto& ps = this->params();
    for (std::size_t i = 0; i < ps.size(); ++i) {
      const auto& grad = ps[i].grad();
      if (!grad.defined()) continue;
      auto& st = this->mutable_state(i);
      const auto tensor = [&](const char* name) {
        auto it = st.tensors.find(name);
        if (it == st.tensors.end()) it = st.tensors.emplace(name, zeros<C, D>(ps[i].shape())).first;
        return it->second;
      };
      const auto exp_avg = tensor("exp_avg");
      const auto exp_avg_sq = tensor("exp_avg_sq");
      const auto max_exp_avg_sq = o.amsgrad() ? tensor("max_exp_avg_sq") : Tensor<C, D>();
      st.step += 1;
      adam_step(label, ps[i].data(), grad, exp_avg, exp_avg_sq, max_exp_avg_sq, adam_args<C>(o, Decoupled, st.step));
    }
  }

  std::vector<std::string> state_names() const override {
    if (this->options().amsgrad()) return {"exp_avg", "exp_avg_sq", "max_exp_avg_sq"};
    return {"exp_avg", "exp_avg_sq"};
  }

  /// A state is empty, or has taken steps and holds every moment this optimizer uses.
  void check_state(std::size_t i, const typename optim::Optimizer<T, D>::state_type& s) const override {
    optim::Optimizer<T, D>::check_state(i, s);
    if (s.empty()) return;
    for (const auto& n : state_names())
      KT_REQUIRE(s.has(n), this->name(), ": the state of parameter ", i, " (step ", s.step,
                 ") lacks the tensor \"", n, "\"");
    KT_REQUIRE(s.step > 0, this->name(), ": the state of parameter ", i,
               " has moment tensors but step 0 (expected >= 1)");
  }
};

}  // namespace kt::impl
