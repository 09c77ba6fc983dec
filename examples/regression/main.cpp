// examples/regression: fit y = sin(3x) + x/2 + noise on [-2, 2] with a small MLP — the
// smallest complete training loop: a model, a loss, backward(), an optimizer, a schedule.
//
//     OMP_PROC_BIND=false ./build/examples/regression/regression
//
// Prints the loss curve, then whether the loss dropped at least 100-fold.

#include <kt/kt.hpp>
#include <kt/optim/adam.hpp>
#include <kt/optim/cosine_annealing_lr.hpp>

#include <cstdio>
#include <iostream>

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  using D = kt::DefaultDevice;
  const std::int64_t n = 512;
  const int steps = 1000;

  // Data: x uniform in [-2, 2], y = sin(3x) + x/2 + N(0, 0.02²). Noise variance 4e-4 is the
  // floor the loss can reach.
  const auto x = kt::rand<float, D>({n, 1}, /*seed=*/1, -2, 2);
  const auto y = kt::sin(x * 3.0f) + x * 0.5f + kt::randn<float, D>({n, 1}, /*seed=*/2, 0, 0.02);

  kt::nn::Sequential<float, D> model;
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(1, 64).activation(kt::Activation::Tanh).seed(3)));
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(64, 64).activation(kt::Activation::Tanh).seed(4)));
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(64, 1).seed(5)));
  std::cout << model << "\n" << model.parameter_count() << " parameters on " << kt::device_name<D>() << "\n\n";

  kt::optim::Adam<float, D> opt(model.parameters(), kt::optim::AdamOptions(1e-2));
  kt::optim::CosineAnnealingLR schedule(opt, steps, /*eta_min=*/1e-4);

  double first = 0, last = 0;
  for (int step = 0; step <= steps; ++step) {
    auto loss = kt::mse_loss(model(x), kt::Var<float, D>(y));
    opt.zero_grad();
    loss.backward();
    opt.step();
    schedule.step();
    if (step % 100 == 0) {
      last = loss.item();
      if (step == 0) first = last;
      std::printf("step %5d  loss %.6f  lr %.5f\n", step, last, opt.lr());
    }
  }
  const double factor = first / last;
  std::printf("\nloss %.6f -> %.6f: %.0fx lower\n", first, last, factor);
  if (factor >= 100) {
    std::printf("PASS: the loss dropped by a factor of %.0f (>= 100)\n", factor);
    return 0;
  }
  std::printf("FAIL: the loss dropped by a factor of only %.1f (< 100)\n", factor);
  return 1;
}
