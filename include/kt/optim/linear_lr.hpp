#pragma once
/// \file kt/optim/linear_lr.hpp
/// `torch.optim.lr_scheduler.LinearLR`, the usual linear warm-up: the factor on base_lr moves
/// linearly from `start_factor` to `end_factor` over `total_iters` steps and stays there,
/// lr(e) = base_lr · (start + (end − start) · min(e, total_iters) / total_iters).
///
///     // 0.1·lr at first, the full lr from step 10 on
///     kt::optim::LinearLR warmup(opt, /*start_factor=*/0.1, /*end_factor=*/1.0, /*total_iters=*/10);
///     warmup.step();

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"
#include "kt/optim/lr_scheduler.hpp"

#include <algorithm>
#include <cstdint>

namespace kt::optim {

class LinearLR final : public LRScheduler {
public:
  /// PyTorch's defaults: start_factor 1/3, end_factor 1, total_iters 5. kt::Error unless
  /// 0 < start_factor <= 1, 0 <= end_factor <= 1 and total_iters > 0.
  explicit LinearLR(OptimizerBase& optimizer, double start_factor = 1.0 / 3, double end_factor = 1.0,
                    std::int64_t total_iters = 5)
      : LRScheduler(optimizer), start_(start_factor), end_(end_factor), total_iters_(total_iters) {
    KT_REQUIRE(start_factor > 0 && start_factor <= 1, "kt::optim::LinearLR: start_factor is ",
               start_factor, " (expected 0 < start_factor <= 1)");
    KT_REQUIRE(end_factor >= 0 && end_factor <= 1, "kt::optim::LinearLR: end_factor is ",
               end_factor, " (expected 0 <= end_factor <= 1)");
    KT_REQUIRE(total_iters > 0, "kt::optim::LinearLR: total_iters is ", total_iters,
               " (expected > 0)");
    initialize();
  }

  const char* name() const override { return "LinearLR"; }
  double lr_at(std::int64_t epoch) const override {
    const double e = static_cast<double>(std::min(epoch, total_iters_));
    return base_lr() * (start_ + (end_ - start_) * e / static_cast<double>(total_iters_));
  }
  double start_factor() const { return start_; }
  double end_factor() const { return end_; }
  std::int64_t total_iters() const { return total_iters_; }

private:
  double start_, end_;
  std::int64_t total_iters_;
};

}  // namespace kt::optim

#include "kt/core/impl/public_end.hpp"
