#pragma once
// The main() of kt's benchmarks: starts Kokkos through kt::Runtime and records the context
// (Kokkos version, devices, threads) in Google Benchmark's header.

#include <benchmark/benchmark.h>
#include <kt/kt.hpp>

#include <cstdlib>
#include <string>

namespace kt_bench {
/// True when KT_BENCH_SMOKE is set: the test suite runs every benchmark once, briefly, so that
/// none can rot; fixed iteration counts then shrink to one.
inline bool smoke() { return std::getenv("KT_BENCH_SMOKE") != nullptr; }
inline int iterations(int n) { return smoke() ? 1 : n; }
/// The minimum run time per benchmark: `seconds`, or a token 1 ms in a smoke run.
inline double min_time(double seconds) { return smoke() ? 0.001 : seconds; }
}  // namespace kt_bench

#define KT_BENCHMARK_MAIN()                                                                   \
  int main(int argc, char** argv) {                                                           \
    setenv("OMP_PROC_BIND", "false", 0);                                                      \
    setenv("OMP_PLACES", "threads", 0);                                                       \
    kt::Runtime runtime(argc, argv);                                                          \
    benchmark::Initialize(&argc, argv);                                                       \
    benchmark::AddCustomContext("kokkos_version", std::to_string(KOKKOS_VERSION));            \
    benchmark::AddCustomContext("default_device", kt::device_name<kt::DefaultDevice>());      \
    benchmark::AddCustomContext("default_device_threads",                                     \
                                std::to_string(kt::device_info<kt::DefaultDevice>().concurrency)); \
    benchmark::RunSpecifiedBenchmarks();                                                      \
    benchmark::Shutdown();                                                                    \
    return 0;                                                                                 \
  }
