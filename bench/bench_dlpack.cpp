// DLPack exchange cost (kt/interop/dlpack.hpp): what handing a kt tensor to another framework
// and taking one back costs, without the data (no copy is made; target <= 1 µs per exchange).
//
// export:     kt::to_dlpack(t) and the consumer's deleter call
// import:     kt::from_dlpack<float, D>(m) of a producer's DLManagedTensor and the release of
//             the tensor (which calls the producer's deleter)
// round_trip: kt -> DLManagedTensor -> kt tensor -> released
//
//   build/bench/bench_dlpack
#include "bench_main.hpp"

#if __has_include(<dlpack/dlpack.h>)
#include <kt/interop/dlpack.hpp>

#include <cstdint>

namespace {

using D = kt::DefaultDevice;

void export_(benchmark::State& state) {
  const auto t = kt::zeros<float, D>({256, 784});
  for (auto _ : state) {
    DLManagedTensor* m = kt::to_dlpack(t);
    benchmark::DoNotOptimize(m->dl_tensor.data);
    m->deleter(m);
  }
}
BENCHMARK(export_)->Name("export")->Unit(benchmark::kMicrosecond);

void import_(benchmark::State& state) {
  const auto t = kt::zeros<float, D>({256, 784});
  DLManagedTensor* m = kt::to_dlpack(t);
  auto* deleter = m->deleter;
  m->deleter = nullptr;  // the producer's memory outlives every import below
  for (auto _ : state) {
    auto x = kt::from_dlpack<float, D>(m);
    benchmark::DoNotOptimize(x.data());
  }
  deleter(m);
}
BENCHMARK(import_)->Name("import")->Unit(benchmark::kMicrosecond);

void round_trip(benchmark::State& state) {
  const auto t = kt::zeros<float, D>({256, 784});
  for (auto _ : state) {
    auto x = kt::from_dlpack<float, D>(kt::to_dlpack(t));
    benchmark::DoNotOptimize(x.data());
  }
}
BENCHMARK(round_trip)->Unit(benchmark::kMicrosecond);

}  // namespace
#endif

KT_BENCHMARK_MAIN();
