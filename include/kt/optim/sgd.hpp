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
/// in fused kernels over up to 8 parameters each (one per parameter with `foreach(false)`),
/// computed in kt::compute_t<T> (fp32 for kt::half and kt::bfloat16). The learning rate is
/// read from the device, so a captured step (kt::StepGraph) follows set_lr(). The gradient
/// itself is not modified.

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/core/profiling.hpp"
#include "kt/optim/impl/sgd_impl.hpp"
#include "kt/optim/impl/validate.hpp"
#include "kt/optim/options_optimizer.hpp"
#include "kt/tensor/factories.hpp"

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kt::optim {

/// Hyperparameters of kt::optim::SGD (`torch.optim.SGD`'s arguments).
class SGDOptions {
public:
  /// lr is required, as in PyTorch's C++ frontend; a number converts: `SGD(params, 0.01)`.
  SGDOptions(double lr) : lr_(lr) {}  // NOLINT: implicit on purpose
  SGDOptions& lr(double v) { lr_ = v; return *this; }
  SGDOptions& momentum(double v) { momentum_ = v; return *this; }
  SGDOptions& dampening(double v) { dampening_ = v; return *this; }
  SGDOptions& weight_decay(double v) { weight_decay_ = v; return *this; }
  /// Needs momentum > 0 and dampening 0.
  SGDOptions& nesterov(bool v) { nesterov_ = v; return *this; }
  /// Ascends the objective instead.
  SGDOptions& maximize(bool v) { maximize_ = v; return *this; }
  /// Updates up to 8 parameters per launch (default) instead of one launch per parameter;
  /// the results are the same (not a hyperparameter: state_dict does not store it).
  SGDOptions& foreach(bool v) { foreach_ = v; return *this; }

  double lr() const { return lr_; }
  double momentum() const { return momentum_; }
  double dampening() const { return dampening_; }
  double weight_decay() const { return weight_decay_; }
  bool nesterov() const { return nesterov_; }
  bool maximize() const { return maximize_; }
  bool foreach() const { return foreach_; }

  /// kt::Error for negative values, or Nesterov without momentum or with dampening.
  void validate(const char* optimizer) const {
    impl::require_non_negative(optimizer, "learning rate", lr_);
    impl::require_non_negative(optimizer, "momentum", momentum_);
    KT_REQUIRE(std::isfinite(dampening_), optimizer, ": invalid dampening ", dampening_, " (expected a finite value)");
    impl::require_non_negative(optimizer, "weight_decay", weight_decay_);
    KT_REQUIRE(!nesterov_ || (momentum_ > 0 && dampening_ == 0), optimizer,
               ": Nesterov momentum requires a momentum > 0 and zero dampening, but momentum is ", momentum_,
               " and dampening ", dampening_);
  }

  /// The hyperparameters by name (kt::optim::OptimizerWithOptions).
  template <class Self, class F>
  static void fields(Self& s, F&& f) {
    f("lr", s.lr_);
    f("momentum", s.momentum_);
    f("dampening", s.dampening_);
    f("weight_decay", s.weight_decay_);
    f("nesterov", s.nesterov_);
    f("maximize", s.maximize_);
  }

private:
  double lr_;
  double momentum_ = 0, dampening_ = 0, weight_decay_ = 0;
  bool nesterov_ = false, maximize_ = false, foreach_ = true;
};

/// SGD over `Var<T, D>` parameters (see the file comment for the update).
template <class T, class D = DefaultDevice>
class SGD final : public OptimizerWithOptions<T, D, SGDOptions> {
  using C = compute_t<T>;

public:
  /// kt::Error when the options are invalid or the parameter list is empty or repeats a
  /// parameter.
  SGD(Params<T, D> params, const SGDOptions& options)
      : OptimizerWithOptions<T, D, SGDOptions>(std::move(params), options, "kt::optim::SGD") {}

  const char* name() const override { return "kt::optim::SGD"; }

protected:
  void update() override {
    KT_PROFILE_REGION("kt::optim::SGD::step");
    const auto args = step_args();
    if (!this->options().foreach()) {
      for_each_update([&](std::size_t i, const Tensor<C, D>& buf, bool first) {
        auto a = args;
        a.first = first;
        impl::sgd_step(this->params()[i].data(), this->params()[i].grad(), buf, a);
      });
    } else {
      grouped_update(args, nullptr);
    }
  }

  /// On the device when grouped. A new momentum buffer takes the gradient itself (buf = g):
  /// without dampening a zero buffer updated as every later one is gives exactly that
  /// (μ·0 + 1·g), whether or not the step is skipped; with dampening the first step decides
  /// on the host.
  bool update_unless(const std::int32_t* skip) override {
    const auto& o = this->options();
    if (!o.foreach()) return false;
    if (o.momentum() != 0 && o.dampening() != 0)
      for (std::size_t i = 0; i < this->params().size(); ++i)
        if (this->params()[i].grad().defined() && !this->cached_state(i).has("momentum_buffer")) return false;
    KT_PROFILE_REGION("kt::optim::SGD::step");
    grouped_update(step_args(), skip);
    return true;
  }

  impl::SGDStepArgs<C> step_args() const {
    const auto& o = this->options();
    return {C(o.lr()), C(o.momentum()), C(1.0 - o.dampening()), C(o.weight_decay()), o.nesterov(), o.maximize(), false};
  }

  /// f(i, momentum buffer, first) for every parameter i with a gradient; makes the buffer on
  /// the first step with momentum — zero, and not a first step, when `zero_new` (the device
  /// decides whether the step runs).
  template <class F>
  void for_each_update(F&& f, bool zero_new = false) {
    const auto& ps = this->params();
    const bool momentum = this->options().momentum() != 0;
    for (std::size_t i = 0; i < ps.size(); ++i) {
      if (!ps[i].grad().defined()) continue;
      auto& st = this->mutable_state(i);
      Tensor<C, D> buf;
      bool first = false;
      if (momentum) {
        auto it = st.tensors.find("momentum_buffer");
        if (it == st.tensors.end()) {
          it = st.tensors.emplace("momentum_buffer", zero_new ? zeros<C, D>(ps[i].shape()) : Tensor<C, D>(ps[i].shape())).first;
          first = !zero_new;
        }
        buf = it->second;
      }
      f(i, buf, first);
    }
  }

  /// The same updates, up to SGDGroup's capacity of parameters per launch, skipped on the
  /// device when *skip != 0 (never when null).
  void grouped_update(const impl::SGDStepArgs<C>& args, const std::int32_t* skip) {
    if (this->options().momentum() != 0) grouped_launches<true>(args, skip);
    else grouped_launches<false>(args, skip);
  }

  template <bool Momentum>
  void grouped_launches(impl::SGDStepArgs<C> args, const std::int32_t* skip) {
    using Group = impl::SGDGroup<Momentum, T>;
    static_assert(sizeof(Group) < 448, "kt::optim::SGD: the group functor must stay below Kokkos' 512-byte "
                                       "kernel-argument limit (kt/tensor/impl/multi_tensor.hpp)");
    Group f{};
    f.lr = this->device_lr();
    f.skip = skip;
    args.first = true;
    f.first_k = impl::SGDCoefficients<C>(args);
    args.first = false;
    f.later_k = impl::SGDCoefficients<C>(args);
    const auto launch = [&] {
      if (f.group.size > 0) impl::multi_tensor_for<D>("kt::optim::SGD::step", f);
      f.group = {};
    };
    for_each_update([&](std::size_t i, const Tensor<C, D>& buf, bool first) {
      const int e = f.group.size;
      f.p[e] = this->params()[i].data().data();
      f.g[e] = this->params()[i].grad().data();
      f.b[e] = Momentum ? buf.data() : nullptr;
      f.first[e] = first;
      f.group.add(this->params()[i].numel());
      if (f.group.size == Group::capacity) launch();
    }, skip != nullptr);
    launch();
  }

  std::vector<std::string> state_names() const override { return {"momentum_buffer"}; }
};

/// `SGD opt(model.parameters(), options)` deduces T and D from the parameters.
template <class T, class D>
SGD(std::vector<Var<T, D>>, const SGDOptions&) -> SGD<T, D>;

}  // namespace kt::optim

// kt_compiled (kt/core/impl/compiled.hpp): SGD with its bases.
#define KT_ETI_SGD_ONE(T, D, KW) \
  KW class kt::optim::OptimizerWithOptions<T, D, kt::optim::SGDOptions>; KW class kt::optim::SGD<T, D>;
#define KT_ETI_SGD(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_SGD_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_OPTIM)
KT_ETI_SGD(extern template)
#endif

#include "kt/core/impl/public_end.hpp"
