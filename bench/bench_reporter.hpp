#pragma once
// Shared pieces of kt's benchmarks that print a summary after the run: a console reporter
// that also keeps every benchmark's result (the median when --benchmark_repetitions > 1), the
// context lines (CPU, Kokkos, OpenBLAS, Eigen, threads) and a main() that prints a summary
// from the kept results once every benchmark has run.
//
//   kt_bench::Results results;   // filled during the run, read by the summary
//   int main(int argc, char** argv) {
//     return kt_bench::run(argc, argv, [&](const kt_bench::Results& r) { /* print tables */ });
//   }

#include <benchmark/benchmark.h>
#include <kt/kt.hpp>

#if defined(KT_ENABLE_EIGEN)
#include <Eigen/Core>
#endif

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace kt_bench {

/// One benchmark's kept result: real time per iteration (seconds), counters and label.
struct Result {
  double seconds = 0;
  std::map<std::string, double> counters;
  std::string label;
  bool median = false;
  std::map<std::string, double> counter_cv;  ///< coefficient of variation over repetitions (0.05 = 5%)
};

/// Every result of the run, by the name given to benchmark::RegisterBenchmark.
class Results {
public:
  void keep(const std::string& name, Result r) {
    auto it = results_.find(name);
    if (it != results_.end() && it->second.median && !r.median) return;  // medians win
    if (it != results_.end()) r.counter_cv = it->second.counter_cv;
    results_[name] = std::move(r);
  }
  void keep_cv(const std::string& name, const std::map<std::string, double>& cv) { results_[name].counter_cv = cv; }
  const Result* find(const std::string& name) const {
    auto it = results_.find(name);
    return it == results_.end() ? nullptr : &it->second;
  }
  /// The spread over repetitions of a counter (its coefficient of variation), NaN without repetitions.
  double cv(const std::string& name, const std::string& counter) const {
    const Result* r = find(name);
    if (r == nullptr) return std::numeric_limits<double>::quiet_NaN();
    auto it = r->counter_cv.find(counter);
    return it == r->counter_cv.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
  }
  /// A counter of one benchmark, NaN when that benchmark did not run (filtered out, skipped).
  double counter(const std::string& name, const std::string& counter) const {
    const Result* r = find(name);
    if (r == nullptr) return std::numeric_limits<double>::quiet_NaN();
    auto it = r->counters.find(counter);
    return it == r->counters.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
  }
  std::string label(const std::string& name) const {
    const Result* r = find(name);
    return r == nullptr ? std::string() : r->label;
  }

private:
  std::map<std::string, Result> results_;
};

/// The console reporter, also keeping each run (or its median aggregate) in a Results.
class CapturingReporter : public benchmark::ConsoleReporter {
public:
  explicit CapturingReporter(Results& results) : ConsoleReporter(OO_Tabular), results_(results) {}
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.error_occurred) continue;
      const bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
      if (run.run_type == Run::RT_Aggregate && run.aggregate_name == "cv") {
        std::map<std::string, double> cv;
        for (const auto& [name, c] : run.counters) cv[name] = c.value;
        results_.keep_cv(run.run_name.function_name, cv);
        continue;
      }
      if (run.run_type == Run::RT_Aggregate && !median) continue;
      Result r;
      // Aggregates keep the statistic of the accumulated times and the (shared) iteration count.
      r.seconds = run.iterations > 0 ? run.real_accumulated_time / double(run.iterations)
                                     : run.real_accumulated_time;
      for (const auto& [name, c] : run.counters) r.counters[name] = c.value;
      r.label = run.report_label;
      r.median = median;
      results_.keep(run.run_name.function_name, std::move(r));
    }
    ConsoleReporter::ReportRuns(runs);
  }

private:
  Results& results_;
};

/// "AMD EPYC ..." from /proc/cpuinfo (empty elsewhere).
inline std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return {};
}

/// The widest float vector the benchmark binary was compiled for (-march=native).
inline const char* simd_isa() {
#if defined(__AVX512F__)
  return "AVX-512F (16 floats)";
#elif defined(__AVX2__) && defined(__FMA__)
  return "AVX2+FMA (8 floats)";
#elif defined(__AVX__)
  return "AVX (8 floats, no FMA)";
#else
  return "SSE/other";
#endif
}

/// Context lines in Google Benchmark's header: what the numbers were measured with.
inline void add_context() {
  benchmark::AddCustomContext("cpu_model", cpu_model());
  benchmark::AddCustomContext("simd", simd_isa());
  benchmark::AddCustomContext("kokkos_version", std::to_string(KOKKOS_VERSION));
  benchmark::AddCustomContext("kt_default_device", kt::device_name<kt::DefaultDevice>());
#if defined(KOKKOS_ENABLE_OPENMP)
  benchmark::AddCustomContext("kt_openmp_threads", std::to_string(kt::device_info<kt::OpenMP>().concurrency));
#endif
#if defined(KT_ENABLE_CBLAS) && defined(KT_CBLAS_IS_OPENBLAS)
  benchmark::AddCustomContext("openblas", std::string(openblas_get_config()) + " core=" + openblas_get_corename() +
                                              " parallel=" + std::to_string(openblas_get_parallel()) +
                                              " (0 serial, 1 pthreads, 2 OpenMP)");
#else
  benchmark::AddCustomContext("openblas", "not found at configure time");
#endif
#if defined(KT_ENABLE_EIGEN)
  benchmark::AddCustomContext("eigen", std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) +
                                           "." + std::to_string(EIGEN_MINOR_VERSION) + " (SIMD: " +
                                           Eigen::SimdInstructionSetsInUse() + ")");
#else
  benchmark::AddCustomContext("eigen", "not enabled");
#endif
  for (const char* var : {"OMP_NUM_THREADS", "OMP_PROC_BIND", "OMP_PLACES"}) {
    const char* v = std::getenv(var);
    benchmark::AddCustomContext(var, v ? v : "(unset)");
  }
}

/// The flags a plain run uses unless the command line says otherwise: medians of 5 repetitions
/// whose order is shuffled across benchmarks, so a slow spell of a shared machine spreads over
/// all variants instead of hitting the ones that happened to run during it.
inline std::vector<std::string> default_flags() {
  return {"--benchmark_repetitions=5", "--benchmark_report_aggregates_only=true",
          "--benchmark_enable_random_interleaving=true"};
}

/// main(): starts Kokkos (kt::Runtime), runs the benchmarks with a CapturingReporter, then
/// calls summary(results). Sets OMP_PROC_BIND=false / OMP_PLACES=threads unless already set;
/// default_flags() come before the command line's own flags, which override them.
template <class Summary>
int run(int argc, char** argv, Results& results, Summary&& summary) {
  setenv("OMP_PROC_BIND", "false", 0);
  setenv("OMP_PLACES", "threads", 0);
  kt::Runtime runtime(argc, argv);
  std::vector<std::string> defaults = default_flags();
  std::vector<char*> args{argv[0]};
  for (auto& flag : defaults) args.push_back(flag.data());
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  int nargs = static_cast<int>(args.size());
  args.push_back(nullptr);
  benchmark::Initialize(&nargs, args.data());
  if (benchmark::ReportUnrecognizedArguments(nargs, args.data())) return 1;
  add_context();
  CapturingReporter reporter(results);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  summary(results);
  benchmark::Shutdown();
  return 0;
}

/// printf-style formatting into a std::string (for the summary tables).
template <class... Args>
std::string fmt(const char* format, Args... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, format, args...);
  return buf;
}

}  // namespace kt_bench
