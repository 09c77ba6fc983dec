// kt::nn modules: names, counts, modes, printing, device copies, initialisation.

#include "autograd/gradcheck.hpp"
#include "kt_test.hpp"

#include <kt/nn/nn.hpp>

#include <sstream>

using kt_test::error_of;

namespace {
template <class D>
kt::nn::Sequential<double, D> small_mlp() {
  kt::nn::Sequential<double, D> model;
  model.push_back(kt::nn::Linear<double, D>(kt::nn::LinearOptions(4, 8).seed(1)));
  model.push_back(kt::nn::ReLU<double, D>());
  model.push_back(kt::nn::Dropout<double, D>(kt::nn::DropoutOptions(0.25).seed(2)));
  model.push_back(kt::nn::Linear<double, D>(kt::nn::LinearOptions(8, 3).bias(false).seed(3)));
  return model;
}
}  // namespace

TEST_CASE_TEMPLATE("Module: parameter names match PyTorch's state_dict keys", D, KT_DEVICES) {
  auto model = small_mlp<D>();
  std::vector<std::string> names;
  for (auto& [name, p] : model.named_parameters()) {
    names.push_back(name);
    CHECK(p.requires_grad());
    CHECK(p.is_leaf());
  }
  CHECK(names == std::vector<std::string>{"0.weight", "0.bias", "3.weight"});
  CHECK(model.parameter_count() == 4 * 8 + 8 + 8 * 3);
  CHECK(model.parameters().size() == 3);
  CHECK(model[0]->parameters().size() == 2);
  CHECK(model.state_dict().size() == 3);
  CHECK(model.named_children().size() == 4);
}

TEST_CASE_TEMPLATE("Module: prints like PyTorch's repr", D, KT_DEVICES) {
  auto model = small_mlp<D>();
  model.push_back(kt::nn::LayerNorm<double, D>(kt::nn::LayerNormOptions({3})));
  std::ostringstream os;
  os << model;
  CHECK(os.str() ==
        "Sequential(\n"
        "  (0): Linear(in_features=4, out_features=8, bias=True)\n"
        "  (1): ReLU()\n"
        "  (2): Dropout(p=0.25, inplace=False)\n"
        "  (3): Linear(in_features=8, out_features=3, bias=False)\n"
        "  (4): LayerNorm((3,), eps=1e-05, elementwise_affine=True)\n"
        ")");
  kt::nn::Linear<float, D> fused(kt::nn::LinearOptions(2, 2).activation(kt::Activation::GELU));
  std::ostringstream fs;
  fs << fused;
  CHECK(fs.str() == "Linear(in_features=2, out_features=2, bias=True, activation=gelu)");
}

TEST_CASE_TEMPLATE("Module: train and eval reach every child; eval turns dropout off", D, KT_DEVICES) {
  auto model = small_mlp<D>();
  CHECK(model.is_training());
  model.eval();
  CHECK_FALSE(model.is_training());
  CHECK_FALSE(model[2]->is_training());
  const auto x = kt::rand<double, D>({5, 4}, 9);
  auto a = model(x), b = model(x);
  CHECK(a.data().to_vector() == b.data().to_vector());  // deterministic without dropout
  model.train();
  CHECK(model[2]->is_training());
  auto c = model(x), d = model(x);
  CHECK(c.data().to_vector() != d.data().to_vector());  // the dropout generator advanced
}

TEST_CASE_TEMPLATE("Module: zero_grad clears every parameter's gradient", D, KT_DEVICES) {
  auto model = small_mlp<D>();
  kt::sum(model(kt::rand<double, D>({5, 4}, 9))).backward();
  for (auto& p : model.parameters()) CHECK(p.grad().defined());
  model.zero_grad(/*set_to_none=*/false);
  for (auto& p : model.parameters()) CHECK(kt::sum(kt::abs(p.grad())).item() == 0.0);
  model.zero_grad();
  for (auto& p : model.parameters()) CHECK_FALSE(p.grad().defined());
}

TEST_CASE_TEMPLATE("Module: to<Device>() copies parameters to an independent module", D, KT_DEVICES) {
  using Other = kt_test::module_move_target<D>;  // D itself where D's modules have nowhere else to go
  auto model = small_mlp<D>();
  model.eval();
  auto copy = model.template to<Other>();
  static_assert(std::is_same_v<decltype(copy), kt::nn::Sequential<double, Other>>);
  CHECK_FALSE(copy.is_training());
  auto src = model.named_parameters();
  auto dst = copy.named_parameters();
  REQUIRE(src.size() == dst.size());
  for (std::size_t i = 0; i < src.size(); ++i) {
    CHECK(src[i].first == dst[i].first);
    CHECK(src[i].second.data().to_vector() == dst[i].second.data().to_vector());
    CHECK(static_cast<const void*>(src[i].second.data().data()) != static_cast<const void*>(dst[i].second.data().data()));
  }
  const auto x = kt::rand<double, D>({3, 4}, 4);
  CHECK(kt_test::same_across_devices<Other, D>(copy(x.template to<Other>()).data().to_vector(),
                                               model(x).data().to_vector()));
  // Through the type-erased base as well (what Sequential does with its children).
  std::shared_ptr<kt::nn::Module<double, D>> base = model[0];
  std::shared_ptr<kt::nn::Module<double, Other>> linear_copy = base->template clone_to<Other>();
  CHECK(linear_copy->name() == "Linear");
  CHECK(linear_copy->parameter_count() == 40);
  // A copied module's parameters are its own: changing them leaves the original alone.
  copy.parameters()[0].data().fill_(0.0);
  CHECK(model.parameters()[0].data().to_vector() != copy.parameters()[0].data().to_vector());
}

TEST_CASE_TEMPLATE("Module: to<D>() on the module's own device is an independent copy", D, KT_DEVICES) {
  // Generic code writes layer.to<kt::DefaultDevice>() whether that is the host or a GPU.
  auto model = small_mlp<D>();
  auto same = model.template to<D>();
  static_assert(std::is_same_v<decltype(same), kt::nn::Sequential<double, D>>);
  kt::nn::Linear<double, D> layer(kt::nn::LinearOptions(4, 2).seed(3));
  auto layer_copy = layer.template to<D>();
  static_assert(std::is_same_v<decltype(layer_copy), kt::nn::Linear<double, D>>);
  const auto x = kt::rand<double, D>({3, 4}, 4);
  CHECK(same(x).data().to_vector() == model(x).data().to_vector());
  CHECK(layer_copy(x).data().to_vector() == layer(x).data().to_vector());
  same.parameters()[0].data().fill_(0.0);
  layer_copy.parameters()[0].data().fill_(0.0);
  CHECK(same(x).data().to_vector() != model(x).data().to_vector());
  CHECK(layer_copy(x).data().to_vector() != layer(x).data().to_vector());
}

TEST_CASE_TEMPLATE("Linear: PyTorch's default initialisation", D, KT_DEVICES) {
  kt::nn::Linear<double, D> fc(kt::nn::LinearOptions(400, 300).seed(5));
  const double bound = 1.0 / std::sqrt(400.0);
  for (const auto* p : {&fc.weight, &fc.bias}) {
    const auto v = p->data().to_vector();
    double mean = 0, sq = 0, lo = 1, hi = -1;
    for (double e : v) {
      mean += e;
      sq += e * e;
      lo = std::min(lo, e);
      hi = std::max(hi, e);
    }
    mean /= static_cast<double>(v.size());
    const double var = sq / static_cast<double>(v.size()) - mean * mean;
    CHECK(lo >= -bound);
    CHECK(hi < bound);
    // U(-b, b): variance b²/3; the tolerances are several standard errors wide.
    const double tol = v.size() > 1000 ? 0.02 : 0.2;
    CHECK(var == doctest::Approx(bound * bound / 3).epsilon(tol));
    CHECK(std::abs(mean) < 4 * bound / std::sqrt(3.0 * static_cast<double>(v.size())));
  }
  kt::nn::Linear<double, D> same(kt::nn::LinearOptions(400, 300).seed(5)), other(kt::nn::LinearOptions(400, 300).seed(6));
  CHECK(same.weight.data().to_vector() == fc.weight.data().to_vector());
  CHECK(other.weight.data().to_vector() != fc.weight.data().to_vector());
  kt::manual_seed(11);
  kt::nn::Linear<double, D> a(3, 2);
  kt::manual_seed(11);
  kt::nn::Linear<double, D> b(3, 2);
  CHECK(a.weight.data().to_vector() == b.weight.data().to_vector());
}

TEST_CASE_TEMPLATE("Linear: accepts (*, in) inputs and rejects wrong widths", D, KT_DEVICES) {
  kt::nn::Linear<double, D> fc(kt::nn::LinearOptions(4, 2).seed(1));
  CHECK(fc(kt::rand<double, D>({3, 5, 4}, 1)).shape() == kt::Shape{3, 5, 2});
  CHECK(error_of([&] { (void)fc(kt::rand<double, D>({3, 5}, 1)); }) ==
        "kt::nn::Linear::forward: expected input of shape (*, 4), got (3, 5)");
  CHECK(error_of([] { kt::nn::Linear<double, D> bad(0, 3); }).find("must be positive") != std::string::npos);
  CHECK(error_of([] { kt::nn::Dropout<double, D> bad(1.5); }).find("between 0 and 1") != std::string::npos);
}

TEST_CASE_TEMPLATE("gradcheck: layers", D, KT_DEVICES) {
  using Vars = std::vector<kt::Var<double, D>>;
  const auto x = kt::rand<double, D>({3, 4}, 30, -1, 1);
  kt::nn::Linear<double, D> fc(kt::nn::LinearOptions(4, 3).activation(kt::Activation::Tanh).seed(1));
  CHECK(kt_test::gradcheck<D>([&](const Vars& v) { return fc(v[0]); }, {x}));
  kt::nn::LayerNorm<double, D> norm(kt::nn::LayerNormOptions({4}));
  CHECK(kt_test::gradcheck<D>([&](const Vars& v) { return norm(v[0]); }, {x}));
  kt::nn::Softmax<double, D> softmax(1);
  kt::nn::LogSoftmax<double, D> log_softmax(0);
  kt::nn::GELU<double, D> gelu;
  kt::nn::Sigmoid<double, D> sigmoid;
  kt::nn::Flatten<double, D> flatten;
  CHECK(kt_test::gradcheck<D>([&](const Vars& v) { return softmax(v[0]) + log_softmax(v[0]); }, {x}));
  CHECK(kt_test::gradcheck<D>([&](const Vars& v) { return gelu(v[0]) * sigmoid(v[0]); }, {x}));
  CHECK(kt_test::gradcheck<D>([&](const Vars& v) { return flatten(kt::reshape(v[0], {3, 2, 2})); }, {x}));
  // The parameters' gradients too: the layer's weight and bias as gradcheck inputs.
  CHECK(kt_test::gradcheck<D>([&](const Vars& v) { return kt::linear(v[0], v[1], v[2], kt::Activation::ReLU); },
                              {x, fc.weight.data(), fc.bias.data()}));
}

TEST_CASE_TEMPLATE("Dropout without a seed takes one from the default generator", D, KT_DEVICES) {
  const kt::Generator saved = kt::default_generator();
  kt::manual_seed(11);
  kt::nn::Dropout<float, D> a(0.5), b(0.5);
  const auto x = kt::ones<float, D>({256});
  const auto mask_a = a(x).data().to_vector();
  CHECK(mask_a != b(x).data().to_vector());  // two layers, two streams (not one seed for all)
  kt::manual_seed(11);
  kt::nn::Dropout<float, D> again(0.5);
  CHECK(again.options().seed() == a.options().seed());
  CHECK(again(x).data().to_vector() == mask_a);  // manual_seed fixes them
  CHECK(a.clone().options().seed() == a.options().seed());  // a copy keeps the drawn seed
  kt::default_generator() = saved;
}

TEST_CASE_TEMPLATE("activation layers are named from kt::Activation's table and carry their enumerator", D, KT_DEVICES) {
  CHECK(kt::nn::ReLU<float, D>().name() == "ReLU");
  CHECK(kt::nn::GELU<float, D>().name() == "GELU");
  CHECK(kt::nn::Tanh<float, D>().name() == "Tanh");
  CHECK(kt::nn::Sigmoid<float, D>().name() == "Sigmoid");
  static_assert(kt::nn::GELU<float, D>::activation == kt::Activation::GELU);
  static_assert(kt::nn::Sigmoid<double, D>::activation == kt::Activation::Sigmoid);
  CHECK(std::string(kt::to_string(kt::Activation::Identity)) == "identity");
  CHECK(std::string(kt::to_string(kt::Activation::Tanh)) == "tanh");
  CHECK(std::string(kt::to_string(static_cast<kt::Activation>(9))) == "unknown");
  // A value outside the enum is refused, not applied as the identity.
  const kt::Var<float, D> x(kt::randn<float, D>({2, 3}, 5));
  CHECK_THROWS_WITH_AS(kt::activation(x, static_cast<kt::Activation>(9)),
                       doctest::Contains("unknown kt::Activation value 9"), kt::Error);
  // The functional and module layer norm share one options class.
  static_assert(std::is_same_v<kt::nn::LayerNormOptions, kt::LayerNormOptions>);
}
