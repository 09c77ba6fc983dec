#pragma once
// The Kokkos Tools callbacks of kt::Profiler: plain functions (Kokkos stores function
// pointers) that forward to the active ProfileRecorder under its mutex.

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/profile_recorder.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <mutex>

namespace kt::impl {

template <class F>
void profile_with_recorder(F&& f) {
  std::lock_guard<std::mutex> lock(ProfileRecorder::mutex());
  if (ProfileRecorder* r = ProfileRecorder::active()) f(*r);
}

inline void profile_begin_kernel(const char* name, const std::uint32_t device_id, std::uint64_t* kernel_id) {
  *kernel_id = 0;
  profile_with_recorder([&](ProfileRecorder& r) { r.kernel_begin(name, device_id, kernel_id); });
}
inline void profile_end_kernel(const std::uint64_t kernel_id) {
  profile_with_recorder([&](ProfileRecorder& r) { r.kernel_end(kernel_id); });
}
inline void profile_push_region(const char* name) {
  profile_with_recorder([&](ProfileRecorder& r) { r.region_push(name); });
}
inline void profile_pop_region() {
  profile_with_recorder([](ProfileRecorder& r) { r.region_pop(); });
}
inline void profile_begin_deep_copy(Kokkos::Tools::SpaceHandle dst, const char*, const void*, Kokkos::Tools::SpaceHandle src,
                            const char*, const void*, std::uint64_t bytes) {
  profile_with_recorder([&](ProfileRecorder& r) { r.copy_begin(dst.name, src.name, bytes); });
}
inline void profile_end_deep_copy() {
  profile_with_recorder([](ProfileRecorder& r) { r.copy_end(); });
}

/// Installs the callbacks above (on = true) or removes them (on = false).
inline void install_profile_callbacks(bool on) {
  namespace tools = Kokkos::Tools::Experimental;
  tools::set_begin_parallel_for_callback(on ? profile_begin_kernel : nullptr);
  tools::set_begin_parallel_reduce_callback(on ? profile_begin_kernel : nullptr);
  tools::set_begin_parallel_scan_callback(on ? profile_begin_kernel : nullptr);
  tools::set_end_parallel_for_callback(on ? profile_end_kernel : nullptr);
  tools::set_end_parallel_reduce_callback(on ? profile_end_kernel : nullptr);
  tools::set_end_parallel_scan_callback(on ? profile_end_kernel : nullptr);
  tools::set_push_region_callback(on ? profile_push_region : nullptr);
  tools::set_pop_region_callback(on ? profile_pop_region : nullptr);
  tools::set_begin_deep_copy_callback(on ? profile_begin_deep_copy : nullptr);
  tools::set_end_deep_copy_callback(on ? profile_end_deep_copy : nullptr);
}

}  // namespace kt::impl
