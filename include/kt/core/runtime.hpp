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

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/device.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/kokkos_compat.hpp"
#include "kt/core/impl/runtime_state.hpp"

#include <Kokkos_Core.hpp>

#include <type_traits>

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

  /// When Kokkos is already running, options it does not run with are a kt::Error (they
  /// cannot take effect any more) rather than ignored.
  explicit Runtime(const RuntimeOptions& options) {
    if (!impl::kokkos_is_initialized()) {
      impl::initialize_kokkos(options.threads(), options.device_id());
      owns_kokkos_ = true;
    } else {
      require_running_as(options);
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
  static void require_running_as(const RuntimeOptions& options) {
    using Host = Kokkos::DefaultHostExecutionSpace;
    const int threads = static_cast<int>(Host().concurrency());
    // A Serial host space ignores a thread count at start-up too, so there is nothing to refuse.
#if defined(KOKKOS_ENABLE_SERIAL)
    constexpr bool serial = std::is_same_v<Host, Kokkos::Serial>;
#else
    constexpr bool serial = false;
#endif
    KT_REQUIRE(options.threads() < 0 || serial || options.threads() == threads,
               "kt::Runtime: Kokkos is already running with ", threads, " host threads, so RuntimeOptions().threads(",
               options.threads(), ") cannot take effect; start Kokkos with the threads wanted, or leave threads unset");
#if defined(KOKKOS_ENABLE_CUDA)
    if (options.device_id() >= 0 && is_available<Kokkos::Cuda>()) {
      const int running = device_id<Kokkos::Cuda>().index;
      KT_REQUIRE(options.device_id() == running, "kt::Runtime: Kokkos is already running on GPU ", running,
                 ", so RuntimeOptions().device_id(", options.device_id(),
                 ") cannot take effect; start Kokkos on that GPU, or leave device_id unset");
    }
#endif
  }

  bool owns_kokkos_ = false;
};

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
