// kt::optim::SGD against an independent double-precision host loop of PyTorch's algorithm.

#include "optim/reference.hpp"

#include <kt/optim/sgd.hpp>

#include <string>

using namespace kt_optim_test;

namespace {

struct SGDConfig {
  const char* what;
  kt::optim::SGDOptions options;
};

SGDRef reference(const kt::optim::SGDOptions& o) {
  SGDRef r;
  r.lr = o.lr();
  r.momentum = o.momentum();
  r.dampening = o.dampening();
  r.weight_decay = o.weight_decay();
  r.nesterov = o.nesterov();
  r.maximize = o.maximize();
  return r;
}

}  // namespace

TEST_CASE_TEMPLATE("kt::optim::SGD matches the host reference", Case, KT_ALL_FLOAT_CASES) {
  using T = typename Case::dtype;
  using D = typename Case::device;
  using kt::optim::SGDOptions;
  const SGDConfig configs[] = {
      {"plain", SGDOptions(0.1)},
      {"momentum", SGDOptions(0.1).momentum(0.9)},
      {"momentum and dampening", SGDOptions(0.05).momentum(0.9).dampening(0.3)},
      {"nesterov", SGDOptions(0.1).momentum(0.9).nesterov(true)},
      {"weight decay", SGDOptions(0.1).weight_decay(0.05)},
      {"nesterov and weight decay", SGDOptions(0.1).momentum(0.8).nesterov(true).weight_decay(0.01)},
      {"everything and maximize",
       SGDOptions(0.02).momentum(0.7).dampening(0.1).weight_decay(0.03).maximize(true)},
  };
  for (const auto& config : configs) {
    INFO(std::string(config.what));
    check_against_reference<T, D>(
        [&](std::vector<kt::Var<T, D>> ps) { return kt::optim::SGD<T, D>(std::move(ps), config.options); },
        reference(config.options), reference(config.options), 6);
  }
}

TEST_CASE_TEMPLATE("kt::optim::SGD momentum buffer state", D, KT_DEVICES) {
  auto p = kt::Var<double, D>(kt::full<double, D>({2, 2}, 1.0), true);
  kt::optim::SGD<double, D> opt({p}, kt::optim::SGDOptions(0.5).momentum(0.9).weight_decay(0.1));
  CHECK(opt.state(0).empty());
  p.set_grad(kt::full<double, D>({2, 2}, 2.0));
  opt.step();
  // The first buffer is the decayed gradient itself: 2 + 0.1 * 1.
  const auto& s = opt.state(0);
  REQUIRE(s.has("momentum_buffer"));
  CHECK(s.step == 0);  // SGD keeps no step count, like PyTorch
  CHECK(values_of(s.at("momentum_buffer")) == std::vector<double>(4, 2.1));
  CHECK(values_of(p.data()) == std::vector<double>(4, 1.0 - 0.5 * 2.1));
  CHECK(kt_test::error_of([&] { (void)s.at("exp_avg"); }) ==
        "kt::optim::ParamState::at: no state tensor \"exp_avg\" (present: momentum_buffer)");
  // Without momentum there is no state at all.
  kt::optim::SGD<double, D> plain({p}, kt::optim::SGDOptions(0.5));
  plain.step();
  CHECK(plain.state(0).empty());
}

TEST_CASE("kt::optim::SGD rejects invalid options") {
  using kt::optim::SGD;
  using kt::optim::SGDOptions;
  using kt_test::error_of;
  auto p = kt::Var<float, kt::Serial>(kt::zeros<float, kt::Serial>({3}), true);
  const auto make = [&](const SGDOptions& o) { SGD<float, kt::Serial> opt({p}, o); };
  CHECK(error_of([&] { make(SGDOptions(-0.1)); }) ==
        "kt::optim::SGD: invalid learning rate -0.1 (expected a finite value >= 0)");
  CHECK(error_of([&] { make(SGDOptions(0.1).momentum(-1)); }) ==
        "kt::optim::SGD: invalid momentum -1 (expected a finite value >= 0)");
  CHECK(error_of([&] { make(SGDOptions(0.1).weight_decay(-0.5)); }) ==
        "kt::optim::SGD: invalid weight_decay -0.5 (expected a finite value >= 0)");
  CHECK(error_of([&] { make(SGDOptions(0.1).nesterov(true)); }) ==
        "kt::optim::SGD: Nesterov momentum requires a momentum > 0 and zero dampening, but "
        "momentum is 0 and dampening 0");
  CHECK(error_of([&] { make(SGDOptions(0.1).momentum(0.9).dampening(0.1).nesterov(true)); }) ==
        "kt::optim::SGD: Nesterov momentum requires a momentum > 0 and zero dampening, but "
        "momentum is 0.9 and dampening 0.1");
  CHECK(error_of([&] { SGD<float, kt::Serial> opt({}, SGDOptions(0.1)); }) ==
        "kt::optim::SGD: got an empty parameter list");
  CHECK(error_of([&] { SGD<float, kt::Serial> opt({p, p}, SGDOptions(0.1)); }) ==
        "kt::optim::SGD: parameter 1 is the same Var as parameter 0; pass each parameter once");
  CHECK(error_of([&] { SGD<float, kt::Serial> opt({kt::Var<float, kt::Serial>()}, SGDOptions(0.1)); }) ==
        "kt::optim::SGD: parameter 0 is undefined");
  SGD<float, kt::Serial> opt({p}, SGDOptions(0.1));
  CHECK(error_of([&] { opt.set_lr(std::nan("")); }) ==
        "kt::optim::SGD: invalid learning rate nan (expected a finite value >= 0)");
  CHECK(opt.lr() == 0.1);  // unchanged after the failed set_lr
  opt.set_lr(0.25);
  CHECK(opt.lr() == 0.25);
  CHECK(opt.options().lr() == 0.25);
}
