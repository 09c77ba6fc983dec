// kt::optim::Optimizer: zero_grad, parameter checks, state access, state_dict round trips.

#include "optim/reference.hpp"

#include <kt/autograd/ops.hpp>
#include <kt/optim/adam.hpp>
#include <kt/optim/optimizer.hpp>
#include <kt/optim/sgd.hpp>

#include <memory>
#include <string>

using namespace kt_optim_test;

TEST_CASE_TEMPLATE("kt::optim::Optimizer::zero_grad", D, KT_DEVICES) {
  auto p = kt::Var<float, D>(kt::ones<float, D>({2, 3}), true);
  auto q = kt::Var<float, D>(kt::ones<float, D>({4}), true);
  kt::optim::SGD<float, D> opt({p, q}, kt::optim::SGDOptions(0.1));
  p.set_grad(kt::full<float, D>({2, 3}, 5.0f));
  opt.zero_grad(/*set_to_none=*/false);  // zero-filled; q's undefined grad stays undefined
  REQUIRE(p.grad().defined());
  CHECK(values_of(p.grad()) == std::vector<double>(6, 0.0));
  CHECK(!q.grad().defined());
  opt.zero_grad();  // PyTorch's default: set_to_none
  CHECK(!p.grad().defined());
  // Nothing has a gradient: step() refuses (it would silently do nothing) and names the likely
  // causes; the parameters are unchanged.
  const std::string error = kt_test::error_of([&] { opt.step(); });
  CHECK(error.find("kt::optim::SGD::step: none of the 2 parameters has a gradient since zero_grad()") == 0);
  CHECK(error.find("built before the model was moved") != std::string::npos);
  CHECK(values_of(p.data()) == std::vector<double>(6, 1.0));
  // The optimizer and the caller share the parameters.
  CHECK(opt.params().size() == 2);
  CHECK(opt.params()[0].is_same(p));
}

TEST_CASE_TEMPLATE("kt::optim::Optimizer state_dict round trip", D, KT_DEVICES) {
  // Three Adam steps, then the state moves to a second optimizer over copies of the parameters:
  // two more steps on each give bit-identical parameters.
  const auto make_param = [] { return kt::Var<double, D>(kt::arange<double, D>(0.0, 6.0).reshape({2, 3}), true); };
  auto p = make_param();
  kt::optim::Adam<double, D> a({p}, kt::optim::AdamOptions(0.05).amsgrad(true));
  const auto grad = [](int k) { return tensor_of<double, D>(fixed_values<double>(6, k, 0), {2, 3}); };
  for (int k = 0; k < 3; ++k) {
    p.set_grad(grad(k));
    a.step();
  }
  auto q = kt::Var<double, D>(p.data().clone(), true);
  kt::optim::Adam<double, D> b({q}, kt::optim::AdamOptions(1.0));  // hyperparameters come with the state
  const auto saved = a.state_dict();
  CHECK(saved.state.size() == 1);
  CHECK(saved.state[0].step == 3);
  CHECK(saved.hyperparameters.at("lr") == 0.05);
  b.load_state_dict(saved);
  CHECK(b.lr() == 0.05);
  CHECK(b.options().amsgrad());
  // The loaded tensors are copies.
  CHECK(b.state(0).at("exp_avg").data() != a.state(0).at("exp_avg").data());
  for (int k = 3; k < 5; ++k) {
    p.set_grad(grad(k));
    q.set_grad(grad(k));
    a.step();
    b.step();
  }
  CHECK(values_of(p.data()) == values_of(q.data()));
  CHECK(b.state(0).step == 5);
  // Through the base class (what schedulers and checkpoints hold).
  std::unique_ptr<kt::optim::OptimizerBase> base = std::make_unique<kt::optim::SGD<double, D>>(
      std::vector<kt::Var<double, D>>{p}, kt::optim::SGDOptions(0.3));
  base->set_lr(0.2);
  CHECK(base->lr() == 0.2);
  CHECK(std::string(base->name()) == "kt::optim::SGD");
}

TEST_CASE("kt::optim::Optimizer rejects bad state") {
  using kt_test::error_of;
  using D = kt::Serial;
  auto p = kt::Var<float, D>(kt::zeros<float, D>({2, 3}), true);
  kt::optim::SGD<float, D> sgd({p}, kt::optim::SGDOptions(0.1).momentum(0.9));
  kt::optim::ParamState<float, D> s;
  s.tensors["momentum_buffer"] = kt::zeros<float, D>({3, 2});
  CHECK(error_of([&] { sgd.set_state(0, s); }) ==
        "kt::optim::SGD: state tensor \"momentum_buffer\" of parameter 0 has shape (3, 2) but the "
        "parameter has shape (2, 3)");
  s.tensors.clear();
  s.tensors["exp_avg"] = kt::zeros<float, D>({2, 3});
  CHECK(error_of([&] { sgd.set_state(0, s); }) ==
        "kt::optim::SGD: parameter 0 has state tensor \"exp_avg\", which this optimizer does not "
        "use (expected: momentum_buffer)");
  CHECK(error_of([&] { sgd.set_state(1, s); }) ==
        "kt::optim::SGD::set_state: parameter index 1 is out of range (the optimizer has 1 parameters)");
  CHECK(error_of([&] { (void)sgd.state(3); }) ==
        "kt::optim::SGD::state: parameter index 3 is out of range (the optimizer has 1 parameters)");
  kt::optim::OptimizerStateDict<float, D> sd;
  CHECK(error_of([&] { sgd.load_state_dict(sd); }) ==
        "kt::optim::SGD::load_state_dict: the state has 0 entries but the optimizer has 1 parameters");
  CHECK(error_of([&] { sgd.set_hyperparameters({{"nesterov", 1}, {"dampening", 0.5}}); }) ==
        "kt::optim::SGD: Nesterov momentum requires a momentum > 0 and zero dampening, but "
        "momentum is 0.9 and dampening 0.5");
  CHECK(sgd.options().dampening() == 0);  // unchanged
  // Adam: a state that has taken steps needs all its moments.
  kt::optim::Adam<float, D> adam({p}, kt::optim::AdamOptions(0.1));
  kt::optim::ParamState<float, D> a;
  a.step = 4;
  a.tensors["exp_avg"] = kt::zeros<float, D>({2, 3});
  CHECK(error_of([&] { adam.set_state(0, a); }) ==
        "kt::optim::Adam: the state of parameter 0 (step 4) lacks the tensor \"exp_avg_sq\"");
  a.tensors["max_exp_avg_sq"] = kt::zeros<float, D>({2, 3});
  a.tensors["exp_avg_sq"] = kt::zeros<float, D>({2, 3});
  // max_exp_avg_sq is valid only with amsgrad; a state_dict that turns amsgrad on may carry it.
  CHECK(error_of([&] { adam.set_state(0, a); }).find("does not use") != std::string::npos);
  sd.state = {a};
  sd.hyperparameters = {{"amsgrad", 1}};
  adam.load_state_dict(sd);
  CHECK(adam.options().amsgrad());
  CHECK(adam.state(0).step == 4);
  // A failed load changes nothing, hyperparameters included.
  sd.hyperparameters = {{"amsgrad", 0}, {"lr", 0.5}};
  CHECK(!error_of([&] { adam.load_state_dict(sd); }).empty());
  CHECK(adam.options().amsgrad());
  CHECK(adam.lr() == 0.1);
  // Non-leaf parameters are rejected.
  auto y = p * 2.0f;
  CHECK(error_of([&] { kt::optim::SGD<float, D> bad({y}, kt::optim::SGDOptions(0.1)); }) ==
        "kt::optim::SGD: parameter 0 is not a leaf (made by " + y.grad_fn_name() +
            "); optimize leaves, or detach() it first");
}
