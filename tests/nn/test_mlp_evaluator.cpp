// kt::nn::PackedMLP and kt::nn::MLPEvaluator: a trained Sequential evaluated inside user
// kernels (one point per thread, and team-level with scratch), checked against the batched
// forward of the same model and against a double reference computed here from its weights.

#include "kt_test.hpp"

#include <kt/nn/nn.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

using kt_test::error_of;

static_assert(std::is_trivially_copyable_v<kt::nn::MLPEvaluator<float>>);
static_assert(std::is_trivially_copyable_v<kt::nn::MLPEvaluator<kt::half, 64, 4>>);
static_assert(std::is_trivially_copyable_v<kt::nn::MLPEvaluator<kt::bfloat16, 256, 16>>);

namespace {

/// A model using every way of giving an activation: fused into Linear, a separate module, none;
/// odd widths (5 inputs, 17, 3 outputs) and a layer without bias.
template <class D>
kt::nn::Sequential<float, D> mixed_model() {
  using kt::nn::LinearOptions;
  kt::nn::Sequential<float, D> m;
  m.push_back(kt::nn::Linear<float, D>(LinearOptions(5, 40).activation(kt::Activation::ReLU).seed(1)));
  m.push_back(kt::nn::Linear<float, D>(LinearOptions(40, 33).seed(2)));
  m.push_back(kt::nn::Tanh<float, D>());
  m.push_back(kt::nn::Linear<float, D>(LinearOptions(33, 17).bias(false).seed(3)));
  m.push_back(kt::nn::GELU<float, D>());
  m.push_back(kt::nn::Linear<float, D>(LinearOptions(17, 16).activation(kt::Activation::Sigmoid).seed(4)));
  m.push_back(kt::nn::Linear<float, D>(LinearOptions(16, 3).seed(5)));
  return m;
}

/// The benchmark's model: 64-64-64-10, ReLU.
template <class D>
kt::nn::Sequential<float, D> relu_model() {
  using kt::nn::LinearOptions;
  kt::nn::Sequential<float, D> m;
  m.push_back(kt::nn::Linear<float, D>(LinearOptions(64, 64).activation(kt::Activation::ReLU).seed(6)));
  m.push_back(kt::nn::Linear<float, D>(LinearOptions(64, 64).activation(kt::Activation::ReLU).seed(7)));
  m.push_back(kt::nn::Linear<float, D>(LinearOptions(64, 10).seed(8)));
  return m;
}

double activate(kt::Activation act, double v) {
  switch (act) {
    case kt::Activation::Identity: return v;
    case kt::Activation::ReLU: return v > 0 ? v : 0;
    case kt::Activation::GELU: return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)));
    case kt::Activation::Tanh: return std::tanh(v);
    case kt::Activation::Sigmoid: return 1 / (1 + std::exp(-v));
  }
  return v;
}

/// The model evaluated in double from its weights, each first rounded to W; rows of x are
/// points. Independent of kt's kernels: written out here.
template <class W, class D>
std::vector<double> reference(const kt::nn::Sequential<float, D>& model, const std::vector<float>& x, int n_in) {
  const int n = static_cast<int>(x.size()) / n_in;
  std::vector<double> cur(x.begin(), x.end());
  int width = n_in;
  for (std::size_t i = 0; i < model.size(); ++i) {
    if (auto* lin = dynamic_cast<const kt::nn::Linear<float, D>*>(model[i].get())) {
      const int out = static_cast<int>(lin->options().out_features());
      const auto w = lin->weight.data().to_vector();
      const auto b = lin->bias.defined() ? lin->bias.data().to_vector() : std::vector<float>(out, 0.0f);
      const auto round = [](float v) { return static_cast<double>(static_cast<float>(W(v))); };
      std::vector<double> next(static_cast<std::size_t>(n) * out);
      for (int p = 0; p < n; ++p)
        for (int j = 0; j < out; ++j) {
          double s = round(b[j]);
          for (int k = 0; k < width; ++k) s += cur[p * width + k] * round(w[j * width + k]);
          next[p * out + j] = activate(lin->options().activation(), s);
        }
      cur = std::move(next);
      width = out;
    } else {
      const std::string name = model[i]->name();
      const kt::Activation act = name == "ReLU" ? kt::Activation::ReLU
                                 : name == "GELU" ? kt::Activation::GELU
                                 : name == "Tanh" ? kt::Activation::Tanh
                                                  : kt::Activation::Sigmoid;
      for (double& v : cur) v = activate(act, v);
    }
  }
  return cur;
}

/// model(x) under no-grad: the batched forward.
template <class D>
std::vector<float> batched(kt::nn::Sequential<float, D>& model, const kt::Tensor<float, D>& x) {
  kt::NoGradGuard no_grad;
  return model(x).data().to_vector();
}

/// Every point through the per-thread call, one point per thread of a user parallel_for.
template <class D, class Eval>
std::vector<float> per_thread(const Eval& mlp, const kt::Tensor<float, D>& x) {
  const int n = static_cast<int>(x.size(0)), n_out = mlp.out_features();
  auto y = kt::full<float, D>({n, n_out}, -7.0f);
  const auto xv = x.template view<2>();
  const auto yv = y.template view<2>();
  Kokkos::parallel_for("kt::test::mlp_per_thread", Kokkos::RangePolicy<D>(0, n), KOKKOS_LAMBDA(int i) {
    mlp(&xv(i, 0), &yv(i, 0));
  });
  return y.to_vector();
}

/// The team-level call: teams of `team_points` points (the last team gets the rest). The
/// scratch is followed by a guard zone the call must leave alone.
template <class D, class Eval>
std::vector<float> per_team(const Eval& mlp, const kt::Tensor<float, D>& x, int n, int team_points, int team_size) {
  using Policy = Kokkos::TeamPolicy<D>;
  using Scratch = Kokkos::View<float*, typename D::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  constexpr int guard = 4096;  // floats: past any misplaced second buffer of these models
  const int n_in = mlp.in_features(), n_out = mlp.out_features();
  auto y = kt::full<float, D>({std::max(n, 1), n_out}, -7.0f);  // a sentinel row when n == 0
  auto overwritten = kt::zeros<int, D>({1});
  const float* in = x.data();
  float* out = y.data();
  int* bad = overwritten.data();
  const int teams = std::max(1, (n + team_points - 1) / team_points);
  Policy policy = team_size > 0 ? Policy(teams, team_size) : Policy(teams, Kokkos::AUTO);
  policy.set_scratch_size(0, Kokkos::PerTeam(mlp.scratch_bytes(team_points) + guard * sizeof(float)));
  Kokkos::parallel_for("kt::test::mlp_team", policy, KOKKOS_LAMBDA(const typename Policy::member_type& team) {
    const int first = team.league_rank() * team_points;
    const int count = n - first < team_points ? n - first : team_points;
    const int floats = mlp.scratch_floats(team_points);
    Scratch scratch(team.team_scratch(0), floats + guard);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, guard), [&](int g) { scratch(floats + g) = 12345.0f; });
    team.team_barrier();
    mlp(team, in + first * n_in, out + first * n_out, count < 0 ? 0 : count, scratch.data());
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, guard), [&](int g) {
      if (scratch(floats + g) != 12345.0f) Kokkos::atomic_add(bad, 1);
    });
  });
  CHECK_MESSAGE(overwritten.item() == 0, "the team-level call wrote past its scratch_floats()");
  return y.to_vector();
}

/// max |got - want| / max(1, |want|) over the elements (infinite when the sizes differ).
template <class G, class R>
double worst(const std::vector<G>& got, const std::vector<R>& want, std::size_t* at = nullptr) {
  if (got.size() != want.size()) return INFINITY;
  double e = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double d = std::abs(double(got[i]) - double(want[i])) / std::max(1.0, std::abs(double(want[i])));
    if (!(d <= e)) {
      e = d;
      if (at) *at = i;
    }
  }
  return e;
}

/// worst(got, want) <= tol; reports the worst element otherwise.
template <class G, class R>
bool close(const std::vector<G>& got, const std::vector<R>& want, double tol) {
  std::size_t at = 0;
  const double e = worst(got, want, &at);
  if (e <= tol) return true;
  if (got.size() != want.size()) MESSAGE("size: got ", got.size(), ", want ", want.size());
  else MESSAGE("element ", at, ": got ", double(got[at]), ", want ", double(want[at]), " (scaled error ", e, ")");
  return false;
}

}  // namespace

TEST_CASE_TEMPLATE("MLPEvaluator: one point per thread agrees with model(x) and a double reference", D, KT_DEVICES) {
  auto mixed = mixed_model<D>();
  auto relu = relu_model<D>();
  for (auto* model : {&mixed, &relu}) {
    const int n_in = static_cast<int>(dynamic_cast<const kt::nn::Linear<float, D>&>(*(*model)[0]).options().in_features());
    const auto x = kt::randn<float, D>({37, n_in}, /*seed=*/9, 0, 2);
    kt::nn::PackedMLP<float, D> packed(*model);
    const auto got = per_thread<D>(packed.evaluator(), x);
    CHECK(close(got, batched(*model, x), 1e-6));
    CHECK(close(got, reference<float>(*model, x.to_vector(), n_in), 2e-6));
  }
  kt::nn::PackedMLP<float, D> packed(mixed);
  // Whole 64-byte lines for every weight row (unaligned rows measured 1.5x slower on the host).
  CHECK(reinterpret_cast<std::uintptr_t>(packed.buffer().data()) % 64 == 0);
  CHECK(packed.widths() == std::vector<int>{5, 40, 33, 17, 16, 3});
  CHECK(packed.layers() == 5);
  CHECK(packed.activation(1) == kt::Activation::Tanh);
  CHECK(packed.activation(4) == kt::Activation::Identity);
  CHECK(packed.bytes() == sizeof(float) * ((5 + 1) * 48 + (40 + 1) * 48 + (33 + 1) * 32 + (17 + 1) * 16 + (16 + 1) * 16));
}

TEST_CASE_TEMPLATE("MLPEvaluator: the team-level call agrees for any number of points", D, KT_DEVICES) {
  auto model = mixed_model<D>();
  kt::nn::PackedMLP<float, D> packed(model);
  const auto mlp = packed.template evaluator<64, 5>();
  using Policy = Kokkos::TeamPolicy<D>;
  const int max_team = Policy(1, 1).team_size_max(
      KOKKOS_LAMBDA(const typename Policy::member_type&){}, Kokkos::ParallelForTag());
  for (int n : {0, 1, 3, 31, 32, 33, 70, 129}) {
    CAPTURE(n);
    const auto x = kt::randn<float, D>({std::max(n, 1), 5}, /*seed=*/10 + n, 0, 2);
    const auto want = n > 0 ? batched(model, x) : std::vector<float>{};
    for (int per : {n > 0 ? n : 1, 50}) {  // one team for everything; teams of 50 (tiles of 32 + 18)
      for (int team_size : {0, 1, 2}) {    // Kokkos::AUTO, 1, and 2 threads sharing each layer's blocks
        if (team_size > max_team) continue;  // (host devices with fewer threads)
        CAPTURE(per);
        CAPTURE(team_size);
        auto got = per_team<D>(mlp, x, n, per, team_size);
        if (n == 0) {
          CHECK(got == std::vector<float>(3, -7.0f));  // nothing written
          continue;
        }
        CHECK(close(got, want, 1e-6));
      }
    }
  }
}

TEST_CASE_TEMPLATE("MLPEvaluator: 16-bit weights agree with a reference using the rounded weights", D, KT_DEVICES) {
  auto model = mixed_model<D>();
  const auto x = kt::randn<float, D>({45, 5}, /*seed=*/11, 0, 2);
  const auto exact = reference<float>(model, x.to_vector(), 5);
  kt::nn::PackedMLP<kt::half, D> half(model);
  kt::nn::PackedMLP<kt::bfloat16, D> bf16(model);
  CHECK(half.bytes() == kt::nn::PackedMLP<float, D>(model).bytes() / 2);
  const auto h = per_thread<D>(half.evaluator(), x);
  const auto b = per_thread<D>(bf16.evaluator(), x);
  CHECK(close(h, reference<kt::half>(model, x.to_vector(), 5), 2e-6));
  CHECK(close(b, reference<kt::bfloat16>(model, x.to_vector(), 5), 2e-6));
  CHECK(worst(b, exact) > 1e-4);  // the rounding is visible: the weights really are 16-bit
  CHECK(worst(h, exact) > 1e-6);
  CHECK(close(b, exact, 5e-2));
  CHECK(close(per_team<D>(bf16.evaluator(), x, 45, 45, 0), b, 1e-6));
}

TEST_CASE_TEMPLATE("PackedMLP: a snapshot of the weights, from a model on any device", D, KT_DEVICES) {
  auto model = relu_model<D>();
  const auto x = kt::randn<float, D>({8, 64}, /*seed=*/12);
  kt::nn::PackedMLP<float, D> packed(model);
  const auto mlp = packed.evaluator();
  const auto before = per_thread<D>(mlp, x);
  model.parameters()[0].data().fill_(0.5f);  // "training" after packing
  CHECK(per_thread<D>(mlp, x) == before);    // the evaluator still sees the snapshot
  CHECK(close(per_thread<D>(kt::nn::PackedMLP<float, D>(model).evaluator(), x), batched(model, x), 1e-6));
  // A double model on the host, packed for D.
  kt::nn::Sequential<double, kt::Serial> host;
  host.push_back(kt::nn::Linear<double, kt::Serial>(kt::nn::LinearOptions(3, 20).activation(kt::Activation::Tanh).seed(13)));
  host.push_back(kt::nn::Linear<double, kt::Serial>(kt::nn::LinearOptions(20, 2).seed(14)));
  const auto xh = kt::randn<double, kt::Serial>({6, 3}, /*seed=*/15);
  kt::NoGradGuard no_grad;
  const auto want = host(xh).data().to_vector();
  const auto got = per_thread<D>(kt::nn::PackedMLP<float, D>(host).evaluator(), xh.template to<float>().template to<D>());
  CHECK(close(got, want, 1e-6));
}

TEST_CASE_TEMPLATE("PackedMLP: what it cannot pack is a kt::Error naming the module", D, KT_DEVICES) {
  using kt::nn::Linear;
  using kt::nn::LinearOptions;
  using S = kt::nn::Sequential<float, D>;
  CHECK(error_of([] { kt::nn::PackedMLP<float, D>{S()}; }) ==
        "kt::nn::PackedMLP: the Sequential is empty: there is no layer to pack");
  S dropout;
  dropout.push_back(Linear<float, D>(4, 8));
  dropout.push_back(kt::nn::Dropout<float, D>(kt::nn::DropoutOptions(0.1)));
  CHECK(error_of([&] { kt::nn::PackedMLP<float, D>{dropout}; })
            .find("kt::nn::PackedMLP: module 1 (Dropout) is not supported: the evaluator takes Linear layers") == 0);
  S norm;
  norm.push_back(Linear<float, D>(4, 8));
  norm.push_back(kt::nn::LayerNorm<float, D>(kt::nn::LayerNormOptions({8})));
  CHECK(error_of([&] { kt::nn::PackedMLP<float, D>{norm}; }).find("module 1 (LayerNorm) is not supported") !=
        std::string::npos);
  S chain;
  chain.push_back(Linear<float, D>(4, 8));
  chain.push_back(Linear<float, D>(9, 2));
  CHECK(error_of([&] { kt::nn::PackedMLP<float, D>{chain}; }) ==
        "kt::nn::PackedMLP: module 1 (Linear) takes 9 inputs but the previous Linear (module 0) gives 8");
  S first;
  first.push_back(kt::nn::ReLU<float, D>());
  first.push_back(Linear<float, D>(4, 8));
  CHECK(error_of([&] { kt::nn::PackedMLP<float, D>{first}; }).find("module 0 (ReLU) comes before any Linear") !=
        std::string::npos);
  S twice;
  twice.push_back(Linear<float, D>(LinearOptions(4, 8).activation(kt::Activation::ReLU)));
  twice.push_back(kt::nn::Tanh<float, D>());
  CHECK(error_of([&] { kt::nn::PackedMLP<float, D>{twice}; }) ==
        "kt::nn::PackedMLP: module 1 (Tanh) follows Linear module 0, whose output already goes through relu "
        "(LinearOptions::activation); the evaluator applies one activation per Linear");
  S wide;
  wide.push_back(Linear<float, D>(4, 200));
  wide.push_back(Linear<float, D>(200, 1));
  kt::nn::PackedMLP<float, D> packed(wide);
  CHECK(error_of([&] { packed.evaluator(); }) ==
        "kt::nn::MLPEvaluator: layer 0 (module 0 of the Sequential) has 200 outputs, more than MaxWidth = 128; "
        "raise it: evaluator<208>() (a multiple of 16)");
  CHECK(packed.template evaluator<208>().max_width == 208);
  S deep;
  deep.push_back(Linear<float, D>(4, 4));
  for (int i = 0; i < 8; ++i) deep.push_back(Linear<float, D>(4, 4));
  CHECK(error_of([&] { kt::nn::PackedMLP<float, D>(deep).evaluator(); }) ==
        "kt::nn::MLPEvaluator: the model has 9 Linear layers, more than MaxLayers = 8; raise it: evaluator<128, 9>()");
  CHECK(kt::nn::PackedMLP<float, D>(deep).template evaluator<16, 9>().layers() == 9);
}
