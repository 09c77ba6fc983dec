// DataLoader throughput: batches/s for a 60,000 x 784 float dataset with int64 labels, batch
// 256, shuffled, with 0 and 2 worker threads — the figure PyTorch 1.13's DataLoader reaches
// ~965 (0 workers) and ~510 (2 workers) batches/s for on this kind of machine. One benchmark
// iteration is one full pass (235 batches); each batch's first element is read, as a training
// step would.
//
//   build/bench/bench_loader --benchmark_counters_tabular=true
#include "bench_main.hpp"

namespace {

constexpr std::int64_t kSamples = 60000, kFeatures = 784, kBatch = 256;

const kt::TensorDataset<float, std::int64_t>& dataset() {
  static const kt::TensorDataset<float, std::int64_t> ds(
      kt::rand<float, kt::Host>({kSamples, kFeatures}, /*seed=*/0),
      kt::arange<std::int64_t, kt::Host>(double(kSamples)));
  return ds;
}

template <class D>
void loader_epoch(benchmark::State& state) {
  const int workers = static_cast<int>(state.range(0));
  auto loader = kt::make_data_loader<D>(
      dataset(), kt::DataLoaderOptions().batch_size(kBatch).shuffle(true).seed(0).num_workers(workers).prefetch(4));
  std::int64_t batches = 0;
  float sink = 0;
  for (auto _ : state) {
    for (auto [x, y] : loader) {
      sink += x.data()[0] + static_cast<float>(y.data()[0]);
      ++batches;
    }
  }
  benchmark::DoNotOptimize(sink);
  state.counters["batches/s"] = benchmark::Counter(double(batches), benchmark::Counter::kIsRate);
  state.counters["samples/s"] = benchmark::Counter(double(batches * kBatch), benchmark::Counter::kIsRate);
  state.counters["GB/s"] = benchmark::Counter(double(batches * kBatch * kFeatures * 4) / 1e9, benchmark::Counter::kIsRate);
  state.SetItemsProcessed(batches);  // items = batches
  state.SetLabel(kt::device_name<D>() + ", " + std::to_string(workers) + " workers");
}

}  // namespace

BENCHMARK_TEMPLATE(loader_epoch, kt::Serial)->Arg(0)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
#if defined(KOKKOS_ENABLE_OPENMP)
BENCHMARK_TEMPLATE(loader_epoch, kt::OpenMP)->Arg(0)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

int main(int argc, char** argv) {
  setenv("OMP_PROC_BIND", "false", 0);
  setenv("OMP_PLACES", "threads", 0);
  kt::Runtime runtime(argc, argv);
  benchmark::Initialize(&argc, argv);
  benchmark::AddCustomContext("kokkos_version", std::to_string(KOKKOS_VERSION));
  benchmark::AddCustomContext("default_device", kt::device_name<kt::DefaultDevice>());
  benchmark::AddCustomContext("host_threads", std::to_string(kt::device_info<kt::Host>().concurrency));
  benchmark::AddCustomContext("hardware_threads", std::to_string(std::thread::hardware_concurrency()));
  benchmark::AddCustomContext("dataset", "60000 x 784 float32 + int64 labels (TensorDataset), batch 256, shuffled");
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
