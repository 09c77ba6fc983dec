// A training step without host waits, and kt::StepGraph: the step captured and replayed (a CUDA
// graph on Cuda, the eager step on host devices) against the same step run eagerly, the rules
// it enforces, and its memory.

#include "kt_test.hpp"

#include <kt/kt.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace {

/// A ReLU MLP (12-6-6-3 unless widths says otherwise) and its optimizer, optionally with a loss
/// scaler (and its scale small enough that the clean batches never overflow); two of them built
/// alike train alike.
template <class D>
struct Trainer {
  kt::nn::Sequential<float, D> model;
  std::unique_ptr<kt::optim::Optimizer<float, D>> opt;
  bool scaled;
  kt::amp::GradScaler scaler{kt::amp::GradScalerOptions().init_scale(256).growth_interval(2)};

  explicit Trainer(bool adam, bool scaled = false, std::array<int, 4> widths = {12, 6, 6, 3}) : scaled(scaled) {
    for (int l = 0; l < 3; ++l)
      model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(widths[l], widths[l + 1])
                                                   .activation(l == 2 ? kt::Activation::Identity : kt::Activation::ReLU)
                                                   .seed(10 + static_cast<std::uint64_t>(l))));
    if (adam) opt = std::make_unique<kt::optim::Adam<float, D>>(model.parameters(), kt::optim::AdamOptions(1e-2));
    else opt = std::make_unique<kt::optim::SGD<float, D>>(model.parameters(), kt::optim::SGDOptions(0.1).momentum(0.9));
  }

  kt::Tensor<float, D> step(const kt::Tensor<float, D>& x, const kt::Tensor<std::int64_t, D>& y) {
    opt->zero_grad();
    auto loss = kt::cross_entropy(model(kt::Var<float, D>(x)), y);
    if (scaled) {
      scaler.scale(loss).backward();
      scaler.step(*opt);
      scaler.update();
    } else {
      loss.backward();
      opt->step();
    }
    return loss.data();
  }

  std::vector<float> weights() const {
    std::vector<float> out;
    for (const auto& p : model.parameters())
      for (float v : p.data().to_vector()) out.push_back(v);
    return out;
  }
};

/// Batch k: `rows` inputs of `width` features, and their classes among 3.
template <class D>
kt::Tensor<float, D> batch_x(int k, std::int64_t rows = 8, std::int64_t width = 12) {
  return kt::randn<float, D>({rows, width}, 1000 + static_cast<std::uint64_t>(k));
}
template <class D>
kt::Tensor<std::int64_t, D> y_for(int k, std::int64_t rows = 8) {
  std::vector<std::int64_t> y(static_cast<std::size_t>(rows));
  for (std::int64_t i = 0; i < rows; ++i) y[static_cast<std::size_t>(i)] = (i * 7 + k) % 3;
  return kt::from_host<std::int64_t, D>(y, {rows});
}

template <class D>
bool same(const std::vector<float>& a, const std::vector<float>& b) {
  if constexpr (kt::is_host_accessible_v<D>) return a == b;
  else return kt_test::all_close(a, kt_test::as_double(b), 1e-4);
}

/// The number of host waits ("fence" rows) recorded while f runs.
template <class F>
std::int64_t fences_during(F&& f) {
  kt::Profiler prof;
  f();
  prof.stop();
  std::int64_t n = 0;
  for (const auto& row : prof.key_averages())
    if (row.kind == "fence") {
      MESSAGE("host wait: ", row.name, " x", row.count);
      n += row.count;
    }
  return n;
}

}  // namespace

TEST_CASE_TEMPLATE("a steady-state training step makes the host wait nowhere", D, KT_DEVICES) {
  for (const bool adam : {false, true})
  for (const bool scaled : {false, true}) {
    CAPTURE(adam);
    CAPTURE(scaled);
    Trainer<D> t(adam, scaled);
    const auto x = batch_x<D>(0);
    const auto y = y_for<D>(0);
    for (int i = 0; i < 2; ++i) (void)t.step(x, y);  // state made, caches warm
    kt::Tensor<float, D> loss;
    CHECK(fences_during([&] {
            for (int i = 0; i < 3; ++i) loss = t.step(x, y);
          }) == 0);
    // The waits are counted where they happen: one item() is one fence.
    CHECK(fences_during([&] { (void)loss.item(); }) == 1);
    CHECK(fences_during([&] { kt::synchronize<D>(); }) == 1);
  }
}

TEST_CASE_TEMPLATE("kt::StepGraph replays the step as the eager step runs", D, KT_DEVICES) {
  for (const bool adam : {false, true}) {
    CAPTURE(adam);
    Trainer<D> eager(adam), graphed(adam);
    auto step = kt::make_step_graph<D>(
        [&](const kt::Tensor<float, D>& x, const kt::Tensor<std::int64_t, D>& y) { return graphed.step(x, y); });
    std::vector<float> eager_losses, graph_losses;
    for (int k = 0; k < 6; ++k) {
      if (k == 4) {  // a scheduler's change between replays reaches the captured kernels
        eager.opt->set_lr(eager.opt->lr() * 0.5);
        graphed.opt->set_lr(graphed.opt->lr() * 0.5);
      }
      const auto x = batch_x<D>(k);
      const auto y = y_for<D>(k);
      eager_losses.push_back(eager.step(x, y).item());
      graph_losses.push_back(step(x, y).item());
    }
    CHECK(step.captured());
    CHECK(same<D>(graph_losses, eager_losses));
    CHECK(same<D>(graphed.weights(), eager.weights()));
    if (adam) CHECK(graphed.opt->state(0).step == 6);  // step counts advance at every replay, as the eager ones do
  }
}

TEST_CASE_TEMPLATE("kt::StepGraph replays a step whose layers' gradient products run as pairs", D, KT_DEVICES) {
  // A 192-wide hidden layer at batch 64: its weight and input gradients are 4.7 MFLOP each, which
  // the BLAS runs at once on a pool of two threads (kt/backend/impl/gemm_pair.hpp).
  const std::array<int, 4> widths{32, 192, 192, 3};
  Trainer<D> eager(false, false, widths), graphed(false, false, widths);
  auto step = kt::make_step_graph<D>(
      [&](const kt::Tensor<float, D>& x, const kt::Tensor<std::int64_t, D>& y) { return graphed.step(x, y); });
  std::vector<float> eager_losses, graph_losses;
  std::int64_t pairs = 0;
  for (int k = 0; k < 5; ++k) {
    const auto x = batch_x<D>(k, 64, 32);
    const auto y = y_for<D>(k, 64);
    eager_losses.push_back(eager.step(x, y).item());
    pairs += kt_test::launches_during("kt::gemm::blas_pair", [&] { graph_losses.push_back(step(x, y).item()); });
  }
  CHECK(step.captured());
  CHECK(same<D>(graph_losses, eager_losses));
  CHECK(same<D>(graphed.weights(), eager.weights()));
  // dw = dzᵀ · x and dx = dz · w of the 192-wide layer: paired where two threads share out.
  const bool paired = kt_test::runs_as_pair<D>({192, 192, 64}, {64, 192, 192});
  CHECK(pairs == (paired ? 5 : 0));  // one pair per step (the second layer's), replays included
}

TEST_CASE_TEMPLATE("kt::StepGraph replays a loss-scaled step, skips included, as the eager step runs", D, KT_DEVICES) {
  for (const bool adam : {false, true}) {
    CAPTURE(adam);
    Trainer<D> eager(adam, true), graphed(adam, true);
    auto step = kt::make_step_graph<D>(
        [&](const kt::Tensor<float, D>& x, const kt::Tensor<std::int64_t, D>& y) { return graphed.step(x, y); });
    std::vector<float> weights_before;
    for (int k = 0; k < 8; ++k) {
      auto x = batch_x<D>(k);
      if (k == 5) x = x / kt::zeros<float, D>({8, 12});  // Inf and NaN inputs: an overflowing step
      if (k == 5) weights_before = graphed.weights();
      (void)eager.step(x, y_for<D>(k));
      (void)step(x, y_for<D>(k));
      if (k == 5) CHECK(graphed.weights() == weights_before);  // skipped on the device
    }
    CHECK(step.captured());
    CHECK(same<D>(graphed.weights(), eager.weights()));
    // Scale 256, growth every 2 clean steps: 512 (k=1), 1024 (k=3), backoff at k=5 to 512,
    // growth at k=7 to 1024; 7 steps taken.
    CHECK(graphed.scaler.get_scale() == 1024.0);
    CHECK(eager.scaler.get_scale() == 1024.0);
    if (adam) CHECK(graphed.opt->state(0).step == 7);
  }
}

TEST_CASE_TEMPLATE("kt::StepGraph refuses a new shape, a host wait inside the step, and bad options", D, KT_DEVICES) {
  Trainer<D> t(false);
  auto step = kt::make_step_graph<D>(
      [&](const kt::Tensor<float, D>& x, const kt::Tensor<std::int64_t, D>& y) { return t.step(x, y); });
  (void)step(batch_x<D>(0), y_for<D>(0));
  const std::string shape = kt_test::error_of([&] {
    (void)step(kt::randn<float, D>({5, 12}, 1), kt::zeros<std::int64_t, D>({5}));
  });
  CHECK(shape.find("kt::StepGraph: input 0 has shape (5, 12) but the step was first called") == 0);
  CHECK(shape.find("drop_last(true)") != std::string::npos);

  auto waits = kt::make_step_graph<D>([&](const kt::Tensor<float, D>& x, const kt::Tensor<std::int64_t, D>& y) {
    return t.step(x, y).item();  // item() waits for the device
  });
  const std::string wait = kt_test::error_of([&] { (void)waits(batch_x<D>(0), y_for<D>(0)); });
  CHECK(wait.find("kt::Tensor::item makes the host wait for the device, which cannot happen inside a captured "
                  "step (kt::StepGraph") == 0);
  CHECK(kt_test::error_of([&] { (void)kt::sum(batch_x<D>(0)).item(); }) == "");  // outside: fine

  CHECK(kt_test::error_of([&] {
          (void)kt::make_step_graph<D>([](const kt::Tensor<float, D>&) {}, kt::StepGraphOptions().warmup(0));
        }) == "kt::StepGraph: warmup must be >= 1, got 0");
}

TEST_CASE_TEMPLATE("kt::StepGraph: 1,000 replays allocate nothing", D, KT_DEVICES) {
  Trainer<D> t(true);
  auto step = kt::make_step_graph<D>(
      [&](const kt::Tensor<float, D>& x, const kt::Tensor<std::int64_t, D>& y) { return t.step(x, y); });
  const auto x = batch_x<D>(1);
  const auto y = y_for<D>(1);
  kt::Tensor<float, D> loss;
  for (int i = 0; i < 5; ++i) loss = step(x, y);
  const auto before = kt::memory_stats<D>();
  for (int i = 0; i < 1000; ++i) loss = step(x, y);
  const auto after = kt::memory_stats<D>();
  CHECK(after.reserved == before.reserved);
  CHECK(after.allocated == before.allocated);
  CHECK(std::isfinite(loss.item()));
}

TEST_CASE_TEMPLATE("kt::StepGraph refuses a loss scaler whose optimizer reads the flag on the host", D, KT_DEVICES) {
  kt::Var<float, D> w(kt::from_host<float, D>({1.0f, 2.0f}, {2}), true);
  kt::optim::SGD<float, D> opt(std::vector<kt::Var<float, D>>{w}, kt::optim::SGDOptions(0.1).foreach(false));
  kt::amp::GradScaler scaler;
  auto step = kt::make_step_graph<D>([&](const kt::Tensor<float, D>& x) {
    opt.zero_grad();
    scaler.scale(kt::sum(w * kt::Var<float, D>(x))).backward();
    scaler.step(opt);
    scaler.update();
  });
  const std::string e = kt_test::error_of([&] { step(kt::from_host<float, D>({1.0f, 1.0f}, {2})); });
  CHECK(e.find("kt::optim::SGD::step_unless (what kt::amp::GradScaler::step calls): this step reads the Inf/NaN "
               "flag on the host (foreach(false)") == 0);
}

namespace {

/// A regression step with dropout, layer norm, a softmax, a constant made from host data and
/// Adam: on a host device its replays must draw new dropout masks and read the step's scalars
/// again, as the eager step does.
template <class D>
struct MixedTrainer {
  kt::Var<float, D> w{kt::randn<float, D>({12, 6}, 7), true};
  kt::Var<float, D> gamma{kt::ones<float, D>({6}), true};
  kt::Var<float, D> beta{kt::zeros<float, D>({6}), true};
  kt::Generator gen{123};
  kt::optim::Adam<float, D> opt{std::vector<kt::Var<float, D>>{w, gamma, beta}, kt::optim::AdamOptions(1e-2)};
  std::vector<float> scale = {0.5f, 1, 1.5f, 2, 2.5f, 3};

  kt::Tensor<float, D> step(const kt::Tensor<float, D>& x, const kt::Tensor<float, D>& y) {
    opt.zero_grad();
    const auto c = kt::Var<float, D>(kt::from_host<float>(D(), scale.data(), {6}));
    auto h = kt::layer_norm(kt::matmul(kt::Var<float, D>(x), w), {6}, gamma, beta);
    h = kt::softmax(kt::dropout(h, 0.25, true, gen) * c, 1);
    auto loss = kt::mse_loss(h, y);
    loss.backward();
    opt.step();
    return loss.data();
  }
};

}  // namespace

TEST_CASE_TEMPLATE("kt::StepGraph on a host device replays dropout, layer norm, softmax and from_host as the eager "
                   "step runs them",
                   D, KT_DEVICES) {
  if constexpr (kt::is_host_accessible_v<D>) {
    MixedTrainer<D> eager, graphed;
    auto step = kt::make_step_graph<D>(
        [&](const kt::Tensor<float, D>& x, const kt::Tensor<float, D>& y) { return graphed.step(x, y); });
    std::vector<float> eager_losses, graph_losses;
    for (int k = 0; k < 7; ++k) {
      const auto x = batch_x<D>(k);
      const auto y = kt::rand<float, D>({8, 6}, 50 + static_cast<std::uint64_t>(k));
      eager_losses.push_back(eager.step(x, y).item());
      graph_losses.push_back(step(x, y).item());
    }
    CHECK(step.captured());
    CHECK(graph_losses == eager_losses);
    for (int i = 0; i < 3; ++i)
      CHECK(graphed.opt.params()[i].data().to_vector() == eager.opt.params()[i].data().to_vector());
    CHECK(graphed.gen.offset() == eager.gen.offset());  // a replay draws its mask anew
    CHECK(graphed.opt.state(0).step == 7);
  }
}

TEST_CASE_TEMPLATE("kt::StepGraph on a host device: a replay raises a bad class index, and a void step replays",
                   D, KT_DEVICES) {
  if constexpr (kt::is_host_accessible_v<D>) {
    Trainer<D> t(false);
    auto step = kt::make_step_graph<D>(
        [&](const kt::Tensor<float, D>& x, const kt::Tensor<std::int64_t, D>& y) { return t.step(x, y); });
    for (int k = 0; k < 3; ++k) (void)step(batch_x<D>(k), y_for<D>(k));
    REQUIRE(step.captured());
    const auto bad = kt::from_host<std::int64_t, D>({0, 1, 2, 3, 0, 1, 2, 0}, {8});
    const std::string e = kt_test::error_of([&] { (void)step(batch_x<D>(3), bad); });
    CHECK(e.find("kt::cross_entropy") != std::string::npos);
    CHECK(e.find("3") != std::string::npos);

    kt::Tensor<float, D> acc = kt::zeros<float, D>({4});
    auto add = kt::make_step_graph<D>([&](const kt::Tensor<float, D>& x) { kt::add_(acc, x); },
                                      kt::StepGraphOptions().warmup(1));
    for (int k = 0; k < 4; ++k) add(kt::full<float, D>({4}, static_cast<float>(k + 1)));
    CHECK(add.captured());
    CHECK(acc.to_vector() == std::vector<float>(4, 10.0f));  // 1 eager, 1 recorded, 2 replayed
  }
}

TEST_CASE_TEMPLATE("kt::StepGraph on a host device refuses a step that launches its own Kokkos kernels", D,
                   KT_DEVICES) {
  if constexpr (kt::is_host_accessible_v<D>) {
    kt::Tensor<float, D> acc = kt::zeros<float, D>({4});
    auto own = kt::make_step_graph<D>([&](const kt::Tensor<float, D>& x) {
      kt::add_(acc, x);
      const auto v = acc.view();
      Kokkos::parallel_for("my_app::double", Kokkos::RangePolicy<D>(0, 4), KOKKOS_LAMBDA(int i) { v(i) *= 2; });
    }, kt::StepGraphOptions().warmup(1));
    CHECK(kt_test::error_of([&] { own(kt::ones<float, D>({4})); }) == "");  // the warm-up runs eagerly
    const std::string e = kt_test::error_of([&] { own(kt::ones<float, D>({4})); });
    CHECK(e.find("kt::StepGraph: the step function launched Kokkos work kt cannot replay ('my_app::double', 1 "
                 "launch outside kt's operations)") == 0);
    CHECK_FALSE(own.captured());
    // Recorded work that kt launches itself passes the same watch.
    auto ok = kt::make_step_graph<D>([&](const kt::Tensor<float, D>& x) { kt::add_(acc, x); });
    for (int k = 0; k < 4; ++k) ok(kt::ones<float, D>({4}));
    CHECK(ok.captured());
  }
}
