// A module of one's own, written the PyTorch way: derive from kt::nn::Module, register
// children in the constructor, define forward. It trains, prints, moves between devices, and
// an optimizer built for the old copy says so instead of training nothing.

#include "kt_test.hpp"

#include <kt/nn/nn.hpp>
#include <kt/optim/adam.hpp>
#include <kt/optim/sgd.hpp>

#include <memory>
#include <sstream>
#include <type_traits>

namespace {

/// y = x + fc2(relu(fc1(x))): two Linear layers and a residual add.
template <class D>
struct Residual : kt::nn::Module<double, D> {
  std::shared_ptr<kt::nn::Linear<double, D>> fc1, fc2;
  Residual(std::int64_t n, std::int64_t hidden) {
    fc1 = this->register_module("fc1", kt::nn::Linear<double, D>(kt::nn::LinearOptions(n, hidden).seed(1)));
    fc2 = this->register_module("fc2", kt::nn::Linear<double, D>(kt::nn::LinearOptions(hidden, n).seed(2)));
  }
  kt::Var<double, D> forward(const kt::Var<double, D>& x) override { return x + (*fc2)(kt::relu((*fc1)(x))); }
};

/// Two Linears, a parameter and a buffer, and nothing but a constructor and forward: what
/// kt::nn::make_module lets move to another device, alone or inside a Sequential.
template <class D>
struct Gated : kt::nn::Module<double, D> {
  std::shared_ptr<kt::nn::Linear<double, D>> fc1, fc2;
  kt::Var<double, D> gate;
  kt::Tensor<double, D> calls;
  Gated(std::int64_t n, std::int64_t hidden) {
    fc1 = this->register_module("fc1", kt::nn::Linear<double, D>(kt::nn::LinearOptions(n, hidden).seed(1)));
    fc2 = this->register_module("fc2", kt::nn::Linear<double, D>(kt::nn::LinearOptions(hidden, n).seed(2)));
    gate = this->register_parameter("gate", kt::full<double, D>({n}, 0.5));
    calls = this->register_buffer("calls", kt::zeros<double, D>({1}));
  }
  kt::Var<double, D> forward(const kt::Var<double, D>& x) override {
    calls += 1.0;
    return x * gate + (*fc2)(kt::tanh((*fc1)(x)));
  }
};

/// A constructor that takes device-typed data cannot be called on another device.
template <class D>
struct FromTensor : kt::nn::Module<double, D> {
  kt::Var<double, D> w;
  explicit FromTensor(const kt::Tensor<double, D>& init) { w = this->register_parameter("w", init.clone()); }
  kt::Var<double, D> forward(const kt::Var<double, D>& x) override { return x * w; }
};

/// A child, then a parameter and a buffer of its own: PyTorch lists its own parameter first.
template <class D>
struct Scaled : kt::nn::Module<double, D> {
  std::shared_ptr<kt::nn::Linear<double, D>> fc;
  kt::Var<double, D> scale;
  kt::Tensor<double, D> calls;
  Scaled() {
    fc = this->register_module("fc", kt::nn::Linear<double, D>(kt::nn::LinearOptions(2, 3).seed(1)));
    scale = this->register_parameter("scale", kt::full<double, D>({1}, 2.0));
    calls = this->register_buffer("calls", kt::zeros<double, D>({1}));
  }
  kt::Var<double, D> forward(const kt::Var<double, D>& x) override { return (*fc)(x) * scale; }
};

// Another device than D for a move with the module's constructor arguments, which reaches every
// device, when there is one: kt::DefaultDevice, or kt::Host from the default device (a host
// build's OpenMP modules have none: both are OpenMP). Moving to D itself does not compile for
// Residual. Moves without the arguments go to kt_test::module_move_target<D>.
template <class D>
using OtherDevice = std::conditional_t<std::is_same_v<D, kt::DefaultDevice>, kt::Host, kt::DefaultDevice>;

}  // namespace

TEST_CASE_TEMPLATE("a custom module: registered children, PyTorch names and printout, training", D, KT_DEVICES) {
  Residual<D> net(4, 6);
  std::vector<std::string> names;
  for (auto& [name, p] : net.named_parameters()) names.push_back(name);
  CHECK(names == std::vector<std::string>{"fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"});
  CHECK(net.parameter_count() == 4 * 6 + 6 + 6 * 4 + 4);
  std::ostringstream os;
  os << net;
  CHECK(os.str() ==
        "Residual(\n"
        "  (fc1): Linear(in_features=4, out_features=6, bias=True)\n"
        "  (fc2): Linear(in_features=6, out_features=4, bias=True)\n"
        ")");
  // Fit y = 2x: the loss falls by orders of magnitude.
  const auto x = kt::randn<double, D>({32, 4}, 5);
  const auto y = x * 2.0;
  kt::optim::Adam<double, D> opt(net.parameters(), kt::optim::AdamOptions(0.02));
  double first = 0, last = 0;
  for (int step = 0; step < 300; ++step) {
    auto loss = kt::mse_loss(net(x), y);  // a Tensor input and a Tensor target
    if (step == 0) first = loss.item();
    last = loss.item();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  CHECK(last < first / 50);
}

TEST_CASE_TEMPLATE("a module's own parameters come before its children's, buffers after parameters", D, KT_DEVICES) {
  Scaled<D> net;
  std::vector<std::string> names;
  for (auto& [name, p] : net.named_parameters()) names.push_back(name);
  CHECK(names == std::vector<std::string>{"scale", "fc.weight", "fc.bias"});  // torch's order
  names.clear();
  for (auto& [name, t] : net.state_dict()) names.push_back(name);
  CHECK(names == std::vector<std::string>{"scale", "fc.weight", "fc.bias", "calls"});
  CHECK(net.scale.requires_grad());
  CHECK(net.named_buffers().size() == 1);
}

TEST_CASE_TEMPLATE("a custom module moves to another device with kt::nn::to and gives the same outputs", D, KT_DEVICES) {
  using Other = OtherDevice<D>;
  Residual<D> net(4, 6);
  net.eval();
  const auto x = kt::randn<double, D>({3, 4}, 7);
  if constexpr (!std::is_same_v<Other, D>) {
    auto moved = kt::nn::to<Other>(net, 4, 6);
    static_assert(std::is_same_v<decltype(moved), Residual<Other>>);
    CHECK_FALSE(moved.is_training());
    CHECK(kt_test::same_across_devices<Other, D>(moved(x.template to<Other>()).data().to_vector(),
                                                 net(x).data().to_vector()));
    // Independent parameters.
    moved.parameters()[0].data().fill_(0.0);
    CHECK(moved(x.template to<Other>()).data().to_vector() != net(x).data().to_vector());
  }
  // Built-in layers need no arguments, and kt::nn::to copies when D2 is already their device
  // (generic code: kt::nn::to<kt::DefaultDevice>(layer) whether that is the host or a GPU).
  kt::nn::Linear<double, D> layer(kt::nn::LinearOptions(4, 2).seed(3));
  auto same = kt::nn::to<D>(layer);
  static_assert(std::is_same_v<decltype(same), kt::nn::Linear<double, D>>);
  CHECK(same(x).data().to_vector() == layer(x).data().to_vector());
  same.parameters()[0].data().fill_(0.0);
  CHECK(same(x).data().to_vector() != layer(x).data().to_vector());
  auto across = kt::nn::to<Other>(layer);
  CHECK(kt_test::same_across_devices<Other, D>(across(x.template to<Other>()).data().to_vector(),
                                               layer(x).data().to_vector()));
}

TEST_CASE_TEMPLATE("a module of one's own made by make_module moves alone and inside a Sequential, state and all", D, KT_DEVICES) {
  using Other = kt_test::module_move_target<D>;
  auto net = kt::nn::make_module<Gated<D>>(4, 6);
  static_assert(std::is_same_v<decltype(net), std::shared_ptr<Gated<D>>>);
  const auto x = kt::randn<double, D>({3, 4}, 7);
  // State that differs from a fresh construction: a trained-looking gate, a counted buffer, eval mode.
  kt::copy(net->gate.data(), kt::from_host<double, D>(std::vector<double>{0.1, -0.2, 0.3, 2.0}, {4}));
  (void)(*net)(x);
  (void)(*net)(x);
  net->fc1->weight.requires_grad_(false);
  net->eval();
  const auto expected = (*net)(x).data().to_vector();  // the third call
  auto check_copy = [&](const auto& copy) {
    using D2 = typename std::decay_t<decltype(*copy)>::device_type;
    CHECK(copy->gate.data().to_vector() == net->gate.data().to_vector());
    CHECK(copy->calls.to_vector() == std::vector<double>{3.0});
    CHECK_FALSE(copy->is_training());
    CHECK_FALSE(copy->fc1->weight.requires_grad());
    CHECK(copy->fc2->weight.requires_grad());
    CHECK(kt_test::same_across_devices<D2, D>(copy->forward(kt::Var<double, D2>(x.template to<D2>())).data().to_vector(),
                                              expected));
    copy->gate.data().fill_(0.0);  // independent parameters
    CHECK(net->gate.data().to_vector() != copy->gate.data().to_vector());
  };
  check_copy(kt::nn::to<Other>(net));  // shared_ptr<Gated<Other>>
  check_copy(kt::nn::to<D>(net));      // its own device: a copy
  auto value = kt::nn::to<Other>(*net);  // by value, and back again: the copy can move too
  static_assert(std::is_same_v<decltype(value), Gated<Other>>);
  if constexpr (std::is_same_v<D, kt::Host> || std::is_same_v<D, kt::DefaultDevice>) {  // D is one Other's modules move to
    auto back = kt::nn::to<D>(value);
    static_assert(std::is_same_v<decltype(back), Gated<D>>);
    CHECK(back.gate.data().to_vector() == net->gate.data().to_vector());
  }

  // Inside a Sequential: the whole stack moves, each child rebuilt as its own class.
  kt::nn::Sequential<double, D> seq;
  seq.push_back(net);
  seq.push_back(kt::nn::Tanh<double, D>());
  auto moved = seq.template to<Other>();
  CHECK(moved.size() == 2);
  CHECK(dynamic_cast<Gated<Other>*>(moved[0].get()) != nullptr);
  CHECK(kt_test::same_across_devices<Other, D>(moved(x.template to<Other>()).data().to_vector(),
                                               seq(x).data().to_vector()));
  CHECK(seq.clone()(x).data().to_vector() == seq(x).data().to_vector());
}

TEST_CASE_TEMPLATE("a module that cannot be rebuilt says what to do", D, KT_DEVICES) {
  // Constructed directly: C++ cannot recover its constructor arguments.
  kt::nn::Sequential<double, D> plain;
  plain.push_back(Residual<D>(4, 6));
  const std::string error = kt_test::error_of([&] { (void)plain.clone(); });
  CHECK(error.find("Residual cannot rebuild itself on device") != std::string::npos);
  CHECK(error.find("kt::nn::make_module") != std::string::npos);
  Residual<D> direct(4, 6);
  CHECK(kt_test::error_of([&] { (void)kt::nn::to<D>(direct); }).find("kt::nn::make_module") != std::string::npos);
  // Made from device-typed data: its constructor cannot take that on another device.
  auto from_tensor = kt::nn::make_module<FromTensor<D>>(kt::ones<double, D>({2}));
  CHECK(kt::nn::to<D>(from_tensor)->w.data().to_vector() == std::vector<double>{1.0, 1.0});
  if constexpr (!std::is_same_v<kt_test::module_move_target<D>, D>) {
    CHECK(kt_test::error_of([&] { (void)kt::nn::to<kt_test::module_move_target<D>>(from_tensor); })
              .find("does not take the arguments it was made with") != std::string::npos);
  }
}

TEST_CASE_TEMPLATE("an optimizer built before the model was moved refuses to step, naming the cause", D, KT_DEVICES) {
  Residual<D> net(4, 6);
  kt::optim::SGD<double, D> stale(net.parameters(), 0.1);  // built for the original
  auto moved = [&] {
    if constexpr (std::is_same_v<OtherDevice<D>, D>) return kt::nn::to<D>(net, 4, 6);  // a copy
    else return kt::nn::to<OtherDevice<D>>(net, 4, 6);
  }();
  using M = std::decay_t<decltype(moved)>;
  using D2 = typename M::device_type;
  auto loss = kt::sum(moved(kt::ones<double, D2>({2, 4})));
  loss.backward();  // gradients land on the moved copy's parameters
  const std::string error = kt_test::error_of([&] { stale.step(); });
  CHECK(error.find("none of the 4 parameters has a gradient") != std::string::npos);
  CHECK(error.find("built before the model was moved") != std::string::npos);
  // The right way: an optimizer over the moved model's parameters.
  kt::optim::SGD<double, D2> opt(moved.parameters(), 0.1);
  const auto before = moved.parameters()[0].data().to_vector();
  opt.step();
  CHECK(moved.parameters()[0].data().to_vector() != before);
}
