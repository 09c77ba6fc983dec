#pragma once
/// \file kt/amp/grad_scaler.hpp
/// Dynamic loss scaling (`torch.amp.GradScaler`), with PyTorch's semantics and defaults, for
/// any device: gradients of 16-bit activations that would underflow to zero are kept
/// representable by scaling the loss, and a step whose gradients overflowed is skipped.
///
///     kt::amp::GradScaler scaler;                    // init_scale 65536, growth 2, backoff 0.5, interval 2000
///     for (auto [x, y] : loader) {
///       opt.zero_grad();
///       scaler.scale(loss_fn(model(x), y)).backward();
///       scaler.unscale_(opt);                       // optional: before clip_grad_norm_
///       scaler.step(opt);                           // skipped if a gradient is Inf/NaN
///       scaler.update();                            // backoff after a skip, growth after 2000 clean steps
///     }
///
/// unscale_ multiplies the gradients by 1/scale on the device and checks them there; the one
/// device-to-host copy per optimizer and step is the Inf/NaN flag. The scale itself is a host
/// number (kt's kernels take scalars by value, so scaling costs no copy). Parameters must not
/// be kt::half (as PyTorch: keep fp32 master weights); bfloat16 and fp32 are fine.

#include "kt/amp/impl/unscale.hpp"
#include "kt/autograd/var.hpp"
#include "kt/autograd/elementwise.hpp"
#include "kt/core/error.hpp"
#include "kt/core/half.hpp"
#include "kt/core/profiling.hpp"
#include "kt/optim/optimizer.hpp"
#include "kt/tensor/factories.hpp"

#include <cmath>
#include <cstdint>
#include <map>
#include <type_traits>

namespace kt::amp {

class GradScalerOptions {
public:
  GradScalerOptions& init_scale(double v) { init_scale_ = v; return *this; }
  GradScalerOptions& growth_factor(double v) { growth_factor_ = v; return *this; }
  GradScalerOptions& backoff_factor(double v) { backoff_factor_ = v; return *this; }
  GradScalerOptions& growth_interval(std::int64_t v) { growth_interval_ = v; return *this; }
  /// A disabled scaler passes everything through: scale() returns the loss, step() steps.
  GradScalerOptions& enabled(bool v) { enabled_ = v; return *this; }
  double init_scale() const { return init_scale_; }
  double growth_factor() const { return growth_factor_; }
  double backoff_factor() const { return backoff_factor_; }
  std::int64_t growth_interval() const { return growth_interval_; }
  bool enabled() const { return enabled_; }

private:
  double init_scale_ = 65536.0, growth_factor_ = 2.0, backoff_factor_ = 0.5;
  std::int64_t growth_interval_ = 2000;
  bool enabled_ = true;
};

/// `scaler.state_dict()` in PyTorch's fields.
struct GradScalerState {
  double scale = 65536.0, growth_factor = 2.0, backoff_factor = 0.5;
  std::int64_t growth_interval = 2000, growth_tracker = 0;
};

class GradScaler {
public:
  explicit GradScaler(const GradScalerOptions& options = {}) : enabled_(options.enabled()) {
    load_state_dict({options.init_scale(), options.growth_factor(), options.backoff_factor(), options.growth_interval(), 0});
  }

  bool is_enabled() const { return enabled_; }
  /// The current scale (1 when disabled, as PyTorch).
  double get_scale() const { return enabled_ ? state_.scale : 1.0; }

  /// loss × scale (a Var: backward() through it gives scaled gradients).
  template <class T, class D>
  Var<T, D> scale(const Var<T, D>& loss) const {
    if (!enabled_) return loss;
    return loss * static_cast<T>(state_.scale);
  }

  /// Divides `opt`'s gradients by the scale in place and records whether any is Inf/NaN.
  /// Once per optimizer between update()s: a second call is a kt::Error (the gradients would
  /// be divided twice).
  template <class T, class D>
  void unscale_(optim::Optimizer<T, D>& opt) {
    if (!enabled_) return;
    KT_PROFILE_REGION("kt::amp::GradScaler::unscale_");
    static_assert(!std::is_same_v<T, half>,
                  "kt::amp::GradScaler: the optimizer's parameters are kt::half; unscaling fp16 gradients "
                  "loses them (PyTorch refuses too): keep fp32 master weights and cast in the forward");
    auto& s = per_optimizer_[&opt];
    KT_REQUIRE(s.stage == Stage::Ready, "kt::amp::GradScaler::unscale_: ",
               s.stage == Stage::Unscaled ? "unscale_() has already been called on this optimizer since the last update()"
                                          : "step() has already been called on this optimizer since the last update()");
    const auto found = kt::zeros<std::int32_t, D>(Shape{});
    for (const auto& p : opt.params())
      if (p.grad().defined()) impl::unscale_grad(p.grad(), 1.0 / state_.scale, found);
    s.found_inf = found.item() != 0;  // the one device-to-host copy of the step
    s.stage = Stage::Unscaled;
  }

  /// Unscales (unless unscale_ was called) and steps `opt` unless a gradient was Inf/NaN.
  /// Returns whether it stepped.
  template <class T, class D>
  bool step(optim::Optimizer<T, D>& opt) {
    if (!enabled_) {
      opt.step();
      return true;
    }
    auto& s = per_optimizer_[&opt];  // std::map: the reference survives unscale_'s insertion
    KT_REQUIRE(s.stage != Stage::Stepped, "kt::amp::GradScaler::step: step() has already been called since the last update()");
    if (s.stage == Stage::Ready) unscale_(opt);
    s.stage = Stage::Stepped;
    if (s.found_inf) return false;
    opt.step();
    return true;
  }

  /// Adjusts the scale from this iteration's checks: × backoff_factor if any optimizer saw
  /// Inf/NaN (and the clean-step count restarts), × growth_factor after growth_interval clean
  /// steps in a row. Then a new iteration starts.
  void update() {
    if (!enabled_) return;
    KT_REQUIRE(!per_optimizer_.empty(), "kt::amp::GradScaler::update: no inf checks were recorded prior to update(): "
               "call step(optimizer) (or unscale_) first");
    bool found_inf = false;
    for (const auto& kv : per_optimizer_) found_inf = found_inf || kv.second.found_inf;
    per_optimizer_.clear();
    if (found_inf) {
      state_.scale *= state_.backoff_factor;
      state_.growth_tracker = 0;
    } else if (++state_.growth_tracker == state_.growth_interval) {
      // As PyTorch: grow only to a finite scale.
      if (std::isfinite(state_.scale * state_.growth_factor)) state_.scale *= state_.growth_factor;
      state_.growth_tracker = 0;
    }
  }

  GradScalerState state_dict() const { return state_; }
  /// Takes a saved state (kt::Error for values PyTorch's constructor would refuse).
  void load_state_dict(const GradScalerState& s) {
    check_state_dict(s);
    state_ = s;
  }
  /// kt::Error unless load_state_dict takes `s` (the values PyTorch's constructor would take).
  static void check_state_dict(const GradScalerState& s) {
    KT_REQUIRE(std::isfinite(s.scale) && s.scale > 0, "kt::amp::GradScaler: scale ", s.scale, " must be finite and > 0");
    KT_REQUIRE(std::isfinite(s.growth_factor) && s.growth_factor > 1, "kt::amp::GradScaler: growth_factor ",
               s.growth_factor, " must be > 1");
    KT_REQUIRE(s.backoff_factor > 0 && s.backoff_factor < 1, "kt::amp::GradScaler: backoff_factor ", s.backoff_factor,
               " must be in (0, 1)");
    KT_REQUIRE(s.growth_interval >= 1, "kt::amp::GradScaler: growth_interval ", s.growth_interval, " must be >= 1");
    KT_REQUIRE(s.growth_tracker >= 0 && s.growth_tracker < s.growth_interval, "kt::amp::GradScaler: growth tracker ",
               s.growth_tracker, " must be in [0, growth_interval = ", s.growth_interval, ")");
  }

private:
  enum class Stage { Ready, Unscaled, Stepped };
  struct OptimizerStage {
    Stage stage = Stage::Ready;
    bool found_inf = false;
  };
  bool enabled_;
  GradScalerState state_;
  std::map<const optim::OptimizerBase*, OptimizerStage> per_optimizer_;
};

}  // namespace kt::amp
