#pragma once
/// \file kt/optim/lr_scheduler.hpp
/// The base of kt's learning-rate schedules (`torch.optim.lr_scheduler.LRScheduler`): each
/// schedule is a closed form lr(epoch) of the optimizer's initial learning rate; `step()`
/// advances the epoch and sets the optimizer's lr. Construction applies epoch 0, as PyTorch's
/// constructors do.
///
///     kt::optim::SGD<float> opt(params, kt::optim::SGDOptions(0.1));
///     kt::optim::StepLR sched(opt, /*step_size=*/30, /*gamma=*/0.1);
///     for (int epoch = 0; epoch < 100; ++epoch) {
///       train_one_epoch(opt);
///       sched.step();                       // after the optimizer's steps, as in PyTorch
///     }
///     double lr = sched.get_last_lr();
///
/// The scheduler keeps a reference to the optimizer, which must outlive it. Set the
/// optimizer's learning rate before creating a scheduler: that is its base_lr (PyTorch's
/// `initial_lr`).

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"
#include "kt/core/profiling.hpp"
#include "kt/optim/optimizer.hpp"

#include <cmath>
#include <cstdint>

namespace kt::optim {

/// What a schedule needs to continue where it stopped (PyTorch's `base_lrs` and
/// `last_epoch`; the learning rate follows from them).
struct LRSchedulerState {
  double base_lr = 0;
  std::int64_t last_epoch = 0;
};

class LRScheduler {
public:
  virtual ~LRScheduler() = default;
  LRScheduler(const LRScheduler&) = delete;
  LRScheduler& operator=(const LRScheduler&) = delete;

  /// Advances one epoch and sets the optimizer's learning rate to the schedule's value.
  void step() {
    KT_PROFILE_REGION("kt::optim::LRScheduler::step");
    apply(last_epoch_ + 1);
  }
  /// The learning rate the last step() (or the constructor) set (one parameter group).
  double get_last_lr() const { return last_lr_; }
  /// Epochs stepped since construction (0 right after it).
  std::int64_t last_epoch() const { return last_epoch_; }
  /// The optimizer's learning rate when the scheduler was created.
  double base_lr() const { return base_lr_; }
  /// Jumps to `epoch` (>= 0) and applies it, e.g. when resuming from a checkpoint.
  void set_last_epoch(std::int64_t epoch) {
    KT_REQUIRE(epoch >= 0, "kt::optim::LRScheduler::set_last_epoch: epoch ", epoch,
               " is negative");
    apply(epoch);
  }
  /// The state to save (`scheduler.state_dict()`).
  LRSchedulerState state_dict() const { return {base_lr_, last_epoch_}; }
  /// Continues from a saved state: its base learning rate and epoch, applied to the optimizer.
  void load_state_dict(const LRSchedulerState& state) {
    check_state_dict(state);
    base_lr_ = state.base_lr;
    apply(state.last_epoch);
  }
  /// kt::Error unless `state` is one load_state_dict takes: base_lr finite and >= 0,
  /// last_epoch >= 0.
  static void check_state_dict(const LRSchedulerState& state) {
    KT_REQUIRE(std::isfinite(state.base_lr) && state.base_lr >= 0 && state.last_epoch >= 0,
               "kt::optim::LRScheduler::load_state_dict: base_lr ", state.base_lr, " and last_epoch ",
               state.last_epoch, " must both be finite and >= 0");
  }
  /// The schedule's name, e.g. "StepLR" (what a checkpoint records and checks).
  virtual const char* name() const = 0;
  /// The schedule's learning rate at `epoch` (does not change anything).
  virtual double lr_at(std::int64_t epoch) const = 0;

protected:
  explicit LRScheduler(OptimizerBase& optimizer)
      : optimizer_(optimizer), base_lr_(optimizer.lr()) {}

  /// Derived constructors call this once their settings are in place.
  void initialize() { apply(0); }

private:
  void apply(std::int64_t epoch) {
    const double lr = lr_at(epoch);
    optimizer_.set_lr(lr);
    last_epoch_ = epoch;
    last_lr_ = lr;
  }

  OptimizerBase& optimizer_;
  double base_lr_;
  std::int64_t last_epoch_ = 0;
  double last_lr_ = 0;
};

}  // namespace kt::optim

#include "kt/core/impl/public_end.hpp"
