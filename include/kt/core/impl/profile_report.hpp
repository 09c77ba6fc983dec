#pragma once
// kt::Profiler's outputs from a ProfileRecorder: the key_averages rows, the table and the
// Chrome trace (the JSON "Trace Event Format" that chrome://tracing and Perfetto open).

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/json_quote.hpp"
#include "kt/core/impl/profile_recorder.hpp"
#include "kt/core/profile_row.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace kt::impl {

/// One row per (name, kind, device) that has finished at least once, heaviest first by `sort`.
KT_INLINE_UNLESS_COMPILED std::vector<ProfileRow> profile_rows(const ProfileRecorder& r, ProfileSort sort);

/// torch.profiler's key_averages().table(): the heaviest rows, then the totals.
KT_INLINE_UNLESS_COMPILED std::string profile_table(const std::vector<ProfileRow>& rows, std::size_t row_limit,
                                                    std::size_t dropped);

/// Complete events ("ph": "X") in microseconds, one row (tid) per host thread.
KT_INLINE_UNLESS_COMPILED std::string profile_chrome_trace(const ProfileRecorder& r);

// Defined once in kt_compiled when it is linked (kt/core/impl/compiled.hpp).
#if !defined(KT_COMPILED) || defined(KT_COMPILED_DEFINES_CORE)

KT_INLINE_UNLESS_COMPILED std::vector<ProfileRow> profile_rows(const ProfileRecorder& r, ProfileSort sort) {
  std::vector<ProfileRow> rows;
  for (std::size_t i = 0; i < r.keys().size(); ++i) {
    const ProfileKey& k = r.keys()[i];
    const ProfileStat& s = r.stats()[i];
    if (s.count == 0) continue;  // still open
    rows.push_back(ProfileRow{k.name, profile_kind_name(k.kind), k.device, s.count, s.total_ns * 1e-6,
                              s.self_ns * 1e-6, s.total_ns * 1e-3 / s.count, s.min_ns * 1e-3, s.max_ns * 1e-3,
                              s.bytes});
  }
  // Heaviest first, ties in the recorder's order: a sort of (measure, index) pairs, a total
  // order. std::stable_sort of the rows themselves (three strings each) costs 20 KB more machine
  // code (g++ 12 -O3) in every file that profiles, header-only.
  std::vector<std::pair<double, std::size_t>> order(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ProfileRow& row = rows[i];
    order[i] = {sort == ProfileSort::Count ? double(row.count) : sort == ProfileSort::Self ? row.self_ms : row.total_ms, i};
  }
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  });
  std::vector<ProfileRow> sorted;
  sorted.reserve(rows.size());
  for (const auto& entry : order) sorted.push_back(std::move(rows[entry.second]));
  return sorted;
}

KT_INLINE_UNLESS_COMPILED std::string profile_table(const std::vector<ProfileRow>& rows, std::size_t row_limit,
                                                    std::size_t dropped) {
  double self_sum = 0;
  for (const auto& row : rows) self_sum += row.self_ms;
  std::size_t width = 4;
  const std::size_t shown = row_limit == 0 ? rows.size() : std::min(rows.size(), row_limit);
  for (std::size_t i = 0; i < shown; ++i) width = std::max(width, std::min<std::size_t>(rows[i].name.size(), 60));
  std::ostringstream os;
  char line[512];
  std::snprintf(line, sizeof line, "%-*s  %-6s  %-12s  %8s  %10s  %10s  %7s  %10s  %10s  %10s\n", int(width), "Name",
                "Kind", "Device", "Calls", "Total ms", "Self ms", "Self %", "Avg us", "Min us", "Max us");
  os << line << std::string(width + 100, '-') << "\n";
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& r = rows[i];
    const std::string name = r.name.size() > width ? r.name.substr(0, width - 3) + "..." : r.name;
    std::snprintf(line, sizeof line, "%-*s  %-6s  %-12s  %8lld  %10.3f  %10.3f  %6.1f%%  %10.2f  %10.2f  %10.2f\n",
                  int(width), name.c_str(), r.kind.c_str(), r.device.c_str(), static_cast<long long>(r.count),
                  r.total_ms, r.self_ms, self_sum > 0 ? 100.0 * r.self_ms / self_sum : 0.0, r.avg_us, r.min_us,
                  r.max_us);
    os << line;
  }
  if (shown < rows.size()) os << "... " << rows.size() - shown << " more rows\n";
  std::snprintf(line, sizeof line, "Self time total: %.3f ms", self_sum);
  os << line;
  if (dropped > 0) os << "; " << dropped << " events beyond max_trace_events were counted but not traced";
  os << "\n";
  return os.str();
}

KT_INLINE_UNLESS_COMPILED std::string profile_chrome_trace(const ProfileRecorder& r) {
  std::ostringstream os;
  os.precision(3);
  os << std::fixed << "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [";
  bool first = true;
  for (const ProfileEvent& e : r.events()) {
    const ProfileKey& k = r.keys()[static_cast<std::size_t>(e.key)];
    os << (first ? "\n" : ",\n") << "{\"name\": " << json_quote(k.name) << ", \"cat\": \""
       << profile_kind_name(k.kind) << "\", \"ph\": \"X\", \"ts\": " << e.start_ns * 1e-3
       << ", \"dur\": " << e.duration_ns * 1e-3 << ", \"pid\": 0, \"tid\": " << e.thread;
    if (!k.device.empty()) os << ", \"args\": {\"device\": " << json_quote(k.device) << "}";
    os << "}";
    first = false;
  }
  os << "\n]}\n";
  return os.str();
}

#endif

}  // namespace kt::impl
