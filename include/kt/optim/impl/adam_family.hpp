#pragma once
// What kt::optim::Adam and kt::optim::AdamW share: their options (a CRTP base, so chained
// setters return the derived options type) and the optimizer (state, validation, the step
// loop); they differ only in how weight decay enters, a compile-time flag.

#include "kt/core/error.hpp"
#include "kt/core/profiling.hpp"
#include "kt/optim/impl/adam_impl.hpp"
#include "kt/optim/optimizer.hpp"
#include "kt/tensor/factories.hpp"

#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace kt::optim::impl {

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
class AdamFamily : public Optimizer<T, D> {
  using Base = Optimizer<T, D>;
  using C = compute_t<T>;

public:
  const Options& options() const { return options_; }
  /// Replaces all hyperparameters (validated first).
  void set_options(const Options& options) {
    validate(options);
    options_ = options;
  }

  double lr() const override { return options_.lr(); }
  void set_lr(double lr) override { set_options(Options(options_).lr(lr)); }

  void step() override {
    KT_PROFILE_REGION(step_label());
    const auto& o = options_;
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
      const auto args = adam_args<C>(o.lr(), o.beta1(), o.beta2(), o.eps(),
                                     Decoupled ? 0.0 : o.weight_decay(),
                                     Decoupled ? o.weight_decay() : 0.0, o.amsgrad(), o.maximize(),
                                     st.step);
      adam_step(step_label(), ps[i].data(), grad, exp_avg, exp_avg_sq, max_exp_avg_sq, args);
    }
  }

  std::map<std::string, double> hyperparameters() const override {
    const auto& o = options_;
    return {{"lr", o.lr()},           {"beta1", o.beta1()},
            {"beta2", o.beta2()},     {"eps", o.eps()},
            {"weight_decay", o.weight_decay()}, {"amsgrad", o.amsgrad() ? 1.0 : 0.0},
            {"maximize", o.maximize() ? 1.0 : 0.0}};
  }

  void set_hyperparameters(const std::map<std::string, double>& h) override {
    Options o = options_;
    for (const auto& [key, v] : h) {
      if (key == "lr") o.lr(v);
      else if (key == "beta1") o.beta1(v);
      else if (key == "beta2") o.beta2(v);
      else if (key == "eps") o.eps(v);
      else if (key == "weight_decay") o.weight_decay(v);
      else if (key == "amsgrad") o.amsgrad(v != 0);
      else if (key == "maximize") o.maximize(v != 0);
      else KT_THROW(this->name(), "::set_hyperparameters: unknown hyperparameter \"", key,
                    "\" (expected lr, beta1, beta2, eps, weight_decay, amsgrad, maximize)");
    }
    set_options(o);
  }

protected:
  AdamFamily(std::vector<Var<T, D>> params, const Options& options, const char* qualified_name)
      : Base(std::move(params), qualified_name), options_(options) {}

  /// Called by the final class's constructor, where name() is already its own.
  void validate(const Options& o) const {
    this->require_non_negative("learning rate", o.lr());
    this->require_non_negative("epsilon", o.eps());
    KT_REQUIRE(o.beta1() >= 0 && o.beta1() < 1, this->name(), ": invalid beta1 ", o.beta1(),
               " (expected 0 <= beta1 < 1)");
    KT_REQUIRE(o.beta2() >= 0 && o.beta2() < 1, this->name(), ": invalid beta2 ", o.beta2(),
               " (expected 0 <= beta2 < 1)");
    this->require_non_negative("weight_decay", o.weight_decay());
  }

  std::vector<std::string> state_names() const override {
    if (options_.amsgrad()) return {"exp_avg", "exp_avg_sq", "max_exp_avg_sq"};
    return {"exp_avg", "exp_avg_sq"};
  }

  /// A state is empty, or has taken steps and holds every moment this optimizer uses.
  void check_state(std::size_t i, const typename Base::state_type& s) const override {
    Base::check_state(i, s);
    if (s.empty()) return;
    for (const auto& n : state_names())
      KT_REQUIRE(s.has(n), this->name(), ": the state of parameter ", i, " (step ", s.step,
                 ") lacks the tensor \"", n, "\"");
    KT_REQUIRE(s.step > 0, this->name(), ": the state of parameter ", i,
               " has moment tensors but step 0 (expected >= 1)");
  }

private:
  const char* step_label() const { return Decoupled ? "kt::optim::AdamW::step" : "kt::optim::Adam::step"; }

  Options options_;
};

}  // namespace kt::optim::impl
