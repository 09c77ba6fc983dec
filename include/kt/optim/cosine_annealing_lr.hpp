#pragma once
/// \file kt/optim/cosine_annealing_lr.hpp
/// `torch.optim.lr_scheduler.CosineAnnealingLR` (Loshchilov & Hutter, "SGDR: Stochastic
/// Gradient Descent with Warm Restarts", ICLR 2017, without the restarts), in closed form:
/// lr(e) = eta_min + (base_lr − eta_min) · (1 + cos(π·e / T_max)) / 2 — from base_lr at 0 to
/// eta_min at T_max (and back up after it, as PyTorch's schedule does).
///
///     kt::optim::CosineAnnealingLR sched(opt, /*T_max=*/100, /*eta_min=*/1e-5);
///     sched.step();

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"
#include "kt/optim/lr_scheduler.hpp"

#include <cmath>
#include <cstdint>

namespace kt::optim {

class CosineAnnealingLR final : public LRScheduler {
public:
  /// kt::Error unless T_max > 0 and eta_min is finite and >= 0.
  CosineAnnealingLR(OptimizerBase& optimizer, std::int64_t T_max, double eta_min = 0.0)
      : LRScheduler(optimizer), t_max_(T_max), eta_min_(eta_min) {
    KT_REQUIRE(T_max > 0, "kt::optim::CosineAnnealingLR: T_max is ", T_max, " (expected > 0)");
    KT_REQUIRE(std::isfinite(eta_min) && eta_min >= 0, "kt::optim::CosineAnnealingLR: eta_min is ",
               eta_min, " (expected a finite value >= 0)");
    initialize();
  }

  const char* name() const override { return "CosineAnnealingLR"; }
  double lr_at(std::int64_t epoch) const override {
    const double pi = 3.14159265358979323846;
    return eta_min_ + (base_lr() - eta_min_) *
                          (1.0 + std::cos(pi * static_cast<double>(epoch) / static_cast<double>(t_max_))) / 2.0;
  }
  std::int64_t T_max() const { return t_max_; }
  double eta_min() const { return eta_min_; }

private:
  std::int64_t t_max_;
  double eta_min_;
};

}  // namespace kt::optim

#include "kt/core/impl/public_end.hpp"
