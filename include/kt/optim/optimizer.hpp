#pragma once
/// \file kt/optim/optimizer.hpp
/// The base of kt's optimizers (`torch.optim.Optimizer`): the parameters, `zero_grad`,
/// `step`, the learning rate that schedulers drive, and the per-parameter state. One parameter
/// group per optimizer; its hyperparameters are the optimizer's options.
///
///     std::vector<kt::Var<float>> params = {w, b};   // leaves with requires_grad
///     kt::optim::SGD<float> opt(params, kt::optim::SGDOptions(0.1).momentum(0.9));
///     for (...) {
///       opt.zero_grad();            // grads -> undefined (set_to_none, PyTorch's default)
///       loss(...).backward();
///       opt.step();                 // params without a gradient are skipped
///     }
///     opt.set_lr(0.01);             // what kt::optim::StepLR & co. call
///
/// Parameters are shared handles: the optimizer updates their values in place, so the model
/// that owns them sees every step.

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/var.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/capture_state.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/core/profiling.hpp"
#include "kt/optim/params.hpp"
#include "kt/optim/state.hpp"
#include "kt/tensor/impl/multi_tensor.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace kt::optim {

/// What every optimizer offers independently of its dtype and device: learning-rate
/// schedulers hold an OptimizerBase&.
class OptimizerBase {
public:
  virtual ~OptimizerBase() = default;
  /// One update of every parameter that has a gradient.
  virtual void step() = 0;
  /// Clears the gradients: undefined (`set_to_none`, the default) or zero-filled.
  virtual void zero_grad(bool set_to_none = true) = 0;
  /// The learning rate of the parameter group.
  virtual double lr() const = 0;
  /// Sets the learning rate (kt::Error when negative or NaN).
  virtual void set_lr(double lr) = 0;
  /// The optimizer's qualified name, e.g. "kt::optim::Adam".
  virtual const char* name() const = 0;
};

/// Parameters and per-parameter state of an optimizer over `Var<T, D>` parameters.
/// Derived classes implement update() (one step of the parameters with a gradient), the
/// hyperparameter access and state_names(); kt::optim::OptimizerWithOptions does the
/// hyperparameter part for an options class.
template <class T, class D = DefaultDevice>
class Optimizer : public OptimizerBase {
public:
  using value_type = T;
  using device_type = D;
  using param_type = Var<T, D>;
  using state_type = ParamState<T, D>;
  using state_dict_type = OptimizerStateDict<T, D>;

  /// The parameters, in the order given to the constructor (state is indexed the same way).
  const std::vector<Var<T, D>>& params() const { return params_; }

  /// set_to_none = false zero-fills the existing gradients, up to 8 per launch.
  void zero_grad(bool set_to_none = true) override {
    KT_PROFILE_REGION("kt::optim::Optimizer::zero_grad");
    if (set_to_none) {
      for (const auto& p : params_) p.zero_grad(true);
      return;
    }
    impl::ZeroGroup<T> f{};
    const auto launch = [&] {
      if (f.group.size > 0) impl::multi_tensor_for<D>("kt::optim::Optimizer::zero_grad", f);
      f.group = {};
    };
    for (const auto& p : params_) {
      if (!p.grad().defined() || p.grad().numel() == 0) continue;
      f.x[f.group.size] = p.grad().data();
      f.group.add(p.grad().numel());
      if (f.group.size == impl::ZeroGroup<T>::capacity) launch();
    }
    launch();
  }

  /// One update of every parameter that has a gradient. kt::Error when none has one: the
  /// step would silently do nothing, which almost always means the optimizer holds other
  /// parameters than the ones the loss was computed with.
  void step() final {
    require_gradient("step");
    update();
  }

  /// step() unless `found_inf` (a flag on the device, e.g. kt::amp::GradScaler's Inf/NaN
  /// check) is nonzero. SGD, Adam and AdamW in their grouped form (foreach, the default)
  /// decide on the device, with no host wait — SGD with dampening only once every parameter
  /// has its momentum buffer; other optimizers read the flag on the host.
  void step_unless(const Tensor<std::int32_t, D>& found_inf) {
    require_gradient("step");
    if (update_unless(found_inf.data())) return;
    KT_REQUIRE(impl::active_capture() == nullptr, name(), "::step_unless (what kt::amp::GradScaler::step calls): "
               "this step reads the Inf/NaN flag on the host (foreach(false), an optimizer without a grouped form, or "
               "SGD with dampening at a parameter's first step), which a captured step cannot do: use foreach(true), "
               "or take a first step before capturing");
    if (found_inf.item() == 0) update();
  }

  /// The state of params()[i] (empty before its first update).
  const state_type& state(std::size_t i) const {
    check_index("state", i);
    sync_state();
    return state_[i];
  }
  /// Replaces the state of params()[i] with a deep copy of `s`; kt::Error when a tensor has a
  /// name this optimizer does not use, or a shape other than the parameter's.
  void set_state(std::size_t i, const state_type& s) {
    KT_PROFILE_REGION("kt::optim::Optimizer::set_state");
    check_index("set_state", i);
    check_state(i, s);
    sync_state();  // the other parameters' counts, before the device copy is replaced
    state_type copy;
    copy.step = s.step;
    for (const auto& kv : s.tensors) copy.tensors.emplace(kv.first, kv.second.clone());
    state_[i] = std::move(copy);
    state_changed();
  }

  /// The hyperparameters by name ("lr", "momentum", "beta1", ...; flags as 0 or 1).
  virtual std::map<std::string, double> hyperparameters() const = 0;
  /// Sets hyperparameters by name (those not named keep their values); kt::Error for an unknown
  /// name or an invalid value (nothing changes then).
  virtual void set_hyperparameters(const std::map<std::string, double>& h) = 0;

  /// State and hyperparameters (`optimizer.state_dict()`); the tensors share storage with the
  /// optimizer's, as PyTorch's do — clone them for a snapshot that later steps do not change.
  state_dict_type state_dict() const {
    sync_state();
    return state_dict_type{state_, hyperparameters()};
  }
  /// Checks a state_dict as load_state_dict does (its hyperparameters, one state per
  /// parameter, each state's tensors), changing nothing; kt::Error for the first fault.
  void check_state_dict(const state_dict_type& sd) {
    KT_REQUIRE(sd.state.size() == params_.size(), name(), "::load_state_dict: the state has ",
               sd.state.size(), " entries but the optimizer has ", params_.size(), " parameters");
    // The hyperparameters decide which state tensors are valid (amsgrad): set them for the
    // check, then put the current ones back.
    const auto previous = hyperparameters();
    set_hyperparameters(sd.hyperparameters);
    try {
      for (std::size_t i = 0; i < params_.size(); ++i) check_state(i, sd.state[i]);
    } catch (...) {
      set_hyperparameters(previous);
      throw;
    }
    set_hyperparameters(previous);
  }
  /// Loads a state_dict (deep-copying its tensors, as PyTorch does); its state must have one
  /// entry per parameter. Checked completely before anything changes.
  void load_state_dict(const state_dict_type& sd) {
    KT_PROFILE_REGION("kt::optim::Optimizer::load_state_dict");
    check_state_dict(sd);
    set_hyperparameters(sd.hyperparameters);
    for (std::size_t i = 0; i < params_.size(); ++i) set_state(i, sd.state[i]);
  }

protected:
  /// Updates every parameter that has a gradient (at least one has).
  virtual void update() = 0;
  /// update() unless *skip != 0, decided on the device; false when this optimizer cannot
  /// (then nothing ran, and step_unless decides on the host).
  virtual bool update_unless(const std::int32_t* skip) {
    (void)skip;
    return false;
  }
  /// Brings the host's copy of the state up to date, for optimizers whose device-side steps
  /// the host cannot follow (a step skipped on the device); state(), state_dict() and
  /// set_state() call it.
  virtual void sync_state() const {}
  /// The host's copy of params()[i]'s state, for sync_state().
  state_type& cached_state(std::size_t i) const { return state_[i]; }

  /// Checks the parameters: at least one, each a defined leaf, none twice.
  Optimizer(Params<T, D> params, const char* qualified_name)
      : params_(std::move(params).take()), state_(params_.size()) {
    KT_REQUIRE(!params_.empty(), qualified_name, ": got an empty parameter list");
    for (std::size_t i = 0; i < params_.size(); ++i) {
      KT_REQUIRE(params_[i].defined(), qualified_name, ": parameter ", i, " is undefined");
      KT_REQUIRE(params_[i].is_leaf(), qualified_name, ": parameter ", i, " is not a leaf (made by ",
                 params_[i].grad_fn_name(), "); optimize leaves, or detach() it first");
      for (std::size_t j = 0; j < i; ++j)
        KT_REQUIRE(!params_[j].is_same(params_[i]), qualified_name, ": parameter ", i,
                   " is the same Var as parameter ", j, "; pass each parameter once");
    }
  }

  /// The names of the state tensors this optimizer (with its current options) may hold.
  virtual std::vector<std::string> state_names() const = 0;

  /// Shape and name checks of a state for params()[i]; optimizers may add their own.
  virtual void check_state(std::size_t i, const state_type& s) const {
    KT_REQUIRE(s.step >= 0, name(), ": the state of parameter ", i, " has step ", s.step,
               " (expected >= 0)");
    const auto names = state_names();
    for (const auto& kv : s.tensors) {
      bool known = false;
      std::string expected;
      for (const auto& n : names) {
        known = known || n == kv.first;
        expected += (expected.empty() ? "" : ", ") + n;
      }
      KT_REQUIRE(known, name(), ": parameter ", i, " has state tensor \"", kv.first,
                 "\", which this optimizer does not use (expected: ",
                 expected.empty() ? std::string("none") : expected, ")");
      KT_REQUIRE(kv.second.defined() && kv.second.shape() == params_[i].shape(), name(),
                 ": state tensor \"", kv.first, "\" of parameter ", i, " has shape ",
                 kv.second.defined() ? kv.second.shape().str() : std::string("undefined"),
                 " but the parameter has shape ", params_[i].shape().str());
    }
  }

  /// The mutable state of params()[i], for step().
  state_type& mutable_state(std::size_t i) { return state_[i]; }

  /// Called after set_state() (and so load_state_dict()) replaced a parameter's state; for
  /// optimizers that keep a copy of it on the device.
  virtual void state_changed() {}

private:
  void require_gradient(const char* what) const {
    bool any = false;
    for (const auto& p : params_) any = any || p.grad().defined();
    KT_REQUIRE(any, name(), "::", what, ": none of the ", params_.size(), " parameters has a gradient since "
               "zero_grad(). Likely causes: the optimizer was built before the model was moved to another "
               "device (it then holds the old copy's parameters: build it from the moved model's "
               "parameters()), the loss does not depend on these parameters, backward() was not called, or "
               "the parameters were detached");
  }

  void check_index(const char* what, std::size_t i) const {
    KT_REQUIRE(i < params_.size(), name(), "::", what, ": parameter index ", i,
               " is out of range (the optimizer has ", params_.size(), " parameters)");
  }

  std::vector<Var<T, D>> params_;
  mutable std::vector<state_type> state_;  // mutable: sync_state() refreshes the host's copy
};

}  // namespace kt::optim

// kt_compiled (kt/core/impl/compiled.hpp): the base of every optimizer.
#define KT_ETI_OPTIMIZER_ONE(T, D, KW) KW class kt::optim::Optimizer<T, D>;
#define KT_ETI_OPTIMIZER(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_OPTIMIZER_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_OPTIM)
KT_ETI_OPTIMIZER(extern template)
#endif

#include "kt/core/impl/public_end.hpp"
