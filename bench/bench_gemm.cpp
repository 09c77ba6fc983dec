// fp32 GEMM, side by side in one run: raw OpenBLAS (cblas_sgemm), raw Eigen, kt with each
// back-end forced, kt's heuristic and kt's tuned choice (benchmark mode) — on 1 and 2
// threads, at 64^3 ... 2048^3 and the MLP shapes — beside the FMA peak of the machine
// measured by a small kernel, so every figure reads as a fraction of peak. A summary of the
// medians (tuned kt vs the best raw library, the portable kernel vs OpenBLAS) is printed at the end.
//
//   OMP_PROC_BIND=false OMP_PLACES=threads build/bench/bench_gemm
//
// A plain run reports medians of 5 repetitions, shuffled across benchmarks (see
// kt_bench::default_flags); pass --benchmark_repetitions=1 for a quick look, or
// --benchmark_filter=256x10x512 for one shape.
//
// kt's tensors live on kt::OpenMP (all its threads); the 1-thread variants are chosen with
// MatmulOptions().threads(1) (the Kokkos back-end then runs on Kokkos::Serial). Raw and kt
// runs write into a preallocated C (kt::addmm_), except kt_tuned_matmul, which allocates its
// output every call as user code does (through kt's caching allocator).
#include "bench_main.hpp"
#include "bench_reporter.hpp"

#if defined(__AVX__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace {

using Device = kt::OpenMP;  // the device kt's GEMMs run on (its thread count: all cores)

struct Gemm {
  std::int64_t m, n, k;
  std::string name() const { return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k); }
  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
};

const std::vector<Gemm> kAllShapes = {{64, 64, 64},       {128, 128, 128},   {256, 256, 256},
                                      {512, 512, 512},    {1024, 1024, 1024}, {2048, 2048, 2048},
                                      {256, 512, 784},    {256, 512, 512},   {256, 10, 512}};
// A smoke run (kt_bench::smoke) keeps the shapes below 1 GFLOP: every code path, little time.
const std::vector<Gemm> kShapes = [] {
  std::vector<Gemm> out;
  for (const Gemm& g : kAllShapes)
    if (!kt_bench::smoke() || g.flops() < 1e9) out.push_back(g);
  return out;
}();
const std::vector<int> kThreads = {1, 2};
// Tiny products whose time is mostly fixed cost: kt's dispatch beside the raw library call.
const std::vector<Gemm> kOverheadShapes = {{4, 4, 4}, {16, 16, 16}};

kt_bench::Results g_results;

void set_gflops(benchmark::State& state, double flops_per_iteration) {
  state.counters["GFLOP/s"] =
      benchmark::Counter(flops_per_iteration * double(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

// Applies the per-shape run-length policy: 2048^3 calls take 0.1-0.3 s, so those run one
// call per repetition; the rest run for at least 0.2 s per repetition.
benchmark::internal::Benchmark* configure(benchmark::internal::Benchmark* b, const Gemm& g) {
  b->UseRealTime()->Unit(benchmark::kMicrosecond);
  if (g.flops() > 4e9 || kt_bench::smoke()) b->Iterations(1);
  else b->MinTime(0.2);
  return b;
}

// ---------------------------------------------------------------------------------------
// FMA peak: Chains independent accumulator chains of the widest float vector, a = a * x + y.
// Each chain is a dependence chain (FMA latency); Chains of them in flight cover latency x
// throughput (Zen 3: 4 cycles x 2 pipes = 8; AVX-512 cores: 4 x 2 = 8), so the loop runs at
// the FMA units' throughput. ISA-specific on purpose (a benchmark of this machine).
#if defined(__AVX512F__)
typedef float vfloat __attribute__((vector_size(64)));
inline vfloat vfma(vfloat a, vfloat b, vfloat c) {
  return (vfloat)_mm512_fmadd_ps((__m512)a, (__m512)b, (__m512)c);
}
#elif defined(__AVX__)
typedef float vfloat __attribute__((vector_size(32)));
inline vfloat vfma(vfloat a, vfloat b, vfloat c) {
#if defined(__FMA__)
  return (vfloat)_mm256_fmadd_ps((__m256)a, (__m256)b, (__m256)c);
#else
  return a * b + c;
#endif
}
#else
typedef float vfloat __attribute__((vector_size(16)));
inline vfloat vfma(vfloat a, vfloat b, vfloat c) { return a * b + c; }
#endif
constexpr int kLanes = sizeof(vfloat) / sizeof(float);
constexpr int kChains = 12;                  // 12 accumulators + x + y fit 16 vector registers
constexpr std::int64_t kPeakIters = 1 << 20;  // per thread per call: ~2 ms

float fma_chains(std::int64_t iters, float seed) {
  // x and y as splats, so they stay in registers: filled lane by lane, GCC 12 keeps y in
  // memory and folds a load into every FMA, which caps this loop at ~2/3 of the FMA throughput
  // on an AVX-512 Xeon (137 against 208 GFLOP/s on one thread).
  vfloat acc[kChains];
  const vfloat x = vfloat{} + 0.999999f;
  const vfloat y = vfloat{} + 1e-6f * seed;
#if !defined(__NVCC__)  // nvcc's front end does not know GCC's pragma
#pragma GCC unroll 16
#endif
  for (int c = 0; c < kChains; ++c) acc[c] = x * float(c + 1);
  for (std::int64_t i = 0; i < iters; ++i) {
#if !defined(__NVCC__)  // nvcc's front end does not know GCC's pragma
#pragma GCC unroll 16
#endif
    for (int c = 0; c < kChains; ++c) acc[c] = vfma(acc[c], x, y);
  }
  vfloat s = acc[0];
  for (int c = 1; c < kChains; ++c) s += acc[c];
  float out = 0;
  for (int l = 0; l < kLanes; ++l) out += s[l];
  return out;
}

/// FMA peak of `threads` threads of execution space Exec (one kernel instance per thread).
template <class Exec>
void fma_peak(benchmark::State& state, int threads) {
  Kokkos::View<float*, typename Exec::memory_space> sink("kt::bench::fma_sink", threads);
  const std::int64_t iters = kPeakIters;
  for (auto _ : state) {
    Kokkos::parallel_for("kt::bench::fma_peak",
                         Kokkos::RangePolicy<Exec, Kokkos::Schedule<Kokkos::Static>>(Exec(), 0, threads),
                         [=](int t) { sink(t) = fma_chains(iters, 1.0f + t); });
    Exec().fence();
    benchmark::DoNotOptimize(sink.data());
  }
  set_gflops(state, 2.0 * kLanes * kChains * double(iters) * threads);
  state.SetLabel(std::string(Exec::name()) + ", " + std::to_string(kChains) + " chains x " +
                 std::to_string(kLanes) + " floats");
}

// ---------------------------------------------------------------------------------------
// GEMM operands: A (m, k), B (k, n), C (m, n), row-major, fp32, on Device (host memory).
struct Operands {
  kt::Tensor<float, Device> a, b, c;
  explicit Operands(const Gemm& g)
      : a(kt::rand<float, Device>({g.m, g.k}, 1, -1, 1)),
        b(kt::rand<float, Device>({g.k, g.n}, 2, -1, 1)),
        c(kt::zeros<float, Device>({g.m, g.n})) {}
};

#if defined(KT_ENABLE_CBLAS)
void raw_openblas(benchmark::State& state, Gemm g, int threads) {
  Operands x(g);
  // openblas_set_num_threads(threads) for this run, and the caller's OpenBLAS and OpenMP
  // thread counts back afterwards (OpenBLAS' OpenMP build changes omp_get_max_threads too).
  const kt::impl::BlasThreadScope thread_scope(threads);
  const int m = int(g.m), n = int(g.n), k = int(g.k);
  auto call = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, x.a.data(), k, x.b.data(), n, 0.0f,
                x.c.data(), n);
  };
  call();  // warm-up, as every variant gets
  for (auto _ : state) {
    call();
    Device().fence();
    benchmark::DoNotOptimize(x.c.data());
  }
  set_gflops(state, g.flops());
}
#endif

#if defined(KT_ENABLE_EIGEN)
void raw_eigen(benchmark::State& state, Gemm g, int threads) {
  Operands x(g);
  using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<const Matrix> a(x.a.data(), g.m, g.k), b(x.b.data(), g.k, g.n);
  Eigen::Map<Matrix> c(x.c.data(), g.m, g.n);
  Eigen::setNbThreads(threads);
  c.noalias() = a * b;  // warm-up, as every variant gets
  for (auto _ : state) {
    c.noalias() = a * b;
    Device().fence();
    benchmark::DoNotOptimize(x.c.data());
  }
  set_gflops(state, g.flops());
}
#endif

/// kt::addmm_ into a preallocated C with a forced back-end and thread count.
template <class D>
void kt_forced(benchmark::State& state, Gemm g, kt::GemmBackend backend, int threads) {
  Operands x(g);
  const auto options = kt::MatmulOptions().backend(backend).threads(threads);
  kt::addmm_(x.c, x.a, x.b, options);  // warm-up: first touch, thread start-up
  D().fence();
  for (auto _ : state) {
    kt::addmm_(x.c, x.a, x.b, options);
    D().fence();
    benchmark::DoNotOptimize(x.c.data());
  }
  set_gflops(state, g.flops());
}

kt::GemmProblem<float> problem_of(const Gemm& g) {
  kt::GemmProblem<float> p;
  p.m = g.m;
  p.n = g.n;
  p.k = g.k;
  return p;
}

/// kt::addmm_ with kt's heuristic choice (benchmark mode off).
template <class D>
void kt_heuristic(benchmark::State& state, Gemm g) {
  Operands x(g);
  kt::tuning::set_benchmark(false);
  kt::addmm_(x.c, x.a, x.b);
  D().fence();
  for (auto _ : state) {
    kt::addmm_(x.c, x.a, x.b);
    D().fence();
    benchmark::DoNotOptimize(x.c.data());
  }
  set_gflops(state, g.flops());
  const auto choice = kt::impl::gemm_heuristic<D>(problem_of(g), int(D().concurrency()));
  state.SetLabel(std::string("heuristic: ") + kt::to_string(choice.backend) + "/t" + std::to_string(choice.threads));
}

/// The tuner's cached decision for this shape, as "blas/t2".
std::string tuned_choice(const Gemm& g) {
  const std::string tail = " NN m=" + std::to_string(g.m) + " n=" + std::to_string(g.n) + " k=" +
                           std::to_string(g.k) + " batch=1";
  for (const auto& e : kt::tuning::entries())
    if (e.key.rfind("float32 ", 0) == 0 && e.key.size() >= tail.size() &&
        e.key.compare(e.key.size() - tail.size(), tail.size(), tail) == 0)
      return e.backend + "/t" + std::to_string(e.threads);
  return "?";
}

/// kt's tuned choice (benchmark mode): addmm_ into a preallocated C, or matmul allocating its
/// output. The first call of a shape tunes (outside the timed loop); later calls reuse it.
template <class D>
void kt_tuned(benchmark::State& state, Gemm g, bool allocate) {
  Operands x(g);
  kt::tuning::set_benchmark(true);
  kt::addmm_(x.c, x.a, x.b);  // tunes on the first visit of this shape
  D().fence();
  if (allocate) {
    for (auto _ : state) {
      auto c = kt::matmul(x.a, x.b);
      D().fence();
      benchmark::DoNotOptimize(c.data());
    }
  } else {
    for (auto _ : state) {
      kt::addmm_(x.c, x.a, x.b);
      D().fence();
      benchmark::DoNotOptimize(x.c.data());
    }
  }
  kt::tuning::set_benchmark(false);
  set_gflops(state, g.flops());
  state.SetLabel("tuned: " + tuned_choice(g));
}

std::string bench_name(const Gemm& g, const std::string& variant) { return "gemm/" + g.name() + "/" + variant; }
std::string overhead_name(const Gemm& g, const std::string& variant) {
  return "overhead/" + g.name() + "/" + variant;
}

void register_all() {
  for (int t : kThreads) {
    std::string name = "fma_peak/t" + std::to_string(t);
    benchmark::internal::Benchmark* b;
#if defined(KOKKOS_ENABLE_SERIAL)
    if (t == 1)
      b = benchmark::RegisterBenchmark(name.c_str(), [](benchmark::State& s) { fma_peak<Kokkos::Serial>(s, 1); });
    else
#endif
      b = benchmark::RegisterBenchmark(name.c_str(), [t](benchmark::State& s) { fma_peak<Device>(s, t); });
    b->UseRealTime()->Unit(benchmark::kMicrosecond)->MinTime(kt_bench::min_time(0.2));
  }
  for (const Gemm& g : kShapes) {
    for (int t : kThreads) {
      const std::string ts = "/t" + std::to_string(t);
#if defined(KT_ENABLE_CBLAS)
      configure(benchmark::RegisterBenchmark(bench_name(g, "openblas" + ts).c_str(), raw_openblas, g, t), g);
#endif
#if defined(KT_ENABLE_EIGEN)
      configure(benchmark::RegisterBenchmark(bench_name(g, "eigen" + ts).c_str(), raw_eigen, g, t), g);
#endif
    }
    for (int t : kThreads) {
      const std::string ts = "/t" + std::to_string(t);
      if (kt::impl::have_blas_gemm)
        configure(benchmark::RegisterBenchmark(bench_name(g, "kt_blas" + ts).c_str(), kt_forced<Device>, g,
                                               kt::GemmBackend::Blas, t), g);
      if (kt::impl::have_eigen_gemm)
        configure(benchmark::RegisterBenchmark(bench_name(g, "kt_eigen" + ts).c_str(), kt_forced<Device>, g,
                                               kt::GemmBackend::Eigen, t), g);
      configure(benchmark::RegisterBenchmark(bench_name(g, "kt_kokkos" + ts).c_str(), kt_forced<Device>, g,
                                             kt::GemmBackend::Kokkos, t), g);
    }
    configure(benchmark::RegisterBenchmark(bench_name(g, "kt_heuristic").c_str(), kt_heuristic<Device>, g), g);
    configure(benchmark::RegisterBenchmark(bench_name(g, "kt_tuned_addmm").c_str(), kt_tuned<Device>, g, false), g);
    configure(benchmark::RegisterBenchmark(bench_name(g, "kt_tuned_matmul").c_str(), kt_tuned<Device>, g, true), g);
  }
  for (const Gemm& g : kOverheadShapes) {
#if defined(KT_ENABLE_CBLAS)
    configure(benchmark::RegisterBenchmark(overhead_name(g, "openblas/t1").c_str(), raw_openblas, g, 1), g);
#endif
#if defined(KT_ENABLE_EIGEN)
    configure(benchmark::RegisterBenchmark(overhead_name(g, "eigen/t1").c_str(), raw_eigen, g, 1), g);
#endif
    if (kt::impl::have_blas_gemm)
      configure(benchmark::RegisterBenchmark(overhead_name(g, "kt_blas/t1").c_str(), kt_forced<Device>, g,
                                             kt::GemmBackend::Blas, 1), g);
    if (kt::impl::have_eigen_gemm)
      configure(benchmark::RegisterBenchmark(overhead_name(g, "kt_eigen/t1").c_str(), kt_forced<Device>, g,
                                             kt::GemmBackend::Eigen, 1), g);
    configure(benchmark::RegisterBenchmark(overhead_name(g, "kt_kokkos/t1").c_str(), kt_forced<Device>, g,
                                           kt::GemmBackend::Kokkos, 1), g);
    configure(benchmark::RegisterBenchmark(overhead_name(g, "kt_heuristic").c_str(), kt_heuristic<Device>, g), g);
    configure(benchmark::RegisterBenchmark(overhead_name(g, "kt_tuned_addmm").c_str(), kt_tuned<Device>, g, false), g);
    configure(benchmark::RegisterBenchmark(overhead_name(g, "kt_tuned_matmul").c_str(), kt_tuned<Device>, g, true), g);
  }
}

// ---------------------------------------------------------------------------------------
// The summary: medians of this run, as markdown tables (docs/performance.md takes them as is).
void summary(const kt_bench::Results& r) {
  auto gf = [&](const Gemm& g, const std::string& v) { return r.counter(bench_name(g, v), "GFLOP/s"); };
  const double peak[3] = {0, r.counter("fma_peak/t1", "GFLOP/s"), r.counter("fma_peak/t2", "GFLOP/s")};
  std::printf("\n## Summary (GFLOP/s; medians when --benchmark_repetitions > 1)\n\n");
  std::printf("FMA peak: %.1f GFLOP/s on 1 thread, %.1f on 2 threads (%s).\n\n", peak[1], peak[2],
              kt_bench::simd_isa());
  auto pct = [&](double v, int t) { return 100.0 * v / peak[t]; };

  std::printf("### Tuned kt vs the best raw library (target: tuned >= 0.95 x best raw)\n\n");
  std::printf("| shape MxNxK | best raw (lib/threads) | best raw GF/s | %% peak | kt tuned choice | "
              "tuned addmm_ GF/s | ratio | tuned matmul GF/s | ratio | %% peak | heuristic (choice) GF/s | "
              "ratio | noise (max CV) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Gemm& g : kShapes) {
    std::string best_name = "-";
    double best = 0;
    int best_t = 2;
    for (const char* lib : {"openblas", "eigen"})
      for (int t : kThreads) {
        const double v = gf(g, std::string(lib) + "/t" + std::to_string(t));
        if (v == v && v > best) {
          best = v;
          best_name = std::string(lib) + "/t" + std::to_string(t);
          best_t = t;
        }
      }
    auto after = [](const std::string& label, std::size_t n) { return label.size() > n ? label.substr(n) : "?"; };
    const std::string choice = after(r.label(bench_name(g, "kt_tuned_addmm")), 7);  // drops "tuned: "
    const int tuned_t = choice.find("/t1") != std::string::npos ? 1 : 2;
    const double add = gf(g, "kt_tuned_addmm"), mm = gf(g, "kt_tuned_matmul"), heur = gf(g, "kt_heuristic");
    double noise = 0;
    for (const char* v : {"openblas/t1", "openblas/t2", "eigen/t1", "eigen/t2", "kt_tuned_addmm", "kt_tuned_matmul"}) {
      const double cv = r.cv(bench_name(g, v), "GFLOP/s");
      if (cv == cv) noise = std::max(noise, cv);
    }
    std::printf("| %s | %s | %.1f | %.0f%% | %s | %.1f | %.2f | %.1f | %.2f | %.0f%% | %.1f (%s) | %.2f | %.0f%% |\n",
                g.name().c_str(), best_name.c_str(), best, pct(best, best_t),
                choice.c_str(), add, add / best, mm, mm / best,
                pct(mm, tuned_t), heur, after(r.label(bench_name(g, "kt_heuristic")), 11).c_str(), heur / best, 100 * noise);
  }

  std::printf("\n### kt's portable Kokkos kernel vs OpenBLAS at the same thread count "
              "(target: >= 0.35 at 1024^3 on OpenMP)\n\n");
  std::printf("| shape MxNxK | OpenBLAS t1 | Kokkos t1 (Serial) | ratio | %% peak | OpenBLAS t2 | "
              "Kokkos t2 (OpenMP) | ratio | %% peak |\n|---|---|---|---|---|---|---|---|---|\n");
  for (const Gemm& g : kShapes) {
    const double b1 = gf(g, "openblas/t1"), k1 = gf(g, "kt_kokkos/t1");
    const double b2 = gf(g, "openblas/t2"), k2 = gf(g, "kt_kokkos/t2");
    std::printf("| %s | %.1f | %.1f | %.2f | %.0f%% | %.1f | %.1f | %.2f | %.0f%% |\n", g.name().c_str(), b1, k1,
                k1 / b1, pct(k1, 1), b2, k2, k2 / b2, pct(k2, 2));
  }

  std::printf("\n### Every variant (GFLOP/s)\n\n| shape MxNxK |");
  const std::vector<std::string> variants = {"openblas/t1", "openblas/t2", "eigen/t1",      "eigen/t2",
                                             "kt_blas/t1",  "kt_blas/t2",  "kt_eigen/t1",   "kt_eigen/t2",
                                             "kt_kokkos/t1", "kt_kokkos/t2", "kt_heuristic", "kt_tuned_addmm",
                                             "kt_tuned_matmul"};
  for (const auto& v : variants) std::printf(" %s |", v.c_str());
  std::printf("\n|---|");
  for (std::size_t i = 0; i < variants.size(); ++i) std::printf("---|");
  std::printf("\n");
  for (const Gemm& g : kShapes) {
    std::printf("| %s |", g.name().c_str());
    for (const auto& v : variants) std::printf(" %.1f |", gf(g, v));
    std::printf("\n");
  }

  std::printf("\n### kt back-end forced vs the same library called raw (kt / raw)\n\n"
              "| shape MxNxK | blas t1 | blas t2 | eigen t1 | eigen t2 |\n|---|---|---|---|---|\n");
  for (const Gemm& g : kShapes)
    std::printf("| %s | %.3f | %.3f | %.3f | %.3f |\n", g.name().c_str(), gf(g, "kt_blas/t1") / gf(g, "openblas/t1"),
                gf(g, "kt_blas/t2") / gf(g, "openblas/t2"), gf(g, "kt_eigen/t1") / gf(g, "eigen/t1"),
                gf(g, "kt_eigen/t2") / gf(g, "eigen/t2"));

  std::printf("\n### Fixed cost: time per call (us) of tiny products, kt beside the raw library\n\n"
              "| shape | raw OpenBLAS t1 | kt blas t1 | raw Eigen t1 | kt eigen t1 | kt kokkos t1 | kt heuristic | "
              "kt tuned addmm_ (choice) | kt tuned matmul |\n|---|---|---|---|---|---|---|---|---|\n");
  for (const Gemm& g : kOverheadShapes) {
    auto us = [&](const std::string& v) {
      const kt_bench::Result* res = r.find(overhead_name(g, v));
      return res ? res->seconds * 1e6 : std::numeric_limits<double>::quiet_NaN();
    };
    const std::string label = r.label(overhead_name(g, "kt_tuned_addmm"));
    std::printf("| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f (%s) | %.2f |\n", g.name().c_str(),
                us("openblas/t1"), us("kt_blas/t1"), us("eigen/t1"), us("kt_eigen/t1"), us("kt_kokkos/t1"),
                us("kt_heuristic"), us("kt_tuned_addmm"), label.size() > 7 ? label.substr(7).c_str() : "?",
                us("kt_tuned_matmul"));
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  return kt_bench::run(argc, argv, g_results, summary);
}
