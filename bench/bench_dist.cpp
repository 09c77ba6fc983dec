// kt::dist under MPI (run with mpiexec -n 2 ... ; docs/distributed.md has the command):
//
//  * BM_AllReduce/<bytes>: kt::dist::all_reduce of a float host tensor against raw
//    MPI_Allreduce on the same buffer size, interleaved in every iteration (raw first, then kt,
//    each between barriers); the reported time is kt's, with counters kt_us, raw_us and
//    kt_vs_raw (raw time / kt time: kt's share of raw bandwidth, 1.0 = equal).
//  * BM_DDPStep/<batch>: one training step of 784-512-512-10 (SGD) through
//    DistributedDataParallel; counters from the reducer's timestamps: allreduce_ms (sum over
//    buckets of start -> completion), exposed_ms (backward's end -> all gradients averaged)
//    and overlap (the share of all-reduce time that ran while backward was still computing).
//
// Iteration counts are fixed (every rank must run the same number of collectives); rank 0
// reports, the other ranks run silently.
#include "bench_main.hpp"

#include <kt/dist/dist.hpp>

#include <mpi.h>

#include <memory>
#include <vector>

namespace {

double seconds_between_barriers(MPI_Comm comm, const std::function<void()>& op) {
  MPI_Barrier(comm);
  const double t0 = MPI_Wtime();
  op();
  double elapsed = MPI_Wtime() - t0, slowest = 0;
  MPI_Allreduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);  // the collective's time is the last rank's
  return slowest;
}

void BM_AllReduce(benchmark::State& state) {
  const auto& world = kt::dist::world();
  const std::int64_t n = state.range(0) / 4;
  auto tensor = kt::ones<float, kt::Host>({n});
  std::vector<float> raw(static_cast<std::size_t>(n), 1.0f);
  MPI_Comm raw_comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &raw_comm);
  double kt_total = 0, raw_total = 0;
  for (auto _ : state) {
    raw_total += seconds_between_barriers(raw_comm, [&] {
      MPI_Allreduce(MPI_IN_PLACE, raw.data(), static_cast<int>(n), MPI_FLOAT, MPI_SUM, raw_comm);
    });
    const double kt_s = seconds_between_barriers(world.comm(), [&] { kt::dist::all_reduce(tensor); });
    kt_total += kt_s;
    state.SetIterationTime(kt_s);
  }
  MPI_Comm_free(&raw_comm);
  const double iters = static_cast<double>(state.iterations());
  state.SetBytesProcessed(state.iterations() * state.range(0));
  state.counters["kt_us"] = 1e6 * kt_total / iters;
  state.counters["raw_us"] = 1e6 * raw_total / iters;
  state.counters["kt_vs_raw"] = raw_total / kt_total;
}
BENCHMARK(BM_AllReduce)->Arg(4 << 10)->Arg(64 << 10)->Arg(1 << 20)->Arg(4 << 20)->Arg(16 << 20)
    ->Iterations(kt_bench::iterations(50))->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_DDPStep(benchmark::State& state) {
  using D = kt::DefaultDevice;
  const std::int64_t batch = state.range(0);
  kt::nn::Sequential<float, D> model;
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(784, 512).activation(kt::Activation::ReLU).seed(1)));
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(512, 512).activation(kt::Activation::ReLU).seed(2)));
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(512, 10).seed(3)));
  kt::dist::DistributedDataParallel ddp(model);
  kt::optim::SGD<float, D> opt(model.parameters(), kt::optim::SGDOptions(0.01));
  const auto x = kt::randn<float, D>({batch, 784}, 11 + static_cast<std::uint64_t>(kt::dist::world().rank()));
  const auto y = kt::randint<std::int64_t, D>(0, 10, {batch}, 12);
  double allreduce = 0, exposed = 0, overlap = 0;
  for (auto _ : state) {
    const double s = seconds_between_barriers(kt::dist::world().comm(), [&] {
      auto loss = kt::cross_entropy(ddp(kt::Var<float, D>(x)), y);
      opt.zero_grad();
      loss.backward();
      opt.step();
      Kokkos::fence();
    });
    state.SetIterationTime(s);
    const auto& t = ddp.last_sync_timings();
    for (const auto& b : t.buckets) allreduce += b.completed - b.started;
    exposed += t.finished - t.backward_end;
    overlap += t.overlap_fraction();
  }
  const double iters = static_cast<double>(state.iterations());
  state.counters["buckets"] = static_cast<double>(ddp.bucket_count());
  state.counters["allreduce_ms"] = 1e3 * allreduce / iters;
  state.counters["exposed_ms"] = 1e3 * exposed / iters;
  state.counters["overlap"] = overlap / iters;
}
BENCHMARK(BM_DDPStep)->Arg(128)->Arg(256)->Iterations(kt_bench::iterations(30))->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// Rank 0 reports; the others discard their (identical-length) runs.
class Silent : public benchmark::BenchmarkReporter {
public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

}  // namespace

int main(int argc, char** argv) {
  setenv("OMP_PROC_BIND", "false", 0);
  setenv("OMP_PLACES", "threads", 0);
  auto mpi = kt::dist::init(argc, argv);
  kt::Runtime runtime(kt::dist::runtime_options());
  benchmark::Initialize(&argc, argv);
  benchmark::AddCustomContext("ranks", std::to_string(kt::dist::world().size()));
  benchmark::AddCustomContext("default_device", kt::device_name<kt::DefaultDevice>());
  benchmark::AddCustomContext("threads_per_rank", std::to_string(kt::device_info<kt::DefaultDevice>().concurrency));
  if (kt::dist::world().rank() == 0) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    Silent silent;
    benchmark::RunSpecifiedBenchmarks(&silent);
  }
  benchmark::Shutdown();
  return 0;
}
