// A training step without host waits, and kt::StepGraph: the step captured and replayed (a CUDA
// graph on Cuda, the eager step on host devices) against the same step run eagerly, the rules
// it enforces, and its memory.

#include "kt_test.hpp"

#include <kt/kt.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace {

/// A 12-6-6-3 ReLU MLP, its optimizer and a fixed batch; two of them built alike train alike.
template <class D>
struct Trainer {
  kt::nn::Sequential<float, D> model;
  std::unique_ptr<kt::optim::OptimizerBase> opt;

  explicit Trainer(bool adam) {
    const int widths[] = {12, 6, 6, 3};
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
    loss.backward();
    opt->step();
    return loss.data();
  }

  std::vector<float> weights() const {
    std::vector<float> out;
    for (const auto& p : model.parameters())
      for (float v : p.data().to_vector()) out.push_back(v);
    return out;
  }
};

template <class D>
kt::Tensor<float, D> batch_x(int k) {
  return kt::randn<float, D>({8, 12}, 1000 + static_cast<std::uint64_t>(k));
}
template <class D>
kt::Tensor<std::int64_t, D> batch_y(int k) {
  std::vector<std::int64_t> y(8);
  for (int i = 0; i < 8; ++i) y[static_cast<std::size_t>(i)] = (i * 7 + k) % 3;
  return kt::from_host<std::int64_t, D>(y, {8});
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
  for (const bool adam : {false, true}) {
    CAPTURE(adam);
    Trainer<D> t(adam);
    const auto x = batch_x<D>(0);
    const auto y = batch_y<D>(0);
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
      const auto y = batch_y<D>(k);
      eager_losses.push_back(eager.step(x, y).item());
      graph_losses.push_back(step(x, y).item());
    }
    CHECK(step.captured() == !kt::is_host_accessible_v<D>);
    CHECK(same<D>(graph_losses, eager_losses));
    CHECK(same<D>(graphed.weights(), eager.weights()));
    if (adam) {  // step counts advance at every replay, as the eager ones do
      auto& a = static_cast<kt::optim::Adam<float, D>&>(*graphed.opt);
      CHECK(a.state(0).step == 6);
    }
  }
}

TEST_CASE_TEMPLATE("kt::StepGraph refuses a new shape, a host wait inside the step, and bad options", D, KT_DEVICES) {
  Trainer<D> t(false);
  auto step = kt::make_step_graph<D>(
      [&](const kt::Tensor<float, D>& x, const kt::Tensor<std::int64_t, D>& y) { return t.step(x, y); });
  (void)step(batch_x<D>(0), batch_y<D>(0));
  const std::string shape = kt_test::error_of([&] {
    (void)step(kt::randn<float, D>({5, 12}, 1), kt::zeros<std::int64_t, D>({5}));
  });
  CHECK(shape.find("kt::StepGraph: input 0 has shape (5, 12) but the step was first called") == 0);
  CHECK(shape.find("drop_last(true)") != std::string::npos);

  auto waits = kt::make_step_graph<D>([&](const kt::Tensor<float, D>& x, const kt::Tensor<std::int64_t, D>& y) {
    return t.step(x, y).item();  // item() waits for the device
  });
  const std::string wait = kt_test::error_of([&] { (void)waits(batch_x<D>(0), batch_y<D>(0)); });
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
  const auto y = batch_y<D>(1);
  kt::Tensor<float, D> loss;
  for (int i = 0; i < 5; ++i) loss = step(x, y);
  const auto before = kt::memory_stats<D>();
  for (int i = 0; i < 1000; ++i) loss = step(x, y);
  const auto after = kt::memory_stats<D>();
  CHECK(after.reserved == before.reserved);
  CHECK(after.allocated == before.allocated);
  CHECK(std::isfinite(loss.item()));
}
