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
/// Nothing in that loop makes the host wait: the scale, the growth tracker and the Inf/NaN
/// flags live on the device (kt/amp/impl/scaler_store.hpp), unscale_ multiplies up to 8
/// gradients per launch and raises the flags there, the optimizer skips its update on the
/// device (kt::optim::Optimizer::step_unless), and update() adjusts the scale there — so the
/// step can be captured (kt::StepGraph). The host reads the numbers only when asked:
/// get_scale(), state_dict(), and the answer step() returns. Parameters must not be kt::half
/// (as PyTorch: keep fp32 master weights); bfloat16 and fp32 are fine. A scaler serves one
/// device, the one it is first used on.

#include "kt/core/impl/public_begin.hpp"

#include "kt/amp/grad_scaler_options.hpp"
#include "kt/amp/impl/scaler_store.hpp"
#include "kt/amp/impl/unscale.hpp"
#include "kt/autograd/elementwise.hpp"
#include "kt/autograd/impl/times_constant.hpp"
#include "kt/autograd/var.hpp"
#include "kt/core/device.hpp"
#include "kt/core/error.hpp"
#include "kt/core/half.hpp"
#include "kt/core/profiling.hpp"
#include "kt/optim/optimizer.hpp"

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

namespace kt::amp {

/// What GradScaler::step answers: whether the optimizer stepped. The check ran on the device,
/// so reading the answer makes the host wait for it (once); a loop that does not read it
/// never waits.
template <class D>
class StepTaken {
public:
  /// Stepped: a disabled scaler always steps.
  StepTaken() = default;
  /// Stepped unless `found_inf` (this step's flag on the device) is set.
  explicit StepTaken(Tensor<std::int32_t, D> found_inf) : found_inf_(std::move(found_inf)) {}
  bool stepped() const { return !found_inf_.defined() || found_inf_.item() == 0; }
  operator bool() const { return stepped(); }  // NOLINT: `if (scaler.step(opt))`, as a bool

private:
  Tensor<std::int32_t, D> found_inf_;
};

class GradScaler {
public:
  explicit GradScaler(const GradScalerOptions& options = {}) : enabled_(options.enabled()) {
    load_state_dict({options.init_scale(), options.growth_factor(), options.backoff_factor(), options.growth_interval(), 0});
  }
  /// A copy scales on its own from the same state (`copy.deepcopy(scaler)`).
  GradScaler(const GradScaler& other)
      : enabled_(other.enabled_), state_(other.state_), store_(other.store_ ? other.store_->clone() : nullptr),
        per_optimizer_(other.per_optimizer_) {}
  GradScaler& operator=(const GradScaler& other) {
    if (this != &other) *this = GradScaler(other);
    return *this;
  }
  GradScaler(GradScaler&&) noexcept = default;
  GradScaler& operator=(GradScaler&&) noexcept = default;
  ~GradScaler() = default;

  bool is_enabled() const { return enabled_; }
  /// The current scale (1 when disabled, as PyTorch); the host waits for the device's value.
  double get_scale() const {
    if (!enabled_) return 1.0;
    return store_ ? store_->read().first : state_.scale;
  }

  /// loss × scale (a Var: backward() through it gives scaled gradients), the scale read on
  /// the device. The product is the loss's as written, a node of its own. Written as Var's
  /// `*`, whose autocast policy may run on 16-bit twins (never here: the scale has none), it
  /// would be compiled for kt::half and kt::bfloat16 too, with autograd's engine for both:
  /// 0.23 of the main example's 1.21 MB of training code, 37.4 s of g++ 12 for its file
  /// instead of 28.8 (docs/performance.md).
  template <class T, class D>
  Var<T, D> scale(const Var<T, D>& loss) {
    if (!enabled_) return loss;
    return impl::times_constant("kt::amp::GradScaler::scale", loss, store<D>("scale").template scale_as<T>());
  }

  /// Divides `opt`'s gradients by the scale in place and records on the device whether any
  /// is Inf/NaN. Once per optimizer between update()s: a second call is a kt::Error (the
  /// gradients would be divided twice).
  template <class T, class D>
  void unscale_(optim::Optimizer<T, D>& opt) {
    if (!enabled_) return;
    KT_PROFILE_REGION("kt::amp::GradScaler::unscale_");
    static_assert(!std::is_same_v<T, half>,
                  "kt::amp::GradScaler: the optimizer's parameters are kt::half; unscaling fp16 gradients "
                  "loses them (PyTorch refuses too): keep fp32 master weights and cast in the forward");
    auto& s = per_optimizer_[&opt];
    KT_REQUIRE(s == Stage::Ready, "kt::amp::GradScaler::unscale_: ",
               s == Stage::Unscaled ? "unscale_() has already been called on this optimizer since the last update()"
                                    : "step() has already been called on this optimizer since the last update()");
    auto& st = store<D>("unscale_");
    impl::UnscaleGroup<T> f{};
    f.inv_scale = st.inv_scale();
    f.found = st.found(&opt).data();
    f.any_found = st.any_found();
    const auto launch = [&] {
      if (f.group.size > 0) impl::multi_tensor_for<D>("kt::amp::GradScaler::unscale_", f);
      f.group = {};
    };
    for (const auto& p : opt.params()) {
      if (!p.grad().defined() || p.grad().numel() == 0) continue;
      f.g[f.group.size] = p.grad().data();
      f.group.add(p.grad().numel());
      if (f.group.size == impl::UnscaleGroup<T>::capacity) launch();
    }
    launch();
    s = Stage::Unscaled;
  }

  /// Unscales (unless unscale_ was called) and steps `opt` unless a gradient was Inf/NaN,
  /// decided on the device. The answer converts to bool: whether it stepped (reading it
  /// waits for the device).
  template <class T, class D>
  StepTaken<D> step(optim::Optimizer<T, D>& opt) {
    if (!enabled_) {
      opt.step();
      return {};
    }
    auto& s = per_optimizer_[&opt];  // std::map: the reference survives unscale_'s insertion
    KT_REQUIRE(s != Stage::Stepped, "kt::amp::GradScaler::step: step() has already been called since the last update()");
    if (s == Stage::Ready) unscale_(opt);
    s = Stage::Stepped;
    const auto found = store<D>("step").found(&opt);
    opt.step_unless(found);
    return StepTaken<D>(found);
  }

  /// Adjusts the scale from this iteration's checks, on the device: × backoff_factor if any
  /// optimizer saw Inf/NaN (and the clean-step count restarts), × growth_factor after
  /// growth_interval clean steps in a row. Then a new iteration starts.
  void update() {
    if (!enabled_) return;
    KT_REQUIRE(!per_optimizer_.empty(), "kt::amp::GradScaler::update: no inf checks were recorded prior to update(): "
               "call step(optimizer) (or unscale_) first");
    per_optimizer_.clear();
    store_->update(state_);
  }

  /// The state (the host waits for the device's scale and tracker).
  GradScalerState state_dict() const {
    GradScalerState s = state_;
    if (store_) std::tie(s.scale, s.growth_tracker) = store_->read();
    return s;
  }
  /// Takes a saved state (kt::Error for values PyTorch's constructor would refuse).
  void load_state_dict(const GradScalerState& s) {
    check_state_dict(s);
    state_ = s;
    if (store_) store_->write(s.scale, s.growth_tracker);
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

  /// The device numbers, made on first use from state_; one device per scaler.
  template <class D>
  impl::ScalerStore<D>& store(const char* op) {
    if (!store_) store_ = std::make_unique<impl::ScalerStore<D>>(state_.scale, state_.growth_tracker);
    auto* s = dynamic_cast<impl::ScalerStore<D>*>(store_.get());
    KT_REQUIRE(s != nullptr, "kt::amp::GradScaler::", op, ": this scaler keeps its scale on ", store_->device(),
               ", not on ", device_name<D>(), ": use one GradScaler per device");
    return *s;
  }

  bool enabled_;
  GradScalerState state_;  // the hyperparameters; scale and tracker until a device holds them
  std::unique_ptr<impl::ScalerStoreBase> store_;
  std::map<const optim::OptimizerBase*, Stage> per_optimizer_;
};

}  // namespace kt::amp

#include "kt/core/impl/public_end.hpp"
