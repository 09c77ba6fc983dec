#pragma once
// What kt::optim::Adam and kt::optim::AdamW share: their options (a CRTP base, so chained
// setters return the derived options type) and the step loop; they differ only in how weight
// decay enters, a compile-time flag.

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"
#include "kt/core/profiling.hpp"
#include "kt/core/impl/capture_state.hpp"
#include "kt/optim/impl/adam_impl.hpp"
#include "kt/optim/impl/validate.hpp"
#include "kt/optim/options_optimizer.hpp"
#include "kt/tensor/factories.hpp"

#include <cstdint>
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
  /// Updates up to 6 parameters per launch (default) instead of one launch per parameter;
  /// the results are the same (not a hyperparameter: state_dict does not store it).
  Derived& foreach(bool v) { foreach_ = v; return self(); }

  double lr() const { return lr_; }
  double beta1() const { return beta1_; }
  double beta2() const { return beta2_; }
  double eps() const { return eps_; }
  double weight_decay() const { return weight_decay_; }
  bool amsgrad() const { return amsgrad_; }
  bool maximize() const { return maximize_; }
  bool foreach() const { return foreach_; }

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
  bool amsgrad_ = false, maximize_ = false, foreach_ = true;
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
    const AdamHyper h{o.beta1(), o.beta2(), o.weight_decay(), Decoupled};
    const AdamCoefficients<C> k(h, o.eps(), o.maximize());
    if (!o.foreach()) {
      sync_state();  // the host's step counts, after steps the device may have skipped
      for_each_update(true, [&](std::size_t i, const ParamMoments& s) {
        const auto scalars = adam_step_scalars<C>(h, o.lr(), this->mutable_state(i).step);
        if (o.amsgrad()) adam_kernel<true>(label, this->params()[i].data(), this->params()[i].grad(), s.m, s.v, s.vmax, k, scalars);
        else adam_kernel<false>(label, this->params()[i].data(), this->params()[i].grad(), s.m, s.v, s.vmax, k, scalars);
      });
    } else {
      grouped_update(label, h, k, nullptr);
    }
  }

  /// On the device when grouped. The host cannot follow the step counts then: sync_state()
  /// reads them back when asked. A skipped first step leaves zero moments at step 0, which
  /// the next step treats as a first step.
  bool update_unless(const std::int32_t* skip) override {
    const auto& o = this->options();
    if (!o.foreach()) return false;
    const char* label = Decoupled ? "kt::optim::AdamW::step" : "kt::optim::Adam::step";
    KT_PROFILE_REGION(label);
    const AdamHyper h{o.beta1(), o.beta2(), o.weight_decay(), Decoupled};
    grouped_update(label, h, AdamCoefficients<C>(h, o.eps(), o.maximize()), skip);
    host_steps_stale_ = true;
    return true;
  }

  void sync_state() const override {
    if (!host_steps_stale_) return;
    const auto steps = device_steps_.to_vector();  // a host wait, when the state is asked for
    for (std::size_t i = 0; i < steps.size(); ++i) this->cached_state(i).step = steps[i];
    host_steps_stale_ = false;
  }

  /// A parameter's moment tensors.
  struct ParamMoments {
    Tensor<C, D> m, v, vmax;
  };

  /// f(i, moments) for every parameter i with a gradient, after counting its step on the host
  /// when `count` (the state's tensors are made, zero, on its first step).
  template <class F>
  void for_each_update(bool count, F&& f) {
    const auto& ps = this->params();
    const bool amsgrad = this->options().amsgrad();
    for (std::size_t i = 0; i < ps.size(); ++i) {
      if (!ps[i].grad().defined()) continue;
      auto& st = this->mutable_state(i);
      const auto tensor = [&](const char* name) {
        auto it = st.tensors.find(name);
        if (it == st.tensors.end()) it = st.tensors.emplace(name, zeros<C, D>(ps[i].shape())).first;
        return it->second;
      };
      ParamMoments moments{tensor("exp_avg"), tensor("exp_avg_sq"), amsgrad ? tensor("max_exp_avg_sq") : Tensor<C, D>()};
      if (count) st.step += 1;
      f(i, moments);
    }
  }

  /// The same updates, up to AdamGroup's capacity of parameters per launch, each launch after
  /// a small one that counts the step on the device (the step counts and the learning rate
  /// live there, so a captured step replays as the eager one runs); all skipped on the device
  /// when *skip != 0 (never when null).
  void grouped_update(const char* label, const AdamHyper& h, const AdamCoefficients<C>& k, const std::int32_t* skip) {
    if (this->options().amsgrad()) grouped_launches<true>(label, h, k, skip);
    else grouped_launches<false>(label, h, k, skip);
  }

  template <bool AmsGrad>
  void grouped_launches(const char* label, const AdamHyper& h, const AdamCoefficients<C>& k, const std::int32_t* skip) {
    using Group = AdamGroup<AmsGrad, T>;
    static_assert(sizeof(Group) < 448, "kt::optim::Adam: the group functor must stay below Kokkos' 512-byte "
                                       "kernel-argument limit (kt/tensor/impl/multi_tensor.hpp)");
    const std::size_t n = this->params().size();
    if (!device_steps_.defined()) {
      device_steps_ = Tensor<std::int64_t, D>(Shape{static_cast<std::int64_t>(n)});
      device_scalars_ = Tensor<C, D>(Shape{static_cast<std::int64_t>(3 * n)});
      steps_on_device_ = false;
    }
    if (!steps_on_device_) {  // after construction or set_state/load_state_dict: no host wait
      for (std::size_t i = 0; i < n; ++i)
        device_steps_.slice(static_cast<std::int64_t>(i), static_cast<std::int64_t>(i) + 1).fill_(this->state(i).step);
      steps_on_device_ = true;
    }
    Group f{};
    f.k = k;
    f.scalars = reinterpret_cast<const AdamStepScalars<C>*>(device_scalars_.data());
    f.skip = skip;
    std::int64_t slots[Group::capacity];
    std::vector<std::size_t> counted;  // the parameters whose host step count a replay advances
    const auto launch = [&] {
      if (f.group.size == 0) return;
      adam_advance<T, D>("kt::optim::Adam::count_step", slots, f.group.size, device_steps_.data(),
                         reinterpret_cast<AdamStepScalars<C>*>(device_scalars_.data()), this->device_lr(), h, skip);
      multi_tensor_for<D>(label, f);
      f.group = {};
    };
    const bool host_counts = skip == nullptr;  // a skip is decided on the device: sync_state() reads the counts
    for_each_update(host_counts, [&](std::size_t i, const ParamMoments& s) {
      const int e = f.group.size;
      f.p[e] = this->params()[i].data().data();
      f.g[e] = this->params()[i].grad().data();
      f.m[e] = s.m.data();
      f.v[e] = s.v.data();
      f.vmax[e] = AmsGrad ? s.vmax.data() : nullptr;
      f.slot[e] = static_cast<int>(i);
      slots[e] = static_cast<std::int64_t>(i);
      f.group.add(this->params()[i].numel());
      counted.push_back(i);
      if (f.group.size == Group::capacity) launch();
    });
    launch();
    if (host_counts && active_capture() != nullptr)
      on_replay([this, counted] {
        for (std::size_t i : counted) this->mutable_state(i).step += 1;
      });
  }

  /// The host's step counts changed (set_state, load_state_dict): copy them before the next
  /// grouped step.
  void state_changed() override { steps_on_device_ = false; }

  std::vector<std::string> state_names() const override {
    if (this->options().amsgrad()) return {"exp_avg", "exp_avg_sq", "max_exp_avg_sq"};
    return {"exp_avg", "exp_avg_sq"};
  }

  /// A state is empty or holds every moment this optimizer uses (at step 0 when a loss
  /// scaler skipped the parameter's first step on the device: the moments are zero then).
  void check_state(std::size_t i, const typename optim::Optimizer<T, D>::state_type& s) const override {
    optim::Optimizer<T, D>::check_state(i, s);
    if (s.tensors.empty()) {
      KT_REQUIRE(s.step == 0, this->name(), ": the state of parameter ", i, " has step ", s.step,
                 " but no moment tensors");
      return;
    }
    for (const auto& n : state_names())
      KT_REQUIRE(s.has(n), this->name(), ": the state of parameter ", i, " (step ", s.step,
                 ") lacks the tensor \"", n, "\"");
  }

private:
  Tensor<std::int64_t, D> device_steps_;  // per parameter; the host's ParamState::step mirrors it
  Tensor<C, D> device_scalars_;           // per parameter: its AdamStepScalars of the last step
  bool steps_on_device_ = false;
  mutable bool host_steps_stale_ = false;  // a step decided on the device ran since the host last counted
};

}  // namespace kt::impl

// kt_compiled (kt/core/impl/compiled.hpp): optimizer OPT<T, D> of the family with its bases,
// for the lists of kt/optim/adam.hpp and adamw.hpp.
#define KT_ETI_ADAM_FAMILY(T, D, OPTIONS, DECOUPLED, OPT, KW)                                          \
  KW class kt::optim::OptimizerWithOptions<T, D, OPTIONS>;                                             \
  KW class kt::impl::AdamFamily<T, D, OPTIONS, DECOUPLED>; KW class OPT<T, D>;
