// The fused Linear layer (kt::linear_forward + kt::linear_backward, ReLU) against the unfused
// composition a user would write from kt's ops — forward: matmul, bias add by broadcasting,
// relu; backward: relu mask (compare, convert, multiply), bias gradient as a column sum, two
// matmuls — at the MLP shapes (batch, in, out). Samples/s and GFLOP/s (the three GEMMs,
// 6·batch·in·out per forward+backward; 2·batch·in·out per forward). A summary table
// (medians) at the end.
//
//   OMP_PROC_BIND=false OMP_PLACES=threads build/bench/bench_linear
//
// (medians of 5 shuffled repetitions by default, see kt_bench::default_flags). "heuristic":
// kt's size-based GEMM choice; "tuned": benchmark mode (kt::tuning).
//
// The backward pass's two products alone, as kt::linear_backward runs them (at once where the
// BLAS serves both on every thread: kt/backend/impl/gemm_pair.hpp) and in turn (two
// kt::matmul calls), with a second table of their ratio.
#define KT_USES_INTERNALS  // kt::impl::matmul_pair, the pair kt::linear_backward runs
#include "bench_main.hpp"
#include "bench_reporter.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace {

struct Layer {
  std::int64_t batch, in, out;
  std::string name() const {
    return std::to_string(batch) + "x" + std::to_string(in) + "x" + std::to_string(out);
  }
  double gemm_flops() const { return 2.0 * double(batch) * double(in) * double(out); }
};

const std::vector<Layer> kLayers = {{256, 784, 512}, {256, 512, 512}, {256, 512, 10}, {256, 256, 128},
                                   {32, 64, 64},    {32, 64, 10}};

kt_bench::Results g_results;

template <class D>
struct Operands {
  kt::Tensor<float, D> x, w, b, dy;
  explicit Operands(const Layer& l)
      : x(kt::randn<float, D>({l.batch, l.in}, 1)),
        w(kt::rand<float, D>({l.out, l.in}, 2, -0.05, 0.05)),
        b(kt::rand<float, D>({l.out}, 3, -0.05, 0.05)),
        dy(kt::randn<float, D>({l.batch, l.out}, 4)) {}
};

void set_rates(benchmark::State& state, const Layer& l, bool backward) {
  const double it = double(state.iterations());
  state.counters["samples/s"] = benchmark::Counter(double(l.batch) * it, benchmark::Counter::kIsRate);
  state.counters["GFLOP/s"] =
      benchmark::Counter((backward ? 3.0 : 1.0) * l.gemm_flops() * it / 1e9, benchmark::Counter::kIsRate);
}

template <class D>
void fused(benchmark::State& state, Layer l, bool backward, bool tuned) {
  Operands<D> o(l);
  kt::tuning::set_benchmark(tuned);
  auto step = [&] {
    auto fwd = kt::linear_forward(o.x, o.w, o.b, kt::Activation::ReLU);
    if (backward) {
      auto g = kt::linear_backward(o.dy, o.x, o.w, fwd, kt::Activation::ReLU);
      benchmark::DoNotOptimize(g.dx.data());
    }
    D().fence();
    benchmark::DoNotOptimize(fwd.output.data());
  };
  step();  // warm-up (and tuning, in benchmark mode)
  for (auto _ : state) step();
  kt::tuning::set_benchmark(false);
  set_rates(state, l, backward);
}

template <class D>
void unfused(benchmark::State& state, Layer l, bool backward, bool tuned) {
  Operands<D> o(l);
  kt::tuning::set_benchmark(tuned);
  auto step = [&] {
    auto y = kt::relu(kt::matmul(o.x, o.w, kt::MatmulOptions().transpose_b(true)) + o.b);
    if (backward) {
      auto dz = o.dy * (y > 0.0f).template to<float>();
      auto db = kt::sum(dz, 0);
      auto dw = kt::matmul(dz, o.x, kt::MatmulOptions().transpose_a(true));
      auto dx = kt::matmul(dz, o.w);
      benchmark::DoNotOptimize(db.data());
      benchmark::DoNotOptimize(dw.data());
      benchmark::DoNotOptimize(dx.data());
    }
    D().fence();
    benchmark::DoNotOptimize(y.data());
  };
  step();
  for (auto _ : state) step();
  kt::tuning::set_benchmark(false);
  set_rates(state, l, backward);
}

/// dw = dyᵀ · x and dx = dy · w alone (the heuristic's back-end), at once or in turn.
template <class D>
void gradient_products(benchmark::State& state, Layer l, bool paired) {
  Operands<D> o(l);
  const auto dw_options = kt::MatmulOptions().transpose_a(true);
  auto step = [&] {
    const auto [dw, dx] = paired ? kt::impl::matmul_pair(D(), o.dy, o.x, dw_options, o.dy, o.w, kt::MatmulOptions())
                                 : std::pair(kt::matmul(o.dy, o.x, dw_options), kt::matmul(o.dy, o.w));
    D().fence();
    benchmark::DoNotOptimize(dw.data());
    benchmark::DoNotOptimize(dx.data());
  };
  step();
  for (auto _ : state) step();
  const double it = double(state.iterations());
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * l.gemm_flops() * it / 1e9, benchmark::Counter::kIsRate);
}

std::string bench_name(const Layer& l, const std::string& variant) { return "linear/" + l.name() + "/" + variant; }

void register_all() {
  using D = kt::DefaultDevice;
  for (const Layer& l : kLayers) {
    for (bool tuned : {false, true}) {
      const std::string mode = tuned ? "tuned" : "heuristic";
      for (bool backward : {false, true}) {
        const std::string pass = backward ? "fwd+bwd" : "fwd";
        benchmark::RegisterBenchmark(bench_name(l, "fused/" + pass + "/" + mode).c_str(), fused<D>, l, backward, tuned)
            ->UseRealTime()->Unit(benchmark::kMicrosecond)->MinTime(kt_bench::min_time(0.2));
        benchmark::RegisterBenchmark(bench_name(l, "unfused/" + pass + "/" + mode).c_str(), unfused<D>, l, backward,
                                     tuned)
            ->UseRealTime()->Unit(benchmark::kMicrosecond)->MinTime(kt_bench::min_time(0.2));
      }
    }
    for (bool paired : {false, true})
      benchmark::RegisterBenchmark(bench_name(l, paired ? "grads/paired" : "grads/in-turn").c_str(),
                                   gradient_products<D>, l, paired)
          ->UseRealTime()->Unit(benchmark::kMicrosecond)->MinTime(kt_bench::min_time(0.2));
  }
}

void summary(const kt_bench::Results& r) {
  std::printf("\n## Summary: fused vs unfused Linear + ReLU on %s (medians when --benchmark_repetitions > 1)\n\n",
              kt::device_name<kt::DefaultDevice>().c_str());
  std::printf("| batch x in x out | pass | GEMM choice | fused samples/s | fused GFLOP/s | unfused samples/s | "
              "unfused GFLOP/s | fused / unfused |\n|---|---|---|---|---|---|---|---|\n");
  for (const Layer& l : kLayers)
    for (const char* pass : {"fwd", "fwd+bwd"})
      for (const char* mode : {"heuristic", "tuned"}) {
        const std::string suffix = std::string(pass) + "/" + mode;
        const double fs = r.counter(bench_name(l, "fused/" + suffix), "samples/s");
        const double us = r.counter(bench_name(l, "unfused/" + suffix), "samples/s");
        std::printf("| %s | %s | %s | %.0f | %.1f | %.0f | %.1f | %.2f |\n", l.name().c_str(), pass, mode, fs,
                    r.counter(bench_name(l, "fused/" + suffix), "GFLOP/s"), us,
                    r.counter(bench_name(l, "unfused/" + suffix), "GFLOP/s"), fs / us);
      }
  std::printf("\n## Summary: the backward pass's two products, at once (as kt::linear_backward runs them) and in "
              "turn\n\n| batch x in x out | in turn GFLOP/s | at once GFLOP/s | at once / in turn |\n|---|---|---|---|\n");
  for (const Layer& l : kLayers) {
    const double turn = r.counter(bench_name(l, "grads/in-turn"), "GFLOP/s");
    const double once = r.counter(bench_name(l, "grads/paired"), "GFLOP/s");
    std::printf("| %s | %.1f | %.1f | %.2f |\n", l.name().c_str(), turn, once, once / turn);
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  return kt_bench::run(argc, argv, g_results, summary);
}
