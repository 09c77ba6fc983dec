// One training step — zero_grad, forward, cross-entropy, backward, optimizer step — of an MLP
// with ReLU hidden layers, kt beside its LibTorch twin (same shapes, same optimizer, same
// thread count, both in this process): 784-512-512-10 at batch 32, 256 and 1024, and
// 64-64-64-10 at batch 32 (where per-op overhead dominates). SGD with momentum (lr 0.01,
// momentum 0.9) is the headline; Adam (lr 1e-3) a second row. Reports samples/s
// (items_per_second) and prints a summary table with ms/step and the kt / LibTorch ratio.
//
//   OMP_PROC_BIND=false OMP_PLACES=threads build/bench/bench_train --threads=1
//   OMP_PROC_BIND=false OMP_PLACES=threads build/bench/bench_train --threads=2
//
// Kokkos' OpenMP pool is sized at start-up, so one process measures one thread count:
// --threads=N (default: all cores) goes to kt::RuntimeOptions().threads(N) and to
// torch::set_num_threads(N). --flush_denormal runs both with subnormal floats flushed to zero
// (kt::set_flush_denormal on the main thread and kt's pool before LibTorch starts its threads,
// which inherit it): a small MLP trained on one fixed batch drives its loss towards zero and
// makes subnormals, each a slow microcode assist. Medians of 5 shuffled repetitions by default
// (kt_bench::default_flags). The LibTorch twin is built when CMake finds LibTorch
// (KT_BENCH_HAVE_LIBTORCH); without it, the kt rows run alone. The kt side needs kt's
// training layers (kt/nn, kt/optim) and is skipped when they are absent.
//
// Names: train/<widths>/batch:<B>/{kt,libtorch} (SGD-momentum),
//        train/<widths>/batch:<B>/adam/{kt,libtorch}, and kt's forward under bf16 autocast
//        (kt::amp::autocast, fp32 master weights) beside its fp32 step:
//        train/<widths>/batch:<B>[/adam]/bf16/kt, and on a GPU also under fp16 autocast
//        (Cuda's default): .../fp16/kt; and the fp32 step through kt::StepGraph: .../graph/kt
//        (a CUDA graph on a GPU, copying each batch into the graph's inputs as PyTorch's graph
//        recipe does; the eager step under the graph's rules on host devices).
//
// On a GPU one benchmark iteration is 20 steps and one synchronisation (a step's time is then
// its share of a queue the GPU keeps busy, as a training loop sees it, and as the PyTorch twin
// scripts/train_step_pytorch.py times it); on host devices one step.
#include "bench_main.hpp"
#include "bench_reporter.hpp"

#if defined(KT_BENCH_HAVE_LIBTORCH)
#include "train_libtorch.hpp"
#endif

#if __has_include("kt/nn/sequential.hpp") && __has_include("kt/optim/sgd.hpp")
#define KT_BENCH_HAVE_KT_TRAINING 1
#include <kt/amp/autocast.hpp>
#include <kt/core/synchronize.hpp>
#include <kt/nn/linear.hpp>
#include <kt/nn/loss.hpp>
#include <kt/nn/sequential.hpp>
#include <kt/optim/adam.hpp>
#include <kt/optim/sgd.hpp>
#include <kt/tensor/step_graph.hpp>
#else
#define KT_BENCH_HAVE_KT_TRAINING 0
#endif

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace {

/// Heap allocations made on this thread (operator new, replaced below): kt's rows report the
/// step's as "allocs/step", since each costs a malloc and a free on the step's path.
thread_local std::uint64_t t_heap_allocations = 0;

}  // namespace

void* operator new(std::size_t bytes) {
  ++t_heap_allocations;
  if (void* p = std::malloc(bytes == 0 ? 1 : bytes)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

struct Config {
  std::vector<int> widths;  // {in, hidden..., classes}
  int batch;
  std::string mlp() const {
    std::string s;
    for (std::size_t i = 0; i < widths.size(); ++i) s += (i ? "-" : "") + std::to_string(widths[i]);
    return s;
  }
};

const std::vector<Config> kConfigs = {
    {{784, 512, 512, 10}, 32}, {{784, 512, 512, 10}, 256}, {{784, 512, 512, 10}, 1024}, {{64, 64, 64, 10}, 32}};
const std::vector<std::string> kOptimizers = {"sgd", "adam"};

int g_threads = 0;  // the thread count of both libraries in this process
kt_bench::Results g_results;

std::string bench_name(const Config& c, const std::string& optimizer, const std::string& impl) {
  return "train/" + c.mlp() + "/batch:" + std::to_string(c.batch) + (optimizer == "sgd" ? "" : "/" + optimizer) +
         "/" + impl;
}

/// Training steps per benchmark iteration (see the file comment).
#if KT_BENCH_HAVE_KT_TRAINING
constexpr int kStepsPerIteration = kt::is_host_accessible_v<kt::DefaultDevice> ? 1 : 20;
#else
constexpr int kStepsPerIteration = 1;
#endif

void set_counters(benchmark::State& state, const Config& c, double loss, int steps_per_iteration = 1) {
  // samples/s; ms/step is 1e3 · batch / samples/s (the Time column is per iteration)
  state.SetItemsProcessed(state.iterations() * c.batch * steps_per_iteration);
  state.counters["loss"] = loss;  // after the timed steps: both sides should be training
}

#if KT_BENCH_HAVE_KT_TRAINING
/// The forward's precision: fp32, or autocast to bfloat16 or half (fp32 master weights); or the
/// fp32 step through kt::StepGraph.
enum class Amp { off, bf16, fp16, graph };

const char* amp_tag(Amp amp) {
  return amp == Amp::bf16 ? "bf16/kt" : amp == Amp::fp16 ? "fp16/kt" : amp == Amp::graph ? "graph/kt" : "kt";
}

/// kt's training step on device D, the same network, optimizer and data recipe as the twin.
template <class D>
class KtMlpStep {
public:
  KtMlpStep(const std::vector<int>& widths, int batch, const std::string& optimizer, std::uint64_t seed, Amp amp)
      : amp_(amp) {
    for (std::size_t l = 0; l + 1 < widths.size(); ++l) {
      const bool last = l + 2 == widths.size();
      model_.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(widths[l], widths[l + 1])
                                                    .activation(last ? kt::Activation::Identity : kt::Activation::ReLU)
                                                    .seed(seed + l)));
    }
    x_ = kt::randn<float, D>({batch, widths.front()}, seed + 1000);
    std::vector<std::int64_t> labels(static_cast<std::size_t>(batch));
    std::uint64_t state = seed;
    for (auto& label : labels) {  // splitmix64: uniform class indices, no time-based seed
      std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      label = static_cast<std::int64_t>((z ^ (z >> 31)) % static_cast<std::uint64_t>(widths.back()));
    }
    labels_ = kt::from_host<std::int64_t, D>(labels, {batch});
    if (optimizer == "sgd")
      optimizer_ = std::make_unique<kt::optim::SGD<float, D>>(model_.parameters(),
                                                              kt::optim::SGDOptions(0.01).momentum(0.9));
    else
      optimizer_ = std::make_unique<kt::optim::Adam<float, D>>(model_.parameters(), kt::optim::AdamOptions(1e-3));
  }

  void step() {
    if (amp_ == Amp::graph) {
      if (!graph_) graph_ = std::make_unique<Graph>([this](const X& x, const Y& y) { return run(x, y); });
      loss_ = (*graph_)(x_, labels_);
    } else {
      loss_ = run(x_, labels_);
    }
  }

  double last_loss() const { return static_cast<double>(loss_.item()); }

private:
  using X = kt::Tensor<float, D>;
  using Y = kt::Tensor<std::int64_t, D>;
  using Graph = kt::StepGraph<D, std::function<X(const X&, const Y&)>>;

  /// zero_grad, forward under autocast when asked, cross-entropy, backward, optimizer step.
  X run(const X& x, const Y& y) {
    optimizer_->zero_grad();
    kt::Var<float, D> loss;
    if (amp_ == Amp::fp16) loss = forward<kt::half>(true, x, y);
    else loss = forward<kt::bfloat16>(amp_ == Amp::bf16, x, y);
    loss.backward();
    optimizer_->step();
    return loss.data();
  }

  /// Forward pass and loss, under autocast to H when `enabled`.
  template <class H>
  kt::Var<float, D> forward(bool enabled, const X& x, const Y& y) {
    kt::amp::autocast<D, H> guard(enabled);
    return kt::cross_entropy(model_(kt::Var<float, D>(x)), y);
  }

  kt::nn::Sequential<float, D> model_;
  std::unique_ptr<kt::optim::OptimizerBase> optimizer_;
  kt::Tensor<float, D> x_;
  kt::Tensor<std::int64_t, D> labels_;
  kt::Tensor<float, D> loss_;
  Amp amp_;
  std::unique_ptr<Graph> graph_;
};

template <class D>
void bench_kt(benchmark::State& state, Config c, std::string optimizer, Amp amp) {
  KtMlpStep<D> s(c.widths, c.batch, optimizer, 1, amp);
  for (int i = 0; i < 3 + kStepsPerIteration; ++i) s.step();  // warm-up: caching allocator, capture
  kt::synchronize<D>();
  const std::uint64_t allocations = t_heap_allocations;
  for (auto _ : state) {
    for (int i = 0; i < kStepsPerIteration; ++i) s.step();
    kt::synchronize<D>();
  }
  state.counters["allocs/step"] = static_cast<double>(t_heap_allocations - allocations) /
                                  static_cast<double>(state.iterations() * kStepsPerIteration);
  set_counters(state, c, s.last_loss(), kStepsPerIteration);
}
#endif

#if defined(KT_BENCH_HAVE_LIBTORCH)
void bench_libtorch(benchmark::State& state, Config c, std::string optimizer) {
  kt_bench::TorchMlpStep s(c.widths, c.batch, optimizer, g_threads, 1);
  for (int i = 0; i < 3; ++i) s.step();
  for (auto _ : state) s.step();
  set_counters(state, c, s.last_loss());
}
#endif

void register_all() {
  for (const auto& optimizer : kOptimizers)
    for (const Config& c : kConfigs) {
#if defined(KT_BENCH_HAVE_LIBTORCH)
      benchmark::RegisterBenchmark(bench_name(c, optimizer, "libtorch").c_str(), bench_libtorch, c, optimizer)
          ->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(kt_bench::min_time(0.3));
#endif
#if KT_BENCH_HAVE_KT_TRAINING
      // fp16 autocast on a GPU only: on the host it is bf16's arithmetic with slower conversions.
      constexpr bool gpu = !kt::is_host_accessible_v<kt::DefaultDevice>;
      for (Amp amp : {Amp::off, Amp::graph, Amp::bf16, Amp::fp16}) {
        if (amp == Amp::fp16 && !gpu) continue;
        benchmark::RegisterBenchmark(bench_name(c, optimizer, amp_tag(amp)).c_str(), bench_kt<kt::DefaultDevice>, c,
                                     optimizer, amp)
            ->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(kt_bench::min_time(0.3));
      }
#endif
    }
}

std::string cell(const char* format, double v) { return std::isnan(v) ? std::string("—") : kt_bench::fmt(format, v); }

void summary(const kt_bench::Results& r) {
  bool any = false;  // nothing ran (--benchmark_list_tests, a filter matching nothing): no table
  for (const auto& optimizer : kOptimizers)
    for (const Config& c : kConfigs)
      for (const char* impl : {"kt", "libtorch"}) any = any || r.find(bench_name(c, optimizer, impl)) != nullptr;
  if (!any) return;
  std::printf("\n## Summary: MLP training step (ReLU, fp32, cross-entropy), %d thread%s, kt on %s "
              "(medians when --benchmark_repetitions > 1)\n\n",
              g_threads, g_threads == 1 ? "" : "s", kt::device_name<kt::DefaultDevice>().c_str());
#if !defined(KT_BENCH_HAVE_LIBTORCH)
  std::printf("LibTorch was not found at configure time: its columns are empty.\n\n");
#endif
#if !KT_BENCH_HAVE_KT_TRAINING
  std::printf("kt's training layers (kt/nn, kt/optim) are not available: the kt columns are empty.\n\n");
#endif
  std::printf("| MLP | batch | optimizer | LibTorch ms/step | LibTorch samples/s | kt ms/step | kt samples/s | "
              "kt / LibTorch | target | kt StepGraph ms/step | eager time / graph time | kt bf16 autocast ms/step | "
              "bf16 time / fp32 time | kt fp16 autocast ms/step | fp16 time / fp32 time |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& optimizer : kOptimizers)
    for (const Config& c : kConfigs) {
      const double ts = r.counter(bench_name(c, optimizer, "libtorch"), "items_per_second");
      const double ks = r.counter(bench_name(c, optimizer, "kt"), "items_per_second");
      const double bs = r.counter(bench_name(c, optimizer, "bf16/kt"), "items_per_second");
      const double hs = r.counter(bench_name(c, optimizer, "fp16/kt"), "items_per_second");  // GPU only
      const double gs = r.counter(bench_name(c, optimizer, "graph/kt"), "items_per_second");
      std::string target;
      if (optimizer == "sgd" && c.mlp() == "784-512-512-10" && c.batch == 256) target = ">= 1.3 (LibTorch 1.13), >= 1.2 (2.x)";
      if (optimizer == "sgd" && c.mlp() == "64-64-64-10" && c.batch == 32) target = ">= 10, <= 0.015 ms";
      if (optimizer == "sgd" && c.mlp() == "784-512-512-10" && c.batch == 256) target += "; bf16 <= 1.1x fp32";
      std::printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c.mlp().c_str(),
                  c.batch, optimizer == "sgd" ? "SGD momentum 0.9" : "Adam", cell("%.4g", 1e3 * c.batch / ts).c_str(),
                  cell("%.0f", ts).c_str(), cell("%.4g", 1e3 * c.batch / ks).c_str(), cell("%.0f", ks).c_str(),
                  cell("%.2f", ks / ts).c_str(), target.c_str(), cell("%.4g", 1e3 * c.batch / gs).c_str(),
                  cell("%.2f", gs / ks).c_str(), cell("%.4g", 1e3 * c.batch / bs).c_str(),
                  cell("%.2f", ks / bs).c_str(), cell("%.4g", 1e3 * c.batch / hs).c_str(), cell("%.2f", ks / hs).c_str());
    }
  std::fflush(stdout);
}

/// Takes --threads=N and --flush_denormal out of argv (before Kokkos and Google Benchmark read
/// them); threads 0 when absent.
int take_own_flags(int& argc, char** argv, bool& flush_denormal) {
  int threads = 0, out = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--flush_denormal") == 0) {
      flush_denormal = true;
    } else if (std::strncmp(argv[i], "--threads=", 10) == 0) {
      threads = std::atoi(argv[i] + 10);
      if (threads < 1) {
        std::fprintf(stderr, "bench_train: --threads needs a positive count, got '%s'\n", argv[i] + 10);
        std::exit(1);
      }
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  argv[argc] = nullptr;
  return threads;
}

}  // namespace

int main(int argc, char** argv) {
  bool flush_denormal = false;
  const int threads = take_own_flags(argc, argv, flush_denormal);
  setenv("OMP_PROC_BIND", "false", 0);
  setenv("OMP_PLACES", "threads", 0);
  kt::RuntimeOptions options;
  if (threads > 0) options.threads(threads);
  kt::Runtime runtime(options);  // kt_bench::run's own guard then finds Kokkos started
  if (flush_denormal && !kt::set_flush_denormal(true)) {
    std::fprintf(stderr, "bench_train: --flush_denormal is not supported on this CPU\n");
    return 1;
  }
  benchmark::AddCustomContext("flush_denormal", flush_denormal ? "on (FTZ and DAZ)" : "off");
  g_threads = threads > 0 ? threads : static_cast<int>(kt::device_info<kt::DefaultDevice>().concurrency);
  benchmark::AddCustomContext("threads", std::to_string(g_threads) + " (kt and LibTorch)");
#if defined(KT_BENCH_KT_VERSION)
  benchmark::AddCustomContext("kt_version", KT_BENCH_KT_VERSION);
#endif
#if defined(KT_BENCH_HAVE_LIBTORCH)
  kt_bench::TorchMlpStep probe({2, 2}, 1, "sgd", g_threads, 0);  // applies the thread count before the report
  benchmark::AddCustomContext("libtorch", kt_bench::TorchMlpStep::version() + ", " + kt_bench::TorchMlpStep::config());
#else
  benchmark::AddCustomContext("libtorch", "not found at configure time: the LibTorch twin is skipped");
#endif
  benchmark::AddCustomContext("kt_training", KT_BENCH_HAVE_KT_TRAINING ? "kt::nn + kt::optim" : "not available: skipped");
  register_all();
  return kt_bench::run(argc, argv, g_results, summary);
}
