// DistributedDataParallel is data parallelism without changing the arithmetic: R ranks with
// batch B each take the same steps as one process with batch R*B. Every rank also computes
// that one-process reference locally (the whole global batch), so the check needs no
// communication: fp64 agrees to 1e-12, fp32 to 1e-5, after 50 steps of SGD and of Adam.

#include "kt_test.hpp"

#include <kt/dist/dist.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace {

template <class T, class D>
kt::nn::Sequential<T, D> make_model(std::uint64_t seed, std::int64_t hidden = 32) {
  kt::nn::Sequential<T, D> model;
  model.push_back(kt::nn::Linear<T, D>(kt::nn::LinearOptions(16, hidden).seed(seed)));
  model.push_back(kt::nn::ReLU<T, D>());
  model.push_back(kt::nn::Linear<T, D>(kt::nn::LinearOptions(hidden, 4).seed(seed + 1)));
  return model;
}

// The global batch of `step`: the same on every rank.
template <class T, class D>
std::pair<kt::Tensor<T, D>, kt::Tensor<std::int64_t, D>> global_batch(std::int64_t rows, int step) {
  return {kt::randn<T, D>({rows, 16}, 1000 + static_cast<std::uint64_t>(step)),
          kt::randint<std::int64_t, D>(0, 4, {rows}, 5000 + static_cast<std::uint64_t>(step))};
}

template <class T, class D>
double max_difference(const kt::nn::Sequential<T, D>& a, const kt::nn::Sequential<T, D>& b) {
  double worst = 0;
  const auto pa = a.parameters(), pb = b.parameters();
  for (std::size_t k = 0; k < pa.size(); ++k) {
    const auto va = pa[k].data().to_vector(), vb = pb[k].data().to_vector();
    for (std::size_t i = 0; i < va.size(); ++i)
      worst = std::max(worst, std::abs(static_cast<double>(va[i]) - static_cast<double>(vb[i])) /
                                  std::max(1.0, std::abs(static_cast<double>(vb[i]))));
  }
  return worst;
}

enum class Opt { sgd, adam };

template <class T, class D, Opt which>
void check_equivalence() {
  const auto& world = kt::dist::world();
  const std::int64_t local = 128, global = local * world.size();
  // Rank 0's initial weights win: the other ranks start from other seeds on purpose.
  auto model = make_model<T, D>(11 + 7 * static_cast<std::uint64_t>(world.rank()));
  kt::dist::DistributedDataParallel ddp(model, kt::dist::DistributedDataParallelOptions().bucket_cap_mb(0.004).first_bucket_cap_mb(0.0002));
  CHECK(ddp.bucket_count() > 1);  // several buckets in flight during backward
  auto reference = make_model<T, D>(11);
  CHECK(max_difference(model, reference) == 0.0);

  auto make_opt = [](const std::vector<kt::Var<T, D>>& params) {
    if constexpr (which == Opt::sgd)
      return kt::optim::SGD<T, D>(params, kt::optim::SGDOptions(0.1).momentum(0.9));
    else
      return kt::optim::Adam<T, D>(params, kt::optim::AdamOptions(1e-2));
  };
  auto opt = make_opt(model.parameters());
  auto ref_opt = make_opt(reference.parameters());
  for (int step = 0; step < 50; ++step) {
    const auto [x, y] = global_batch<T, D>(global, step);
    const std::int64_t begin = local * world.rank();
    auto loss = kt::cross_entropy(ddp(kt::Var<T, D>(x.slice(begin, begin + local))), y.slice(begin, begin + local));
    opt.zero_grad();
    loss.backward();
    opt.step();

    auto ref_loss = kt::cross_entropy(reference(kt::Var<T, D>(x)), y);
    ref_opt.zero_grad();
    ref_loss.backward();
    ref_opt.step();
  }
  const double tol = std::is_same_v<T, double> ? 1e-12 : 1e-5;
  CHECK(max_difference(model, reference) <= tol);
  MESSAGE("max relative difference after 50 steps: ", max_difference(model, reference));
}

}  // namespace

TEST_CASE_TEMPLATE("DDP on R ranks x batch 128 takes the steps of one process with batch R x 128 (SGD)", C,
                   KT_FLOAT_CASES) {
  check_equivalence<typename C::dtype, typename C::device, Opt::sgd>();
}

TEST_CASE_TEMPLATE("DDP on R ranks x batch 128 takes the steps of one process with batch R x 128 (Adam)", C,
                   KT_FLOAT_CASES) {
  check_equivalence<typename C::dtype, typename C::device, Opt::adam>();
}

TEST_CASE_TEMPLATE("no_sync accumulates locally; the next backward averages the sum (a large batch)", D, KT_DEVICES) {
  using T = double;
  const auto& world = kt::dist::world();
  auto model = make_model<T, D>(3);
  kt::dist::DistributedDataParallel ddp(model);
  auto reference = make_model<T, D>(3);
  const std::int64_t micro = 32, local = 2 * micro, global = local * world.size();
  const auto batch = global_batch<T, D>(global, 0);
  const auto& x = batch.first;  // (not a structured binding: lambdas capture those from C++20 on)
  const auto& y = batch.second;
  auto rows = [&](int k) {  // this rank's k-th micro-batch
    const std::int64_t begin = local * world.rank() + micro * k;
    return std::make_pair(x.slice(begin, begin + micro), y.slice(begin, begin + micro));
  };
  model.zero_grad();
  {
    auto guard = ddp.no_sync();
    const auto [x0, y0] = rows(0);
    (kt::cross_entropy(ddp(kt::Var<T, D>(x0)), y0) * 0.5).backward();
  }
  // No communication happened: the ranks' gradients differ.
  auto first = model.parameters()[0].grad().clone();
  auto others = kt::dist::all_gather(first);
  CHECK(others.slice(0, first.size(0)).to_vector() != others.slice(first.size(0), 2 * first.size(0)).to_vector());
  const auto [x1, y1] = rows(1);
  (kt::cross_entropy(ddp(kt::Var<T, D>(x1)), y1) * 0.5).backward();

  reference.zero_grad();
  kt::cross_entropy(reference(kt::Var<T, D>(x)), y).backward();
  const auto got = model.parameters(), want = reference.parameters();
  for (std::size_t k = 0; k < got.size(); ++k) {
    const auto g = got[k].grad().to_vector();
    std::vector<double> w = want[k].grad().to_vector();
    CHECK(kt_test::all_close(g, w, 1e-12));
  }
}

TEST_CASE_TEMPLATE("DDP with GradScaler: the scaled, all-reduced gradients unscale to the large batch's", D, KT_DEVICES) {
  const auto& world = kt::dist::world();
  auto model = make_model<float, D>(5);
  kt::dist::DistributedDataParallel ddp(model);
  auto reference = make_model<float, D>(5);
  kt::optim::SGD<float, D> opt(model.parameters(), kt::optim::SGDOptions(0.1));
  kt::optim::SGD<float, D> ref_opt(reference.parameters(), kt::optim::SGDOptions(0.1));
  kt::amp::GradScaler scaler(kt::amp::GradScalerOptions().init_scale(1024.0));
  kt::amp::GradScaler ref_scaler(kt::amp::GradScalerOptions().init_scale(1024.0));
  for (int step = 0; step < 5; ++step) {
    const auto [x, y] = global_batch<float, D>(64 * world.size(), step);
    const std::int64_t begin = 64 * world.rank();
    opt.zero_grad();
    scaler.scale(kt::cross_entropy(ddp(kt::Var<float, D>(x.slice(begin, begin + 64))), y.slice(begin, begin + 64)))
        .backward();
    scaler.step(opt);
    scaler.update();
    ref_opt.zero_grad();
    ref_scaler.scale(kt::cross_entropy(reference(kt::Var<float, D>(x)), y)).backward();
    ref_scaler.step(ref_opt);
    ref_scaler.update();
  }
  CHECK(max_difference(model, reference) <= 1e-5);
}

TEST_CASE("DDP refuses models that differ between ranks, on every rank, naming the parameter") {
  using D = Kokkos::Serial;
  const auto& world = kt::dist::world();
  auto model = make_model<double, D>(1, world.rank() == 1 ? 48 : 32);  // rank 1's hidden layer is wider
  const std::string error = kt_test::error_of([&] { kt::dist::DistributedDataParallel ddp(model); });
  if (world.rank() == 1)
    CHECK(error.find("rank 1's model differs from rank 0's: parameter 0 is '0.weight (48, 16)' here but "
                     "'0.weight (32, 16)' on rank 0") != std::string::npos);
  else
    CHECK(error.find("another rank's model differs from rank 0's") != std::string::npos);
}
