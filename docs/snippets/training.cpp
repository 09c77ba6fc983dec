// The kt side of every C++ block in docs/training.md, compiled and run by ctest ("docs: the
// snippets of training.md run", "docs: training.md shows the snippets of
// docs/snippets/training.cpp"). A region between two `// [name]` lines is what training.md
// shows under `<!-- snippet: name -->`, without the indentation of its marker line; edit here,
// then copy into training.md (the second test fails until the two agree).

#include <kt/io/checkpoint.hpp>
#include <kt/kt.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace {

// [step_graph]
template <class D>
void train(kt::nn::Sequential<float, D>& model, kt::optim::Adam<float, D>& opt,
           const kt::Tensor<float, D>& x, const kt::Tensor<std::int64_t, D>& y) {
  auto step = kt::make_step_graph<D>([&](const kt::Tensor<float, D>& xb, const kt::Tensor<std::int64_t, D>& yb) {
    opt.zero_grad();
    auto loss = kt::cross_entropy(model(kt::Var<float, D>(xb)), yb);
    loss.backward();
    opt.step();
    return loss.data();  // the graph's memory: rewritten by every replay
  });
  for (int i = 0; i < 100; ++i) {
    const auto loss = step(x, y);  // copies x, y into the graph's inputs, launches the graph
    if (i % 20 == 0) (void)loss.item();
  }
}
// [step_graph]

void overview() {
  auto loader = kt::make_data_loader<kt::DefaultDevice>(
      kt::TensorDataset(kt::randn<float, kt::Host>({256, 784}, 0), kt::randint<std::int64_t, kt::Host>(0, 10, {256}, 1)),
      kt::DataLoaderOptions().batch_size(64));
  // [overview]
  using D = kt::DefaultDevice;
  kt::nn::Sequential<float, D> model;
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(784, 256).activation(kt::Activation::ReLU).seed(1)));
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(256, 10).seed(2)));
  kt::optim::Adam<float, D> opt(model.parameters(), kt::optim::AdamOptions(1e-3));

  for (auto [x, y] : loader) {                         // kt::DataLoader, see docs/data.md
    auto loss = kt::cross_entropy(model(x), y);        // x: Tensor<float, D>, y: Tensor<int64_t, D>
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  std::cout << model;                                   // Sequential(\n  (0): Linear(in_features=784, ...
  // [overview]
  std::cout << "\n";
  KT_REQUIRE(model.parameter_count() == 784 * 256 + 256 + 256 * 10 + 10, "training: the model has ",
             model.parameter_count(), " parameters");
  KT_REQUIRE(opt.state(0).step == 4, "training: Adam took ", opt.state(0).step, " steps, not 4");
}

void custom_op() {
  // [custom_op]
  using D = kt::DefaultDevice;
  auto softplus = kt::make_function<double, D>("softplus",         // log(1 + exp(x))
      [](kt::Context<double, D>& ctx, const std::vector<kt::Tensor<double, D>>& in) {
        ctx.save_for_backward({in[0]});
        return kt::log(kt::exp(in[0]) + 1.0);                         // kt ops, or your own Kokkos kernel
      },
      [](const kt::Context<double, D>& ctx, const kt::Tensor<double, D>& grad) {
        if (!ctx.needs_input_grad(0)) return std::vector<kt::Tensor<double, D>>{kt::Tensor<double, D>()};
        return std::vector<kt::Tensor<double, D>>{grad * kt::sigmoid(ctx.saved()[0])};   // one per input
      });
  kt::Var<double, D> x(kt::randn<double, D>({4, 3}, 0), /*requires_grad=*/true);
  kt::Var<double, D> y = softplus({x});
  kt::sum(y).backward();                                              // x.grad() == sigmoid(x)
  // [custom_op]
  KT_REQUIRE(y.grad_fn_name() == "softplus", "training: softplus recorded as '", y.grad_fn_name(), "'");
  const double err = kt::max(kt::abs(x.grad() - kt::sigmoid(x.data()))).item();
  KT_REQUIRE(err < 1e-12, "training: softplus's gradient is off by ", err);
}

void checkpoint() {
  using D = kt::DefaultDevice;
  kt::nn::Sequential<float, D> model;
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(4, 8).seed(0)));
  model.push_back(kt::nn::Dropout<float, D>(kt::nn::DropoutOptions(0.1).seed(1)));
  kt::optim::Adam<float, D> opt(model.parameters(), kt::optim::AdamOptions(1e-3).amsgrad(true));
  kt::optim::StepLR sched(opt, /*step_size=*/10);
  auto loader = kt::make_data_loader<D>(kt::TensorDataset(kt::randn<float, kt::Host>({64, 4}, 0), kt::randn<float, kt::Host>({64, 8}, 1)),
                                        kt::DataLoaderOptions().batch_size(16).shuffle(true));
  const int epoch = 3;
  // [checkpoint]
  kt::io::Checkpoint().add("model", model).add("optimizer", opt).add("scheduler", sched)
      .add("loader", loader).add("rng", kt::default_generator())
      .set("epoch", std::to_string(epoch)).save("training_run.safetensors");   // atomic

  const auto saved = kt::io::load_checkpoint("training_run.safetensors");     // validated
  kt::io::Restore()                    // all or nothing
      .add("loader", loader)           // refuses another seed, batch size, dataset size
      .add("model", model)             // strict; its type and the Dropout layers' generators
      .add("optimizer", opt)           // state and hyperparameters; type checked
      .add("scheduler", sched)
      .add("rng", kt::default_generator())
      .from(saved);
  // [checkpoint]
  KT_REQUIRE(saved.get("epoch") == std::to_string(epoch), "training: the checkpoint's epoch is ", saved.get("epoch"));
  std::remove("training_run.safetensors");
}

void step_graph() {
  using D = kt::DefaultDevice;
  kt::nn::Sequential<float, D> model;
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(8, 16).activation(kt::Activation::ReLU).seed(1)));
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(16, 3).seed(2)));
  kt::optim::Adam<float, D> opt(model.parameters(), kt::optim::AdamOptions(1e-2));
  const auto x = kt::randn<float, D>({64, 8}, 0);
  const auto y = kt::randint<std::int64_t, D>(0, 3, {64}, 1);
  const float before = [&] {
    kt::NoGradGuard no_grad;
    return kt::cross_entropy(model(x), y).item();
  }();
  train(model, opt, x, y);
  kt::NoGradGuard no_grad;
  const float after = kt::cross_entropy(model(x), y).item();
  KT_REQUIRE(after < before, "training: 100 captured steps took the loss from ", before, " to ", after);
}

}  // namespace

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  try {
    overview();
    custom_op();
    step_graph();
    checkpoint();
  } catch (const kt::Error& e) {
    std::cerr << "error: " << e.message() << "\n";
    return 1;
  }
  std::cout << "every snippet of docs/training.md ran\n";
  return 0;
}
