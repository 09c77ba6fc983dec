// safetensors reading: the header parse at 10^3 .. 10^6 tensors (it must grow linearly), and
// what checksum verification costs a load from the page cache.
//
// header_parse/N: load_safetensors of a file whose header lists N one-byte tensors (~72 bytes
// of JSON each; 10^6 is a 72 MB header). Counter: ns per tensor, flat across N when the parse
// is linear (caches make it grow somewhat with the header's size).
//
// load_verify_cost: a 64 MB file of eight F32 tensors in the page cache, every tensor read
// with get<float>() unverified and then verified (XXH64 over each block as it arrives),
// interleaved in each iteration so that load drifts hit both alike. Counters: GB/s of each and
// the verification's cost in % of the unverified load (target <= 10%), from the sums and from
// each mode's fastest round.
//
//   build/bench/bench_io --benchmark_counters_tabular=true
#include "bench_main.hpp"

#include <kt/io/safetensors.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace {

std::string bench_file(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("kt_bench_io_" + std::to_string(::getpid()) + "_" + name)).string();
}

/// A file of n one-byte tensors (written once per n).
const std::string& header_file(std::int64_t n) {
  static std::map<std::int64_t, std::string> files;
  auto& path = files[n];
  if (path.empty()) {
    std::string json = "{";
    for (std::int64_t i = 0; i < n; ++i) {
      const std::string at = std::to_string(i);
      json += (i ? ",\"t" : "\"t") + at + R"(":{"dtype":"U8","shape":[1],"data_offsets":[)" + at + "," +
              std::to_string(i + 1) + "]}";
    }
    json += "}";
    path = bench_file("header_" + std::to_string(n));
    std::ofstream out(path, std::ios::binary);
    for (int b = 0; b < 8; ++b) out.put(static_cast<char>((json.size() >> (8 * b)) & 0xff));
    out << json << std::string(static_cast<std::size_t>(n), 'x');
  }
  return path;
}

void header_parse(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const std::string& path = header_file(n);
  double seconds = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto file = kt::io::load_safetensors(path);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    benchmark::DoNotOptimize(file.contains("t0"));
  }
  state.counters["ns_per_tensor"] = seconds * 1e9 / static_cast<double>(state.iterations()) / static_cast<double>(n);
}
BENCHMARK(header_parse)->RangeMultiplier(10)->Range(1000, 1000000)->Unit(benchmark::kMillisecond)->UseRealTime();

void load_verify_cost(benchmark::State& state) {
  const std::string path = bench_file("verify.safetensors");
  constexpr std::int64_t per_tensor = std::int64_t{2} << 20;  // 8 MB of float
  kt::io::NamedTensors tensors;
  for (int i = 0; i < 8; ++i) tensors.add("w" + std::to_string(i), kt::randn<float, kt::Host>({per_tensor}, 1 + i));
  kt::io::save_safetensors(path, tensors);
  const auto plain = kt::io::load_safetensors(path, kt::io::SafetensorsOptions().verify_checksums(false));
  const auto checked = kt::io::load_safetensors(path);
  const auto load_all = [](const kt::io::SafetensorsFile& f) {
    const auto t0 = std::chrono::steady_clock::now();
    for (const auto& name : f.names()) benchmark::DoNotOptimize(f.get<float>(name).data());
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  load_all(plain);  // into the page cache
  double sum_plain = 0, sum_checked = 0, min_plain = 1e30, min_checked = 1e30;
  for (auto _ : state) {
    const double p = load_all(plain), c = load_all(checked);
    sum_plain += p;
    sum_checked += c;
    min_plain = std::min(min_plain, p);
    min_checked = std::min(min_checked, c);
  }
  const double bytes = 8.0 * per_tensor * sizeof(float), rounds = static_cast<double>(state.iterations());
  state.counters["unverified_GBps"] = bytes * rounds / sum_plain * 1e-9;
  state.counters["verified_GBps"] = bytes * rounds / sum_checked * 1e-9;
  state.counters["cost_pct"] = (sum_checked / sum_plain - 1) * 100;
  state.counters["min_cost_pct"] = (min_checked / min_plain - 1) * 100;
  std::remove(path.c_str());
}
BENCHMARK(load_verify_cost)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(kt_bench::min_time(2.0));

}  // namespace

KT_BENCHMARK_MAIN();
