// kt::amp::GradScaler: PyTorch's state machine step by step against a hand-computed sequence
// (growth after exactly growth_interval clean steps, backoff and a skipped step on an injected
// Inf/NaN), unscale_ dividing the gradients exactly, the scaled loss in fp32 under autocast,
// the misuse errors, the disabled pass-through and the state_dict round trip.

#include "kt_test.hpp"

#include <kt/amp/autocast.hpp>
#include <kt/amp/grad_scaler.hpp>
#include <kt/functional/linear.hpp>
#include <kt/optim/sgd.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace {

template <class D>
struct Problem {
  kt::Var<float, D> w{kt::from_host<float, D>({1.0f, 2.0f, 3.0f}, {3}), true};
  kt::optim::SGD<float, D> opt{std::vector<kt::Var<float, D>>{w}, 0.5};
  /// loss = sum(w * x): the gradient is x.
  kt::Var<float, D> loss(std::vector<float> x) const { return kt::sum(w * kt::from_host<float, D>(x, {3})); }
};

}  // namespace

TEST_CASE_TEMPLATE("GradScaler scales the loss, unscales exactly and steps", D, KT_DEVICES) {
  Problem<D> p;
  kt::amp::GradScaler scaler;
  CHECK(scaler.get_scale() == 65536.0);
  auto scaled = scaler.scale(p.loss({1, 2, 4}));
  CHECK(scaled.item() == 65536.0f * (1 + 4 + 12));
  p.opt.zero_grad();
  scaled.backward();
  CHECK(p.w.grad().to_vector() == std::vector<float>{65536, 131072, 262144});
  scaler.unscale_(p.opt);
  CHECK(p.w.grad().to_vector() == std::vector<float>{1, 2, 4});
  CHECK(scaler.step(p.opt));
  CHECK(p.w.data().to_vector() == std::vector<float>{0.5f, 1.0f, 1.0f});  // w - 0.5 * g
  scaler.update();
  CHECK(scaler.get_scale() == 65536.0);
  CHECK(scaler.state_dict().growth_tracker == 1);
}

TEST_CASE_TEMPLATE("GradScaler scales the fp32 loss as written, also where it carries a 16-bit twin", D,
                   KT_DEVICES) {
  // Under fp16 autocast a Linear's output carries an fp16 twin. 100 x 1024 = 102400 is beyond
  // fp16 (largest finite 65504): computed on the twin, the scaled loss would be Inf and the
  // scaler would skip the step; the loss itself is fp32, and so is its scaled copy.
  kt::Var<float, D> w{kt::from_host<float, D>({50.0f, 50.0f}, {1, 2}), true};
  const kt::Var<float, D> x(kt::from_host<float, D>({1.0f, 1.0f}, {1, 2}));
  kt::amp::GradScaler scaler(kt::amp::GradScalerOptions().init_scale(1024));
  kt::amp::autocast<D, kt::half> region;
  const auto loss = kt::linear(x, w);  // (1, 1): 100, with its fp16 twin
  const auto scaled = scaler.scale(loss);
  CHECK(scaled.data().to_vector() == std::vector<float>{102400.0f});
  scaled.backward();
  CHECK(w.grad().to_vector() == std::vector<float>{1024, 1024});  // d(1024 w.x)/dw, exact in fp16
}

TEST_CASE_TEMPLATE("GradScaler follows PyTorch's growth and backoff sequence", D, KT_DEVICES) {
  Problem<D> p;
  kt::amp::GradScaler scaler(kt::amp::GradScalerOptions().init_scale(8).growth_interval(3));
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  // (gradient, stepped?, scale after update, tracker after update), computed by hand from
  // torch.amp.GradScaler's rules: Inf/NaN -> skip, scale * 0.5, tracker 0; else tracker + 1,
  // and at growth_interval (3) scale * 2, tracker 0.
  struct Step {
    float g0;
    bool stepped;
    double scale;
    std::int64_t tracker;
  };
  const Step steps[] = {{1, true, 8, 1},   {1, true, 8, 2},     {1, true, 16, 0}, {inf, false, 8, 0},
                        {1, true, 8, 1},   {nan, false, 4, 0},  {-inf, false, 2, 0}, {1, true, 2, 1},
                        {1, true, 2, 2},   {1, true, 4, 0}};
  int i = 0;
  for (const auto& s : steps) {
    CAPTURE(i++);
    const auto before = p.w.data().to_vector();
    p.opt.zero_grad();
    scaler.scale(p.loss({1, 1, 1})).backward();
    if (!(std::isfinite(s.g0))) p.w.set_grad(kt::from_host<float, D>({s.g0, 1.0f, 1.0f}, {3}));  // an overflow
    CHECK(scaler.step(p.opt) == s.stepped);
    CHECK((p.w.data().to_vector() != before) == s.stepped);
    scaler.update();
    CHECK(scaler.get_scale() == s.scale);
    CHECK(scaler.state_dict().growth_tracker == s.tracker);
  }
}

TEST_CASE("GradScaler refuses misuse with errors that say what to do") {
  Problem<kt::Host> p;
  kt::amp::GradScaler scaler;
  CHECK(kt_test::error_of([&] { scaler.update(); }) ==
        "kt::amp::GradScaler::update: no inf checks were recorded prior to update(): call step(optimizer) (or unscale_) first");
  p.opt.zero_grad();
  scaler.scale(p.loss({1, 1, 1})).backward();
  scaler.unscale_(p.opt);
  CHECK(kt_test::error_of([&] { scaler.unscale_(p.opt); }) ==
        "kt::amp::GradScaler::unscale_: unscale_() has already been called on this optimizer since the last update()");
  CHECK(p.w.grad().to_vector() == std::vector<float>{1, 1, 1});  // not divided twice
  scaler.step(p.opt);
  CHECK(kt_test::error_of([&] { scaler.step(p.opt); }) ==
        "kt::amp::GradScaler::step: step() has already been called since the last update()");
  scaler.update();
  CHECK(kt_test::error_of([&] { kt::amp::GradScaler(kt::amp::GradScalerOptions().growth_factor(1)); }) ==
        "kt::amp::GradScaler: growth_factor 1 must be > 1");
  CHECK(kt_test::error_of([&] { kt::amp::GradScaler(kt::amp::GradScalerOptions().backoff_factor(1)); }) ==
        "kt::amp::GradScaler: backoff_factor 1 must be in (0, 1)");
  CHECK(kt_test::error_of([&] { kt::amp::GradScaler(kt::amp::GradScalerOptions().init_scale(0)); }) ==
        "kt::amp::GradScaler: scale 0 must be finite and > 0");
}

TEST_CASE("a disabled GradScaler passes everything through; state_dict round-trips") {
  Problem<kt::Host> p;
  kt::amp::GradScaler off(kt::amp::GradScalerOptions().enabled(false));
  CHECK(off.get_scale() == 1.0);
  auto loss = off.scale(p.loss({1, 2, 3}));
  CHECK(loss.item() == 14.0f);
  loss.backward();
  CHECK(off.step(p.opt));
  off.update();
  CHECK(p.w.data().to_vector() == std::vector<float>{0.5f, 1.0f, 1.5f});

  kt::amp::GradScaler a(kt::amp::GradScalerOptions().init_scale(1024).growth_interval(5));
  for (int i = 0; i < 3; ++i) {
    p.opt.zero_grad();
    a.scale(p.loss({1, 1, 1})).backward();
    a.step(p.opt);
    a.update();
  }
  kt::amp::GradScaler b;
  b.load_state_dict(a.state_dict());
  CHECK(b.get_scale() == 1024.0);
  CHECK(b.state_dict().growth_tracker == 3);
  CHECK(b.state_dict().growth_interval == 5);
  kt::amp::GradScalerState bad = a.state_dict();
  bad.growth_tracker = 5;
  CHECK(kt_test::error_of([&] { b.load_state_dict(bad); }) ==
        "kt::amp::GradScaler: growth tracker 5 must be in [0, growth_interval = 5)");
}

TEST_CASE_TEMPLATE("fp16 gradients that underflow to zero train with the GradScaler", D, KT_DEVICES) {
  // fp32 master weights, an fp16 forward (Var::to<half>), the loss in fp32 and small: its
  // gradient reaches the fp16 tensors as at most 8e-9, which rounds to 0 in half (whose
  // smallest subnormal is 6e-8); scaled by 65536 it is ~5e-4, well inside half's range.
  const auto x = kt::from_host<kt::half, D>({kt::half(0.5f), kt::half(1.0f), kt::half(-1.0f), kt::half(2.0f)}, {4});
  const auto target = kt::from_host<float, D>({0.2f, -0.1f, 0.3f, 0.1f}, {4});
  const auto loss_of = [&](const kt::Var<float, D>& w) {
    auto y = (w.template to<kt::half>() * x).template to<float>();
    return kt::sum((y - target) * (y - target)) * 1e-8f;
  };
  const auto start = kt::from_host<float, D>({0.1f, 0.1f, 0.1f, 0.1f}, {4});

  kt::Var<float, D> plain(start.clone(), true);
  loss_of(plain).backward();
  CHECK(plain.grad().to_vector() == std::vector<float>(4, 0.0f));  // every gradient underflowed

  kt::Var<float, D> w(start.clone(), true);
  kt::optim::SGD<float, D> opt(std::vector<kt::Var<float, D>>{w}, 1e7);  // lr for a loss scaled by 1e-8
  kt::amp::GradScaler scaler;
  const float first = loss_of(w).item();
  for (int step = 0; step < 60; ++step) {
    opt.zero_grad();
    scaler.scale(loss_of(w)).backward();
    scaler.step(opt);
    scaler.update();
  }
  CHECK(loss_of(w).item() < 0.05f * first);
  CHECK(scaler.get_scale() == 65536.0);  // no overflow, no growth yet
}

namespace {

/// Ten loss-scaled steps of a three-parameter problem, Inf/NaN gradients injected at steps 0
/// (a first step: decided on the host), 4 and 5; returns the weights, then each parameter's
/// Adam step count (none for SGD).
template <class D, class Opt, class Options>
std::vector<double> scaled_run(const Options& options) {
  std::vector<kt::Var<float, D>> ws;
  for (int i = 0; i < 3; ++i)
    ws.emplace_back(kt::from_host<float, D>({0.5f * static_cast<float>(i + 1), -0.25f, 1.0f, 2.0f}, {4}), true);
  Opt opt(ws, options);
  kt::amp::GradScaler scaler(kt::amp::GradScalerOptions().init_scale(1024).growth_interval(3));
  const auto x = kt::from_host<float, D>({1.0f, -2.0f, 0.5f, 3.0f}, {4});
  const float inf = std::numeric_limits<float>::infinity();
  for (int step = 0; step < 10; ++step) {
    opt.zero_grad();
    auto loss = kt::sum(ws[0] * ws[0] * x) + kt::sum(ws[1] * x) + kt::sum(ws[2] * ws[2]);
    scaler.scale(loss).backward();
    if (step == 0 || step == 4 || step == 5) ws[1].set_grad(kt::from_host<float, D>({1.0f, inf, 1.0f, 1.0f}, {4}));
    CHECK(scaler.step(opt).stepped() == (step != 0 && step != 4 && step != 5));
    scaler.update();
  }
  std::vector<double> out;
  for (const auto& w : ws)
    for (float v : w.data().to_vector()) out.push_back(v);
  for (std::size_t i = 0; i < ws.size(); ++i) out.push_back(static_cast<double>(opt.state(i).step));
  return out;
}

}  // namespace

TEST_CASE_TEMPLATE("a step skipped on the device equals a step skipped on the host", D, KT_DEVICES) {
  // foreach(true) decides on the device (after each parameter's first step), foreach(false)
  // reads the flag on the host: the same updates, the same skipped steps, the same Adam counts.
  using SGD = kt::optim::SGD<float, D>;
  using Adam = kt::optim::Adam<float, D>;
  const auto sgd = kt::optim::SGDOptions(0.05).momentum(0.9).dampening(0.25);
  // (Bit for bit on host devices; on a GPU the two kernels may contract FMAs differently.)
  const auto on_device = scaled_run<D, SGD>(kt::optim::SGDOptions(sgd).foreach(true));
  CHECK(kt_test::same_across_devices<D, D>(on_device, scaled_run<D, SGD>(kt::optim::SGDOptions(sgd).foreach(false)), 1e-6));
  const auto adam = kt::optim::AdamOptions(0.01).weight_decay(0.1);
  const auto adam_device = scaled_run<D, Adam>(kt::optim::AdamOptions(adam).foreach(true));
  CHECK(kt_test::same_across_devices<D, D>(adam_device, scaled_run<D, Adam>(kt::optim::AdamOptions(adam).foreach(false)), 1e-6));
  CHECK(adam_device.back() == 7);  // 10 steps, 3 skipped
}

#if defined(KOKKOS_ENABLE_OPENMP) && (!defined(KOKKOS_ENABLE_CUDA) || defined(KT_TEST_ALL_DEVICES))
TEST_CASE("a GradScaler serves the device it was first used on") {
  Problem<Kokkos::Serial> serial;
  Problem<Kokkos::OpenMP> openmp;
  kt::amp::GradScaler scaler;
  (void)scaler.scale(serial.loss({1, 1, 1}));
  CHECK(kt_test::error_of([&] { (void)scaler.scale(openmp.loss({1, 1, 1})); }) ==
        "kt::amp::GradScaler::scale: this scaler keeps its scale on Serial, not on OpenMP: use one GradScaler per device");
}
#endif

TEST_CASE_TEMPLATE("a copied GradScaler scales on its own from the same state", D, KT_DEVICES) {
  Problem<D> p;
  kt::amp::GradScaler a(kt::amp::GradScalerOptions().init_scale(8).growth_interval(1));
  p.opt.zero_grad();
  a.scale(p.loss({1, 1, 1})).backward();
  a.step(p.opt);
  a.update();  // 16
  kt::amp::GradScaler b = a;
  CHECK(b.get_scale() == 16.0);
  p.opt.zero_grad();
  b.scale(p.loss({1, 1, 1})).backward();
  b.step(p.opt);
  b.update();  // b: 32, a unchanged
  CHECK(b.get_scale() == 32.0);
  CHECK(a.get_scale() == 16.0);
  a = b;
  CHECK(a.get_scale() == 32.0);
}
