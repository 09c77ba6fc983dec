#pragma once
/// \file kt/core/runtime.hpp
/// The RAII guard that starts Kokkos for kt and stops it after the last kt allocation.
///
///     int main(int argc, char* argv[]) {
///       kt::Runtime runtime(argc, argv);   // --kokkos-threads=N, --kokkos-device-id=K
///       ...                                // tensors may even outlive `runtime`
///     }
///
///     kt::Runtime runtime(kt::RuntimeOptions().threads(2).device_id(1));

#include "kt/core/impl/kokkos_compat.hpp"
#include "kt/core/impl/runtime_state.hpp"

#include <Kokkos_Core.hpp>

namespace kt {

/// Start-up settings; -1 leaves a setting to Kokkos (environment, all cores, GPU 0).
class RuntimeOptions {
public:
  RuntimeOptions& threads(int n) { threads_ = n; return *this; }
  RuntimeOptions& device_id(int id) { device_id_ = id; return *this; }
  int threads() const { return threads_; }
  int device_id() const { return device_id_; }

private:
  int threads_ = -1;
  int device_id_ = -1;
};

/// Initialises Kokkos unless the application already did (then kt leaves Kokkos' lifetime
/// to the application). When it initialised Kokkos, the destructor finalises it — at once
/// if no kt allocation is alive, otherwise when the last tensor is released, after
/// returning every cached block. A Cuda build on a machine without a GPU starts the host
/// devices only (kt::is_available<kt::Cuda>() is then false; see kt::dispatch_device).
class Runtime {
public:
  Runtime() : Runtime(RuntimeOptions()) {}

  explicit Runtime(const RuntimeOptions& options) {
    if (!impl::kokkos_is_initialized()) {
      impl::initialize_kokkos(options.threads(), options.device_id());
      owns_kokkos_ = true;
    }
  }

  /// Forwards command-line flags to Kokkos (and removes the ones Kokkos consumed).
  Runtime(int& argc, char* argv[]) {
    if (!impl::kokkos_is_initialized()) {
      impl::prepare_cuda_for_initialize();
      Kokkos::initialize(argc, argv);
      owns_kokkos_ = true;
    }
  }

  ~Runtime() {
    if (owns_kokkos_) impl::RuntimeState::instance().request_finalize();
  }

  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  /// Whether this guard started Kokkos (and so will finalise it).
  bool owns_kokkos() const { return owns_kokkos_; }

private:
  bool owns_kokkos_ = false;
};

}  // namespace kt
