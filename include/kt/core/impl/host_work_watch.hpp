#pragma once
// The check that a step recorded on a host device (kt/core/impl/host_work.hpp) holds all of its
// work: a Kokkos launch or copy made while the step is recorded but outside every unit — a
// user's own Kokkos kernel in the step function — would be skipped by every replay. Kokkos
// Tools' callbacks see every launch and copy; the ones made on the recording thread while it
// records, outside a unit, are counted, and the recording is refused, naming the first.

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/capture_state.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace kt::impl {

/// Counts, while it lives, the Kokkos launches and copies made during a recording outside every
/// unit. Kokkos keeps one set of tool callbacks: with a
/// Kokkos tool or a kt::Profiler running, there is no watch.
class HostWorkWatch {
public:
  HostWorkWatch() : active_(!Kokkos::Profiling::profileLibraryLoaded()) {
    seen() = Seen{};
    if (active_) install(true);
  }
  ~HostWorkWatch() {
    if (active_) install(false);
  }
  HostWorkWatch(const HostWorkWatch&) = delete;
  HostWorkWatch& operator=(const HostWorkWatch&) = delete;

  /// kt::Error naming the first launch a replay would skip, if there was one.
  void check(const std::string& step) const {
    KT_REQUIRE(seen().count == 0, step, ": the step function launched Kokkos work kt cannot replay ('",
               seen().first, "', ", seen().count, " launch", seen().count == 1 ? "" : "es",
               " outside kt's operations); on a host device a replay repeats only kt's own work, so it would skip "
               "them: write the step with kt's operations, or run that work outside the step");
  }

private:
  struct Seen {
    std::string first;
    std::int64_t count = 0;
  };
  static Seen& seen() {
    static Seen s;  // written only by the recording thread (the others' host_work is null)
    return s;
  }
  static void note(const char* name) {
    if (capture_state().host_work == nullptr) return;
    if (seen().count++ == 0) seen().first = name != nullptr ? name : "(unnamed)";
  }
  static void on_kernel(const char* name, const std::uint32_t, std::uint64_t* id) {
    *id = 0;
    note(name);
  }
  static void on_copy(Kokkos::Tools::SpaceHandle, const char* dst, const void*, Kokkos::Tools::SpaceHandle,
                      const char*, const void*, std::uint64_t) {
    note(dst != nullptr && dst[0] != '\0' ? dst : "Kokkos::deep_copy");
  }
  static void install(bool on) {
    namespace tools = Kokkos::Tools::Experimental;
    tools::set_begin_parallel_for_callback(on ? on_kernel : nullptr);
    tools::set_begin_parallel_reduce_callback(on ? on_kernel : nullptr);
    tools::set_begin_parallel_scan_callback(on ? on_kernel : nullptr);
    tools::set_begin_deep_copy_callback(on ? on_copy : nullptr);
  }

  bool active_;
};

}  // namespace kt::impl
