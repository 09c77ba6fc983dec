#pragma once
/// \file kt/optim/step_lr.hpp
/// `torch.optim.lr_scheduler.StepLR`: the learning rate decays by `gamma` every `step_size`
/// epochs, lr(e) = base_lr · gamma^⌊e / step_size⌋.
///
///     kt::optim::StepLR sched(opt, /*step_size=*/30, /*gamma=*/0.1);   // 0.1 → 0.01 at 30
///     sched.step();

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"
#include "kt/optim/lr_scheduler.hpp"

#include <cmath>
#include <cstdint>

namespace kt::optim {

class StepLR final : public LRScheduler {
public:
  /// kt::Error unless step_size > 0 and gamma is finite and >= 0.
  StepLR(OptimizerBase& optimizer, std::int64_t step_size, double gamma = 0.1)
      : LRScheduler(optimizer), step_size_(step_size), gamma_(gamma) {
    KT_REQUIRE(step_size > 0, "kt::optim::StepLR: step_size is ", step_size, " (expected > 0)");
    KT_REQUIRE(std::isfinite(gamma) && gamma >= 0, "kt::optim::StepLR: gamma is ", gamma,
               " (expected a finite value >= 0)");
    initialize();
  }

  const char* name() const override { return "StepLR"; }
  double lr_at(std::int64_t epoch) const override {
    return base_lr() * std::pow(gamma_, static_cast<double>(epoch / step_size_));
  }
  std::int64_t step_size() const { return step_size_; }
  double gamma() const { return gamma_; }

private:
  std::int64_t step_size_;
  double gamma_;
};

}  // namespace kt::optim

#include "kt/core/impl/public_end.hpp"
