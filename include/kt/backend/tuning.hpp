#pragma once
/// \file kt/backend/tuning.hpp
/// How kt chooses a GEMM implementation: `torch.backends.cudnn.benchmark` and
/// `torch.backends.cudnn.deterministic` for kt's matrix products.
///
///     kt::tuning::set_benchmark(true);      // time the candidates on the first call per shape
///     auto y = kt::matmul(x, w);            // first call of this shape: tunes, then runs the winner
///     auto z = kt::matmul(x, w);            // later calls: straight to the winner
///     kt::tuning::set_deterministic(true);  // results independent of threads and timing
///
/// Without benchmark mode a size-based heuristic picks the back-end and the thread count.

#include "kt/backend/gemm_problem.hpp"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace kt::tuning {

/// What tuning has done so far in this process.
struct Stats {
  std::uint64_t tuned = 0;           ///< problems tuned (one per distinct key)
  std::uint64_t candidate_runs = 0;  ///< timed candidate executions while tuning
  std::uint64_t reused = 0;          ///< calls served by a cached winner
};

/// One cached decision, for inspection (`kt::tuning::entries()`).
struct Entry {
  std::string key;      ///< "float32 OpenMP(2) NT m=256 n=512 k=784 batch=1"
  std::string backend;  ///< "blas", "eigen", "kokkos", "cublas"
  int threads = 0;
  double seconds = 0;   ///< the winner's best time per call while tuning
};

namespace impl {

/// What a GEMM's choice depends on: shape, transposes, dtype, device and its thread count.
struct Key {
  std::int64_t m, n, k, batch;
  bool trans_a, trans_b;
  const char* dtype;   // string literals from kt::dtype_name / the device's name()
  const char* device;
  int threads;
  bool operator==(const Key& o) const {
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

struct KeyHash {
  std::size_t operator()(const Key& key) const {
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
struct Choice {
  GemmBackend backend = GemmBackend::Auto;
  int threads = 1;
  double seconds = 0;
};

struct State {
  std::atomic<bool> benchmark{false};
  std::atomic<bool> deterministic{false};
  std::mutex mutex;  // guards stats and the cache
  Stats stats;
  std::unordered_map<Key, Choice, KeyHash> cache;
  static State& instance() {
    static State* state = new State();  // leaked: usable during static destruction
    return *state;
  }
};
}  // namespace impl

/// Turns benchmark mode on or off (off by default).
inline void set_benchmark(bool on) { impl::State::instance().benchmark = on; }
inline bool benchmark() { return impl::State::instance().benchmark; }

/// Deterministic mode: only algorithms whose results do not depend on thread count or timing
/// (kt's portable Kokkos GEMM, which never splits a sum across threads). It overrides
/// benchmark mode, whose choice itself depends on timing.
inline void set_deterministic(bool on) { impl::State::instance().deterministic = on; }
inline bool deterministic() { return impl::State::instance().deterministic; }

inline Stats stats() {
  auto& state = impl::State::instance();
  std::lock_guard<std::mutex> lock(state.mutex);
  return state.stats;
}

/// Every cached decision.
inline std::vector<Entry> entries() {
  auto& state = impl::State::instance();
  std::lock_guard<std::mutex> lock(state.mutex);
  std::vector<Entry> out;
  for (const auto& [key, choice] : state.cache)
    out.push_back(Entry{key.str(), to_string(choice.backend), choice.threads, choice.seconds});
  return out;
}

/// Forgets every decision and zeroes the statistics (the next calls tune again).
inline void clear() {
  auto& state = impl::State::instance();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.cache.clear();
  state.stats = Stats{};
}

}  // namespace kt::tuning
