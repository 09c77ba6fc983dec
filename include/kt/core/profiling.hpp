#pragma once
/// \file kt/core/profiling.hpp
/// Names kt's work for Kokkos Tools (nsys, the Kokkos space-time stack, ...).
///
///     { kt::ScopedRegion region("my_app::assemble"); ... }   // shows up as a region

#include <Kokkos_Core.hpp>

#include <string>

namespace kt {

/// Opens a Kokkos Tools region for its lifetime. (Kokkos::Profiling::ScopedRegion exists only
/// from Kokkos 4.0 on; push/pop exist in every version, so kt wraps them in RAII.)
class ScopedRegion {
public:
  /// Costs one branch when no Kokkos Tools library is loaded (no string is built).
  explicit ScopedRegion(const char* name) : active_(Kokkos::Profiling::profileLibraryLoaded()) {
    if (active_) Kokkos::Profiling::pushRegion(name);
  }
  explicit ScopedRegion(const std::string& name) : ScopedRegion(name.c_str()) {}
  ~ScopedRegion() {
    if (active_) Kokkos::Profiling::popRegion();
  }
  ScopedRegion(const ScopedRegion&) = delete;
  ScopedRegion& operator=(const ScopedRegion&) = delete;

private:
  bool active_;
};

}  // namespace kt

/// Every public kt entry point opens a region named after itself for the rest of its scope.
#define KT_PROFILE_REGION(name) const ::kt::ScopedRegion kt_profile_region_(name)
