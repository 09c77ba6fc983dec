#pragma once
/// \file kt/core/profiler.hpp
/// A profiler in the process, like torch.profiler: kt::Profiler registers Kokkos Tools
/// callbacks itself, so no tool library is needed. It records every region (each public kt op
/// opens one named after itself, and kt::ScopedRegion adds yours), every Kokkos kernel and
/// every deep copy, with counts and times, and can write a Chrome trace.
///
///     {
///       kt::Profiler profiler;                        // with torch.profiler.profile() as prof:
///       train_one_epoch();
///       profiler.stop();
///       std::cout << profiler.table();                // prof.key_averages().table()
///       profiler.export_chrome_trace("trace.json");   // prof.export_chrome_trace(...)
///     }
///
/// Kernel times are host wall times between Kokkos' begin and end callbacks; Kokkos fences
/// around them while a tool is active, so on a GPU they are execution times, and the fences
/// slow the program down (as with any Kokkos tool). One Profiler at a time, and not together
/// with a tool library loaded through KOKKOS_PROFILE_LIBRARY / --kokkos-tools-library (Kokkos
/// keeps one set of callbacks): use one or the other. docs/guide.md, "Profiling", shows both.

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/atomic_file.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/profile_callbacks.hpp"
#include "kt/core/impl/profile_recorder.hpp"
#include "kt/core/impl/profile_report.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

namespace kt {

class ProfilerOptions {
public:
  /// At most this many events are kept for the Chrome trace (every event is still counted in
  /// key_averages). Default 1,000,000 (about 24 MB).
  ProfilerOptions& max_trace_events(std::size_t n) { max_trace_events_ = n; return *this; }
  std::size_t max_trace_events() const { return max_trace_events_; }

private:
  std::size_t max_trace_events_ = 1000000;
};

class Profiler {
public:
  /// Starts recording. kt::Error if Kokkos is not initialised, another Profiler is running,
  /// or a Kokkos Tools library is loaded.
  explicit Profiler(ProfilerOptions options = {});
  ~Profiler();
  Profiler(const Profiler&) = delete;
  Profiler& operator=(const Profiler&) = delete;

  /// Stops recording (idempotent); the results stay readable.
  void stop();
  bool running() const { return running_; }

  /// One row per (name, kind, device), heaviest first (`prof.key_averages()`).
  std::vector<ProfileRow> key_averages(ProfileSort sort = ProfileSort::Total) const {
    std::lock_guard<std::mutex> lock(impl::ProfileRecorder::mutex());
    return impl::profile_rows(*recorder_, sort);
  }
  /// The rows as a table; row_limit 0 shows all (`key_averages().table(row_limit=...)`).
  std::string table(ProfileSort sort = ProfileSort::Total, std::size_t row_limit = 25) const {
    const auto rows = key_averages(sort);
    std::lock_guard<std::mutex> lock(impl::ProfileRecorder::mutex());
    return impl::profile_table(rows, row_limit, recorder_->dropped_events());
  }
  /// Writes the events as a Chrome trace (chrome://tracing, ui.perfetto.dev), atomically.
  void export_chrome_trace(const std::string& path) const {
    std::string json;
    {
      std::lock_guard<std::mutex> lock(impl::ProfileRecorder::mutex());
      json = impl::profile_chrome_trace(*recorder_);
    }
    write_file_atomically(path, json);
  }
  /// Events kept for the trace, and those beyond max_trace_events (counted, not traced).
  std::size_t trace_event_count() const {
    std::lock_guard<std::mutex> lock(impl::ProfileRecorder::mutex());
    return recorder_->events().size();
  }
  std::size_t dropped_event_count() const {
    std::lock_guard<std::mutex> lock(impl::ProfileRecorder::mutex());
    return recorder_->dropped_events();
  }

private:
  std::unique_ptr<impl::ProfileRecorder> recorder_;
  bool running_ = true;
};

// Defined once in kt_compiled when it is linked (kt/core/impl/compiled.hpp): starting and
// stopping compile the recorder and the Kokkos Tools callbacks.
#if !defined(KT_COMPILED) || defined(KT_COMPILED_DEFINES_CORE)

KT_INLINE_UNLESS_COMPILED Profiler::Profiler(ProfilerOptions options)
    : recorder_(std::make_unique<impl::ProfileRecorder>(options.max_trace_events())) {
  KT_REQUIRE(Kokkos::is_initialized(), "kt::Profiler: Kokkos is not initialised; create kt::Runtime first");
  std::lock_guard<std::mutex> lock(impl::ProfileRecorder::mutex());
  KT_REQUIRE(impl::ProfileRecorder::active() == nullptr,
             "kt::Profiler: another kt::Profiler is already running (Kokkos Tools has one set of callbacks)");
  KT_REQUIRE(!Kokkos::Profiling::profileLibraryLoaded(),
             "kt::Profiler: a Kokkos Tools library is loaded (KOKKOS_PROFILE_LIBRARY or --kokkos-tools-library); "
             "kt::Profiler would replace its callbacks: use one or the other");
  impl::ProfileRecorder::active() = recorder_.get();
  impl::install_profile_callbacks(true);
}

KT_INLINE_UNLESS_COMPILED Profiler::~Profiler() { stop(); }

KT_INLINE_UNLESS_COMPILED void Profiler::stop() {
  if (!running_) return;
  std::lock_guard<std::mutex> lock(impl::ProfileRecorder::mutex());
  impl::install_profile_callbacks(false);
  impl::ProfileRecorder::active() = nullptr;
  running_ = false;
}

#endif

inline std::ostream& operator<<(std::ostream& os, const Profiler& profiler) { return os << profiler.table(); }

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
