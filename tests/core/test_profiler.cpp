// kt::Profiler: counts and times of regions, kernels and copies for a known small program,
// the table, a Chrome trace that is valid JSON, and its errors.

#include "kt_test.hpp"

#include <kt/core/profiler.hpp>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>

namespace {

template <class D>
struct Scale {
  Kokkos::View<double*, typename D::memory_space> x;
  KOKKOS_INLINE_FUNCTION void operator()(int i) const { x(i) *= 2.0; }
};

template <class D>
struct Total {
  Kokkos::View<double*, typename D::memory_space> x;
  KOKKOS_INLINE_FUNCTION void operator()(int i, double& sum) const { sum += x(i); }
};

// The known program: region "outer" holding two "inner" regions, 3 kernels "test::scale", 2
// reductions "test::total", 1 host-to-device copy of 8000 bytes.
template <class D>
double known_program() {
  Kokkos::View<double*, typename D::memory_space> x("test::x", 1000);
  auto host = Kokkos::create_mirror_view(x);
  for (int i = 0; i < 1000; ++i) host(i) = 1.0;
  kt::ScopedRegion outer("outer");
  Kokkos::deep_copy(x, host);
  double sum = 0;
  for (int i = 0; i < 2; ++i) {
    kt::ScopedRegion inner("inner");
    Kokkos::parallel_for("test::scale", Kokkos::RangePolicy<D>(0, 1000), Scale<D>{x});
    Kokkos::parallel_reduce("test::total", Kokkos::RangePolicy<D>(0, 1000), Total<D>{x}, sum);
  }
  Kokkos::parallel_for("test::scale", Kokkos::RangePolicy<D>(0, 1000), Scale<D>{x});
  return sum;
}

std::map<std::string, kt::ProfileRow> by_name(const std::vector<kt::ProfileRow>& rows) {
  std::map<std::string, kt::ProfileRow> out;
  for (const auto& row : rows) out[row.kind + ":" + row.name] = row;
  return out;
}

}  // namespace

TEST_CASE_TEMPLATE("the profiler counts the regions, kernels and copies of a known program", D, KT_DEVICES) {
  kt::Profiler profiler;
  CHECK(known_program<D>() == 4000.0);  // (1000 * 2) then (1000 * 4)
  profiler.stop();
  known_program<D>();  // after stop(): not recorded

  const auto rows = by_name(profiler.key_averages());
  REQUIRE(rows.count("kernel:test::scale") == 1);
  REQUIRE(rows.count("kernel:test::total") == 1);
  REQUIRE(rows.count("region:outer") == 1);
  REQUIRE(rows.count("region:inner") == 1);
  const auto& scale = rows.at("kernel:test::scale");
  CHECK(scale.count == 3);
  CHECK(scale.device == D::name());
  CHECK(rows.at("kernel:test::total").count == 2);
  CHECK(rows.at("region:outer").count == 1);
  CHECK(rows.at("region:inner").count == 2);
  CHECK(scale.min_us <= scale.avg_us);
  CHECK(scale.avg_us <= scale.max_us);
  CHECK(scale.self_ms == doctest::Approx(scale.total_ms));  // a kernel contains nothing
  // A region's total holds what ran inside it; its self time is the rest.
  const auto& outer = rows.at("region:outer");
  const auto& inner = rows.at("region:inner");
  CHECK(outer.total_ms >= inner.total_ms);
  CHECK(outer.self_ms <= outer.total_ms - inner.total_ms + 1e-9);
  CHECK(outer.self_ms >= 0);
  // The one copy into the device's view (8000 bytes).
  std::int64_t copies = 0;
  for (const auto& row : profiler.key_averages())
    if (row.kind == "copy" && row.bytes == 8000) copies += row.count;
  CHECK(copies == 1);

  const std::string table = profiler.table();
  CHECK(table.find("Name") == 0);
  CHECK(table.find("test::scale") != std::string::npos);
  CHECK(table.find("Self time total:") != std::string::npos);
  CHECK(profiler.table(kt::ProfileSort::Count, 1).find("more rows") != std::string::npos);
}

TEST_CASE("the profiler writes a Chrome trace that is valid JSON with one event per call") {
  kt::Profiler profiler;
  known_program<kt::Serial>();
  profiler.stop();
  const std::string path = "kt_test_profiler_trace.json";
  profiler.export_chrome_trace(path);
  std::ifstream in(path);
  REQUIRE(in);
  const auto trace = nlohmann::json::parse(in);  // throws on invalid JSON
  std::remove(path.c_str());
  const auto& events = trace.at("traceEvents");
  std::int64_t calls = 0;
  for (const auto& row : profiler.key_averages()) calls += row.count;
  CHECK(static_cast<std::int64_t>(events.size()) == calls);
  CHECK(static_cast<std::int64_t>(profiler.trace_event_count()) == calls);
  int scale = 0;
  for (const auto& e : events) {
    CHECK(e.at("ph") == "X");
    CHECK(e.at("dur").get<double>() >= 0);
    if (e.at("name") == "test::scale") {
      ++scale;
      CHECK(e.at("cat") == "kernel");
      CHECK(e.at("args").at("device") == "Serial");
    }
  }
  CHECK(scale == 3);
}

TEST_CASE("the profiler keeps at most max_trace_events for the trace and still counts the rest") {
  kt::Profiler profiler(kt::ProfilerOptions().max_trace_events(2));
  known_program<kt::Serial>();
  profiler.stop();
  CHECK(profiler.trace_event_count() == 2);
  CHECK(profiler.dropped_event_count() > 0);
  CHECK(by_name(profiler.key_averages()).at("kernel:test::scale").count == 3);
  CHECK(profiler.table().find("counted but not traced") != std::string::npos);
}

TEST_CASE("one profiler at a time, and the next one starts clean") {
  {
    kt::Profiler first;
    CHECK(kt_test::error_of([] { kt::Profiler second; }).find("kt::Profiler: another kt::Profiler is already running") == 0);
  }
  kt::Profiler next;  // the first one's destructor stopped it
  known_program<kt::Serial>();
  CHECK(by_name(next.key_averages()).at("kernel:test::scale").count == 3);
  CHECK(kt_test::error_of([&] { next.export_chrome_trace("/nonexistent-folder/trace.json"); })
            .find("kt::write_file_atomically: cannot create /nonexistent-folder/trace.json.tmp") == 0);
}
