// kt::optim::Adam and kt::optim::AdamW against an independent double-precision host loop of
// PyTorch's single-tensor algorithm.

#include "optim/reference.hpp"

#include <kt/optim/adam.hpp>
#include <kt/optim/adamw.hpp>

#include <string>

using namespace kt_optim_test;

namespace {

template <class Options>
AdamRef reference(const Options& o, bool decoupled) {
  AdamRef r;
  r.lr = o.lr();
  r.beta1 = o.beta1();
  r.beta2 = o.beta2();
  r.eps = o.eps();
  r.weight_decay = o.weight_decay();
  r.decoupled = decoupled;
  r.amsgrad = o.amsgrad();
  r.maximize = o.maximize();
  return r;
}

}  // namespace

TEST_CASE_TEMPLATE("kt::optim::Adam matches the host reference", Case, KT_ALL_FLOAT_CASES) {
  using T = typename Case::dtype;
  using D = typename Case::device;
  using kt::optim::AdamOptions;
  const std::pair<const char*, AdamOptions> configs[] = {
      {"defaults", AdamOptions(0.01)},
      {"weight decay", AdamOptions(0.01).weight_decay(0.1)},
      {"amsgrad", AdamOptions(0.02).amsgrad(true)},
      {"amsgrad and weight decay and betas", AdamOptions(0.01).betas(0.8, 0.99).amsgrad(true).weight_decay(0.05)},
      {"maximize and eps", AdamOptions(0.01).eps(1e-3).maximize(true)},
  };
  for (const auto& config : configs) {
    const AdamOptions& options = config.second;
    INFO(std::string(config.first));
    check_against_reference<T, D>(
        [&](std::vector<kt::Var<T, D>> ps) { return kt::optim::Adam<T, D>(std::move(ps), options); },
        reference(options, false), reference(options, false), 8);
  }
}

TEST_CASE_TEMPLATE("kt::optim::AdamW matches the host reference", Case, KT_ALL_FLOAT_CASES) {
  using T = typename Case::dtype;
  using D = typename Case::device;
  using kt::optim::AdamWOptions;
  CHECK(AdamWOptions().weight_decay() == 0.01);  // PyTorch's default
  CHECK(AdamWOptions().lr() == 1e-3);
  const std::pair<const char*, AdamWOptions> configs[] = {
      {"defaults", AdamWOptions(0.01)},
      {"strong decay", AdamWOptions(0.05).weight_decay(0.5)},
      {"amsgrad", AdamWOptions(0.02).amsgrad(true).betas(0.85, 0.95)},
      {"no decay and maximize", AdamWOptions(0.01).weight_decay(0).maximize(true)},
  };
  for (const auto& config : configs) {
    const AdamWOptions& options = config.second;
    INFO(std::string(config.first));
    check_against_reference<T, D>(
        [&](std::vector<kt::Var<T, D>> ps) { return kt::optim::AdamW<T, D>(std::move(ps), options); },
        reference(options, true), reference(options, true), 8);
  }
}

TEST_CASE_TEMPLATE("kt::optim::Adam state", D, KT_DEVICES) {
  auto p = kt::Var<double, D>(kt::full<double, D>({3}, 1.0), true);
  auto q = kt::Var<double, D>(kt::full<double, D>({2}, 1.0), true);
  kt::optim::Adam<double, D> opt({p, q}, kt::optim::AdamOptions(0.1).amsgrad(true));
  CHECK(opt.state(0).empty());
  p.set_grad(kt::full<double, D>({3}, 2.0));
  opt.step();
  opt.step();
  CHECK(opt.state(0).step == 2);
  CHECK(opt.state(1).empty());  // q had no gradient
  // Two steps of a constant gradient 2: m = 0.19·2 ... by the recurrences.
  const double m = 0.9 * (0.1 * 2) + 0.1 * 2, v = 0.999 * (0.001 * 4) + 0.001 * 4;
  CHECK(close(values_of(opt.state(0).at("exp_avg")), std::vector<double>(3, m), 1e-15));
  CHECK(close(values_of(opt.state(0).at("exp_avg_sq")), std::vector<double>(3, v), 1e-15));
  CHECK(close(values_of(opt.state(0).at("max_exp_avg_sq")), std::vector<double>(3, v), 1e-15));
  CHECK(opt.hyperparameters().at("amsgrad") == 1.0);
  CHECK(opt.hyperparameters().at("beta2") == 0.999);
  CHECK(std::string(opt.name()) == "kt::optim::Adam");
}

TEST_CASE("kt::optim::Adam and AdamW reject invalid options") {
  using kt_test::error_of;
  auto p = kt::Var<float, kt::Serial>(kt::zeros<float, kt::Serial>({3}), true);
  using kt::optim::AdamOptions;
  using kt::optim::AdamWOptions;
  const auto adam = [&](const AdamOptions& o) { kt::optim::Adam<float, kt::Serial> opt({p}, o); };
  const auto adamw = [&](const AdamWOptions& o) { kt::optim::AdamW<float, kt::Serial> opt({p}, o); };
  CHECK(error_of([&] { adam(AdamOptions(-1)); }) ==
        "kt::optim::Adam: invalid learning rate -1 (expected a finite value >= 0)");
  CHECK(error_of([&] { adam(AdamOptions().eps(-1e-8)); }) ==
        "kt::optim::Adam: invalid epsilon -1e-08 (expected a finite value >= 0)");
  CHECK(error_of([&] { adam(AdamOptions().betas(1.0, 0.999)); }) ==
        "kt::optim::Adam: invalid beta1 1 (expected 0 <= beta1 < 1)");
  CHECK(error_of([&] { adam(AdamOptions().beta2(-0.5)); }) ==
        "kt::optim::Adam: invalid beta2 -0.5 (expected 0 <= beta2 < 1)");
  CHECK(error_of([&] { adamw(AdamWOptions().weight_decay(-0.01)); }) ==
        "kt::optim::AdamW: invalid weight_decay -0.01 (expected a finite value >= 0)");
  CHECK(error_of([&] { kt::optim::AdamW<float, kt::Serial> opt({}); }) ==
        "kt::optim::AdamW: got an empty parameter list");
  kt::optim::AdamW<float, kt::Serial> opt({p});
  CHECK(error_of([&] { opt.set_hyperparameters({{"betas", 0.9}}); }) ==
        "kt::optim::AdamW::set_hyperparameters: unknown hyperparameter \"betas\" (expected lr, "
        "beta1, beta2, eps, weight_decay, amsgrad, maximize)");
  CHECK(error_of([&] { opt.set_lr(-2); }) ==
        "kt::optim::AdamW: invalid learning rate -2 (expected a finite value >= 0)");
}
