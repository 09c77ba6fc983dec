#pragma once
// The process-wide state behind kt/backend/tuning.hpp: the switches, the cache of tuned
// choices and its statistics.

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/backend/tuning_stats.hpp"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>

namespace kt::impl {


/// What a GEMM's choice depends on: shape, transposes, dtype, device and its thread count.
struct TuningKey {
  std::int64_t m, n, k, batch;
  bool trans_a, trans_b;
  const char* dtype;   // string literals from kt::dtype_name / the device's name()
  const char* device;
  int threads;
  bool operator==(const TuningKey& o) const {
    return m == o.m && n == o.n && k == o.k && batch == o.batch && trans_a == o.trans_a &&
           trans_b == o.trans_b && std::strcmp(dtype, o.dtype) == 0 &&
           std::strcmp(device, o.device) == 0 && threads == o.threads;
  }
  std::string str() const {
    return std::string(dtype) + " " + device + "(" + std::to_string(threads) + ") " +
           (trans_a ? "T" : "N") + (trans_b ? "T" : "N") + " m=" + std::to_string(m) +
           " n=" + std::to_string(n) + " k=" + std::to_string(k) + " batch=" + std::to_string(batch);
  }
};

struct TuningKeyHash {
  std::size_t operator()(const TuningKey& key) const {
    std::size_t h = std::hash<std::int64_t>()(key.m);
    for (std::int64_t v : {key.n, key.k, key.batch, std::int64_t(key.trans_a) * 2 + key.trans_b,
                           std::int64_t(key.threads)})
      h = h * 1000003u ^ std::hash<std::int64_t>()(v);
    for (const char* s : {key.dtype, key.device})
      for (; *s; ++s) h = h * 1000003u ^ static_cast<unsigned char>(*s);
    return h;
  }
};

/// A decision: which back-end, on how many threads, and how fast it was when timed.
struct GemmChoice {
  GemmBackend backend = GemmBackend::Auto;
  int threads = 1;
  double seconds = 0;
};

struct TuningState {
  std::atomic<bool> benchmark{false};
  std::atomic<bool> deterministic{false};
  std::mutex mutex;  // guards stats and the cache
  tuning::Stats stats;
  std::atomic<std::uint64_t> calls[5] = {};  // products run, by GemmBackend (lock-free: every call counts)
  std::unordered_map<TuningKey, GemmChoice, TuningKeyHash> cache;
  static TuningState& instance() {
    static TuningState* state = new TuningState();  // leaked: usable during static destruction
    return *state;
  }
};

}  // namespace kt::impl
