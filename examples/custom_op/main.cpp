// examples/custom_op: a differentiable op of your own — the `torch.autograd.Function` idea.
// Softplus, log(1 + e^x), with its forward and backward written as Kokkos kernels: kt
// records it in the graph like its own ops and calls the backward during loss.backward().
//
//     OMP_PROC_BIND=false ./build/examples/custom_op/custom_op
//
// The gradient is checked against central finite differences, then the op trains a model.

#include <kt/kt.hpp>
#include <kt/optim/sgd.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

// Kokkos 4 moved the math functions from Kokkos::Experimental to Kokkos.
#if KOKKOS_VERSION >= 40000
namespace kmath = Kokkos;
#else
namespace kmath = Kokkos::Experimental;
#endif

// The forward and backward are plain function templates: nvcc accepts a KOKKOS_LAMBDA in a
// function with a declared return type (not inside a lambda, nor in a function whose return
// type is deduced — see docs/architecture.md, "writing a kernel that compiles for Cuda").

/// forward: y = log(1 + e^x), computed stably; saves x for the backward pass.
template <class D>
kt::Tensor<double, D> softplus_forward(kt::Context<double, D>& ctx, const std::vector<kt::Tensor<double, D>>& in) {
  const kt::Tensor<double, D>& x = in[0];
  kt::Tensor<double, D> y(x.shape());
  const auto xv = x.view();  // capture Views, never the Tensor
  const auto yv = y.view();
  Kokkos::parallel_for("softplus::forward", Kokkos::RangePolicy<D>(0, x.numel()), KOKKOS_LAMBDA(std::int64_t i) {
    const double v = xv(i);
    yv(i) = (v > 0 ? v : 0.0) + kmath::log1p(kmath::exp(-(v > 0 ? v : -v)));
  });
  ctx.save_for_backward({x});
  return y;
}

/// backward: dy/dx = sigmoid(x), times the upstream gradient.
template <class D>
std::vector<kt::Tensor<double, D>> softplus_backward(const kt::Context<double, D>& ctx, const kt::Tensor<double, D>& grad) {
  const kt::Tensor<double, D>& x = ctx.saved()[0];
  kt::Tensor<double, D> dx(x.shape());
  const auto xv = x.view();
  const auto gv = grad.view();
  const auto dv = dx.view();
  Kokkos::parallel_for("softplus::backward", Kokkos::RangePolicy<D>(0, x.numel()), KOKKOS_LAMBDA(std::int64_t i) {
    dv(i) = gv(i) / (1.0 + kmath::exp(-xv(i)));
  });
  return {dx};
}

template <class D>
auto make_softplus() {
  return kt::make_function<double, D>("softplus", softplus_forward<D>, softplus_backward<D>);
}

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);
  using D = kt::DefaultDevice;
  auto softplus = make_softplus<D>();

  // 1. Gradient check: d/dx sum(w * softplus(x)) by autograd vs central differences.
  const auto x0 = kt::randn<double, D>({16}, /*seed=*/1, 0, 3);
  const auto w = kt::rand<double, D>({16}, /*seed=*/2);
  kt::Var<double, D> x(x0.clone(), /*requires_grad=*/true);
  kt::sum(softplus({x}) * kt::Var<double, D>(w)).backward();
  const auto analytic = x.grad().to_vector();
  auto loss_at = [&](std::vector<double> values) {
    kt::NoGradGuard no_grad;
    auto v = softplus({kt::Var<double, D>(kt::from_host<double, D>(values, {16}))});
    return kt::sum(v.data() * w).item();
  };
  double worst = 0;
  auto base = x0.to_vector();
  for (std::size_t i = 0; i < base.size(); ++i) {
    auto up = base, down = base;
    up[i] += 1e-6;
    down[i] -= 1e-6;
    const double numeric = (loss_at(up) - loss_at(down)) / 2e-6;
    worst = std::max(worst, std::abs(numeric - analytic[i]));
  }
  std::printf("softplus gradient: largest difference from finite differences %.2e\n", worst);

  // 2. Use it in a model: fit y = softplus(2x - 1) by a = 2, b = -1 from a = b = 0.
  kt::Var<double, D> a(kt::zeros<double, D>({1}), true), b(kt::zeros<double, D>({1}), true);
  const auto inputs = kt::linspace<double, D>(-3, 3, 64);
  const auto target = kt::linspace<double, D>(-7, 5, 64);  // 2x - 1
  kt::Var<double, D> t(softplus({kt::Var<double, D>(target)}).data());
  kt::optim::SGD<double, D> opt({a, b}, kt::optim::SGDOptions(0.5).momentum(0.9));
  double loss_value = 0;
  for (int step = 0; step < 300; ++step) {
    auto pred = softplus({kt::Var<double, D>(inputs) * a + b});
    auto loss = kt::mse_loss(pred, t);
    opt.zero_grad();
    loss.backward();
    opt.step();
    loss_value = loss.item();
  }
  std::printf("fitted a = %.4f (want 2), b = %.4f (want -1), loss %.2e\n", a.item(), b.item(), loss_value);
  const bool ok = worst < 1e-6 && std::abs(a.item() - 2) < 1e-2 && std::abs(b.item() + 1) < 1e-2;
  std::printf(ok ? "custom op gradient matches and trains\n" : "FAIL: custom op check failed\n");
  return ok ? 0 : 1;
}
