// 16-bit GEMMs on the host beside fp32, side by side in one run: kt::addmm_ in fp32, and in
// bfloat16 and half (fp32 accumulation, 16-bit C) through each way kt can run them — the fp32
// BLAS on widened operands (kt/backend/impl/gemm_widen.hpp), kt's own Kokkos kernel (which
// converts while packing) and kt's heuristic choice — at the shapes of the 784-512-512-10 MLP
// at batch 256 (forward and both backward GEMMs) and at 1024^3, on 1 and 2 threads. Also the
// 16 <-> 32-bit conversion throughput of Tensor::to<dtype>() (GB/s of 16-bit data).
// In a Cuda build, also on the GPU through kt's heuristic (cuBLAS GemmEx, fp32 compute) and
// kt's own Kokkos kernel: fp32, and bfloat16 / half with a 16-bit or an fp32 C, at 4096^3
// (target: 16-bit >= 3x fp32) and the MLP's layer-1 shape.
//
//   OMP_PROC_BIND=false OMP_PLACES=threads build/bench/bench_mixed_gemm
//
// The summary prints each 16-bit variant's time as a ratio to fp32's best at that shape and
// thread count (1.00: as fast as fp32).
#include "bench_main.hpp"
#include "bench_reporter.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using Device = kt::OpenMP;

struct Gemm {
  std::int64_t m, n, k;
  bool ta, tb;
  std::string what;
  std::string name() const {
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + (ta ? "T" : "N") + (tb ? "T" : "N");
  }
  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
};

// The MLP's GEMMs at batch 256 (y = x wᵀ; dx = g w; dw = gᵀ x) and a large square one.
const std::vector<Gemm> kShapes = {
    {256, 512, 784, false, true, "layer 1 forward"},  {256, 784, 512, false, false, "layer 1 dx"},
    {512, 784, 256, true, false, "layer 1 dw"},       {256, 512, 512, false, true, "layer 2 forward"},
    {256, 10, 512, false, true, "layer 3 forward"},   {1024, 1024, 1024, false, false, "square"}};
const std::vector<int> kThreads = {1, 2};
kt_bench::Results g_results;

template <class T>
const char* dtype_tag() {
  if constexpr (std::is_same_v<T, float>) return "fp32";
  else if constexpr (std::is_same_v<T, kt::bfloat16>) return "bf16";
  else return "fp16";
}

std::string bench_name(const Gemm& g, const std::string& variant) { return "gemm/" + g.name() + "/" + variant; }

/// kt::addmm_ (C = op(A) op(B)) with operands of dtype T and an output of dtype C on device D
/// with `backend` (Auto: kt's heuristic) on `threads` (0: the device's own; a host setting).
template <class T, class D = Device, class C = T>
void kt_gemm(benchmark::State& state, Gemm g, kt::GemmBackend backend, int threads) {
  const auto a = kt::rand<float, D>(g.ta ? kt::Shape{g.k, g.m} : kt::Shape{g.m, g.k}, 1, -1, 1).template to<T>();
  const auto b = kt::rand<float, D>(g.tb ? kt::Shape{g.n, g.k} : kt::Shape{g.k, g.n}, 2, -1, 1).template to<T>();
  const auto c = kt::zeros<C, D>({g.m, g.n});
  auto options = kt::MatmulOptions().transpose_a(g.ta).transpose_b(g.tb).backend(backend);
  if (threads > 0) options.threads(threads);
  kt::addmm_(c, a, b, options);  // warm-up: first touch, thread start-up, scratch, cuBLAS handle
  D().fence();
  for (auto _ : state) {
    kt::addmm_(c, a, b, options);
    D().fence();
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(g.flops() * double(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

/// Tensor::to<To>() of 1 M elements: GB/s of the 16-bit side.
template <class To, class From>
void convert(benchmark::State& state) {
  const std::int64_t n = 1 << 20;
  const auto x = kt::rand<float, Device>({n}, 3, -100, 100).to<From>();
  for (auto _ : state) {
    auto y = x.template to<To>();
    benchmark::DoNotOptimize(y.data());
  }
  state.counters["GB/s"] = benchmark::Counter(2.0 * double(n) * double(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

const std::vector<std::pair<std::string, kt::GemmBackend>> kBackends = {
    {"blas", kt::GemmBackend::Blas}, {"kokkos", kt::GemmBackend::Kokkos}, {"heuristic", kt::GemmBackend::Auto}};

template <class T>
void register_dtype(const Gemm& g) {
  for (int t : kThreads)
    for (const auto& [tag, backend] : kBackends) {
      if (backend == kt::GemmBackend::Blas && !kt::impl::have_blas_gemm) continue;
      const std::string variant = std::string(dtype_tag<T>()) + "_" + tag + "/t" + std::to_string(t);
      benchmark::RegisterBenchmark(bench_name(g, variant).c_str(), kt_gemm<T>, g, backend, t)
          ->UseRealTime()->Unit(benchmark::kMicrosecond)->MinTime(kt_bench::min_time(0.2));
    }
}

#if defined(KOKKOS_ENABLE_CUDA)
const std::vector<Gemm> kGpuShapes = {{4096, 4096, 4096, false, false, "square"},
                                      {256, 512, 784, false, true, "layer 1 forward"}};
const std::vector<std::pair<std::string, kt::GemmBackend>> kGpuBackends = {
    {"heuristic", kt::GemmBackend::Auto}, {"kokkos", kt::GemmBackend::Kokkos}};

template <class T, class C = T>
void register_gpu(const Gemm& g, const std::string& dtype) {
  for (const auto& [tag, backend] : kGpuBackends)
    benchmark::RegisterBenchmark(bench_name(g, "cuda/" + dtype + "_" + tag).c_str(), kt_gemm<T, kt::Cuda, C>, g, backend, 0)
        ->UseRealTime()->Unit(benchmark::kMicrosecond)->MinTime(kt_bench::min_time(0.2));
}
const std::vector<std::string> kGpuDtypes = {"fp32", "bf16", "fp16", "bf16_c32", "fp16_c32"};
#endif

void register_all() {
#if defined(KOKKOS_ENABLE_CUDA)
  for (const Gemm& g : kGpuShapes) {
    register_gpu<float>(g, "fp32");
    register_gpu<kt::bfloat16>(g, "bf16");
    register_gpu<kt::half>(g, "fp16");
    register_gpu<kt::bfloat16, float>(g, "bf16_c32");
    register_gpu<kt::half, float>(g, "fp16_c32");
  }
#endif
  for (const Gemm& g : kShapes) {
    if (kt_bench::smoke() && g.flops() > 1e9) continue;
    register_dtype<float>(g);
    register_dtype<kt::bfloat16>(g);
    register_dtype<kt::half>(g);
  }
  auto conversion = [](const char* name, void (*f)(benchmark::State&)) {
    benchmark::RegisterBenchmark(name, f)->UseRealTime()->Unit(benchmark::kMicrosecond)->MinTime(kt_bench::min_time(0.2));
  };
  conversion("convert/fp32->bf16", convert<kt::bfloat16, float>);
  conversion("convert/bf16->fp32", convert<float, kt::bfloat16>);
  conversion("convert/fp32->fp16", convert<kt::half, float>);
  conversion("convert/fp16->fp32", convert<float, kt::half>);
}

void summary(const kt_bench::Results& r) {
#if defined(KOKKOS_ENABLE_CUDA)
  std::printf("\n## Summary, GPU: TFLOP/s (fp32 time / this time); c32 = fp32 C\n\n| shape | backend |");
  for (const auto& d : kGpuDtypes) std::printf(" %s |", d.c_str());
  std::printf("\n|---|---|---|---|---|---|---|\n");
  for (const Gemm& g : kGpuShapes)
    for (const auto& [tag, backend] : kGpuBackends) {
      const double fp32 = r.counter(bench_name(g, "cuda/fp32_" + tag), "GFLOP/s");
      if (!(fp32 > 0)) continue;
      std::printf("| %s | %s |", g.name().c_str(), tag.c_str());
      for (const auto& d : kGpuDtypes) {
        const double v = r.counter(bench_name(g, "cuda/" + d + "_" + tag), "GFLOP/s");
        std::printf(" %.1f (%.2fx) |", v / 1e3, v / fp32);
      }
      std::printf("\n");
    }
#endif
  std::printf("\n## Summary: 16-bit GEMM time / best fp32 time at the same shape and threads "
              "(medians when --benchmark_repetitions > 1; < 1 is faster than fp32)\n\n");
  std::printf("| shape | what | threads | fp32 best GF/s | bf16 blas | bf16 kokkos | bf16 heuristic | "
              "fp16 blas | fp16 kokkos | fp16 heuristic |\n|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Gemm& g : kShapes)
    for (int t : kThreads) {
      const std::string ts = "/t" + std::to_string(t);
      double fp32 = 0;
      for (const auto& [tag, backend] : kBackends) {
        const double v = r.counter(bench_name(g, "fp32_" + tag + ts), "GFLOP/s");
        if (v == v && v > fp32) fp32 = v;
      }
      if (fp32 == 0) continue;
      std::printf("| %s | %s | %d | %.1f |", g.name().c_str(), g.what.c_str(), t, fp32);
      for (const char* dtype : {"bf16", "fp16"})
        for (const auto& [tag, backend] : kBackends)
          std::printf(" %.2f |", fp32 / r.counter(bench_name(g, std::string(dtype) + "_" + tag + ts), "GFLOP/s"));
      std::printf("\n");
    }
  std::printf("\nConversions (GB/s of 16-bit data, 1 M elements, Tensor::to<dtype>):");
  for (const char* c : {"convert/fp32->bf16", "convert/bf16->fp32", "convert/fp32->fp16", "convert/fp16->fp32"})
    std::printf(" %s %.1f;", c + 8, r.counter(c, "GB/s"));
  std::printf("\n");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  return kt_bench::run(argc, argv, g_results, summary);
}
