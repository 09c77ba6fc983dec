// StepLR, CosineAnnealingLR and LinearLR against hand-computed sequences.

#include "optim/reference.hpp"

#include <kt/optim/cosine_annealing_lr.hpp>
#include <kt/optim/linear_lr.hpp>
#include <kt/optim/sgd.hpp>
#include <kt/optim/step_lr.hpp>

#include <string>
#include <vector>

namespace {

using D = kt::Serial;

kt::optim::SGD<float, D> make_sgd(double lr) {
  return kt::optim::SGD<float, D>({kt::Var<float, D>(kt::zeros<float, D>({2}), true)},
                                  kt::optim::SGDOptions(lr));
}

/// The learning rates at construction and after each of n - 1 steps; each is also the
/// optimizer's.
std::vector<double> sequence(kt::optim::LRScheduler& s, const kt::optim::OptimizerBase& opt, int n) {
  std::vector<double> lrs{s.get_last_lr()};
  for (int i = 1; i < n; ++i) {
    s.step();
    CHECK(s.last_epoch() == i);
    lrs.push_back(s.get_last_lr());
    CHECK(opt.lr() == s.get_last_lr());
  }
  return lrs;
}

}  // namespace

TEST_CASE("kt::optim::StepLR sequence") {
  auto opt = make_sgd(0.1);
  kt::optim::StepLR s(opt, 2, 0.5);
  CHECK(kt_optim_test::close(sequence(s, opt, 7), {0.1, 0.1, 0.05, 0.05, 0.025, 0.025, 0.0125}, 1e-15));
  CHECK(s.base_lr() == 0.1);
  s.set_last_epoch(10);
  CHECK(opt.lr() == doctest::Approx(0.1 / 32).epsilon(1e-15));
}

TEST_CASE("kt::optim::CosineAnnealingLR sequence") {
  auto opt = make_sgd(1.0);
  kt::optim::CosineAnnealingLR s(opt, 4, 0.1);
  // 0.1 + 0.9 (1 + cos(pi e / 4)) / 2, and back up after T_max as PyTorch's schedule goes.
  CHECK(kt_optim_test::close(sequence(s, opt, 7),
                             {1.0, 0.8681980515339464, 0.55, 0.23180194846605358, 0.1,
                              0.23180194846605358, 0.55},
                             1e-14));
}

TEST_CASE("kt::optim::LinearLR sequence") {
  auto opt = make_sgd(0.1);
  kt::optim::LinearLR s(opt, 0.25, 1.0, 4);
  CHECK(kt_optim_test::close(sequence(s, opt, 6), {0.025, 0.04375, 0.0625, 0.08125, 0.1, 0.1}, 1e-15));
  auto opt2 = make_sgd(0.3);
  kt::optim::LinearLR defaults(opt2);  // 1/3 -> 1 over 5 steps
  CHECK(defaults.get_last_lr() == doctest::Approx(0.1).epsilon(1e-15));
}

TEST_CASE("kt::optim schedulers reject invalid settings") {
  using kt_test::error_of;
  auto opt = make_sgd(0.1);
  CHECK(error_of([&] { kt::optim::StepLR s(opt, 0); }) ==
        "kt::optim::StepLR: step_size is 0 (expected > 0)");
  CHECK(error_of([&] { kt::optim::StepLR s(opt, 3, -0.5); }) ==
        "kt::optim::StepLR: gamma is -0.5 (expected a finite value >= 0)");
  CHECK(error_of([&] { kt::optim::CosineAnnealingLR s(opt, -1); }) ==
        "kt::optim::CosineAnnealingLR: T_max is -1 (expected > 0)");
  CHECK(error_of([&] { kt::optim::LinearLR s(opt, 0.0); }) ==
        "kt::optim::LinearLR: start_factor is 0 (expected 0 < start_factor <= 1)");
  CHECK(error_of([&] { kt::optim::LinearLR s(opt, 0.5, 1.5); }) ==
        "kt::optim::LinearLR: end_factor is 1.5 (expected 0 <= end_factor <= 1)");
  CHECK(error_of([&] { kt::optim::LinearLR s(opt, 0.5, 1.0, 0); }) ==
        "kt::optim::LinearLR: total_iters is 0 (expected > 0)");
  kt::optim::StepLR s(opt, 1);
  CHECK(error_of([&] { s.set_last_epoch(-2); }) ==
        "kt::optim::LRScheduler::set_last_epoch: epoch -2 is negative");
  CHECK(opt.lr() == 0.1);  // failed constructions left the optimizer alone
}
