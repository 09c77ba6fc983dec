// The fixed cost and the bandwidth of a kt elementwise op (c = a + b, a new tensor each
// call, as user code writes it) beside a raw Kokkos parallel_for into preallocated Views —
// the floor kt's dispatch, allocation and profiling regions sit on top of.
//
//   build/bench/bench_elementwise --benchmark_counters_tabular=true
#include "bench_main.hpp"

namespace {

template <class D>
void kt_add(benchmark::State& state) {
  const auto n = state.range(0);
  auto a = kt::rand<float, D>({n}, 1);
  auto b = kt::rand<float, D>({n}, 2);
  for (auto _ : state) {
    auto c = a + b;
    D().fence();
    benchmark::DoNotOptimize(c.data());
  }
  state.SetBytesProcessed(state.iterations() * n * 3 * static_cast<std::int64_t>(sizeof(float)));
  state.SetLabel(kt::device_name<D>());
}

template <class D>
void raw_kokkos_add(benchmark::State& state) {
  const auto n = state.range(0);
  Kokkos::View<float*, typename D::memory_space> a("a", n), b("b", n), c("c", n);
  for (auto _ : state) {
    Kokkos::parallel_for(
        "raw_add", Kokkos::RangePolicy<D>(0, n), KOKKOS_LAMBDA(std::int64_t i) { c(i) = a(i) + b(i); });
    D().fence();
    benchmark::DoNotOptimize(c.data());
  }
  state.SetBytesProcessed(state.iterations() * n * 3 * static_cast<std::int64_t>(sizeof(float)));
  state.SetLabel(kt::device_name<D>());
}

template <class D>
void kt_matmul_64(benchmark::State& state) {
  auto a = kt::rand<float, D>({64, 64}, 1);
  auto b = kt::rand<float, D>({64, 64}, 2);
  for (auto _ : state) {
    auto c = kt::matmul(a, b);
    D().fence();
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(2.0 * 64 * 64 * 64 * double(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
  state.SetLabel(kt::device_name<D>());
}

}  // namespace

BENCHMARK_TEMPLATE(kt_add, kt::Serial)->RangeMultiplier(64)->Range(64, 1 << 24);
BENCHMARK_TEMPLATE(raw_kokkos_add, kt::Serial)->RangeMultiplier(64)->Range(64, 1 << 24);
BENCHMARK_TEMPLATE(kt_matmul_64, kt::Serial);
#if defined(KOKKOS_ENABLE_OPENMP)
BENCHMARK_TEMPLATE(kt_add, kt::OpenMP)->RangeMultiplier(64)->Range(64, 1 << 24);
BENCHMARK_TEMPLATE(raw_kokkos_add, kt::OpenMP)->RangeMultiplier(64)->Range(64, 1 << 24);
BENCHMARK_TEMPLATE(kt_matmul_64, kt::OpenMP);
#endif

KT_BENCHMARK_MAIN();
