#pragma once
/// \file kt/dist/environment.hpp
/// MPI for the length of a scope, and the default process group (`init_process_group`).
///
///     int main(int argc, char** argv) {
///       auto mpi = kt::dist::init(argc, argv);     // MPI_Init unless the application did it
///       kt::Runtime runtime(kt::dist::runtime_options());  // one GPU per process on Cuda
///       auto& world = kt::dist::world();          // rank(), size(), local_rank()
///       ...
///     }                                           // MPI_Finalize, if init called MPI_Init
///
/// When the application already called MPI_Init (or will finalise MPI itself), the
/// Environment leaves MPI alone. While it lives, an uncaught exception on any rank aborts the
/// whole job with its message (kt/dist/failure.hpp).

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/runtime.hpp"
#include "kt/dist/failure.hpp"
#include "kt/dist/impl/mpi_call.hpp"
#include "kt/dist/process_group.hpp"

#include <mpi.h>

#include <exception>
#include <optional>

#if defined(KOKKOS_ENABLE_CUDA)
#include "kt/core/impl/cuda_devices.hpp"
#endif

namespace kt::impl {
inline std::optional<dist::ProcessGroup>& world_group() {
  static std::optional<dist::ProcessGroup> world;
  return world;
}
}  // namespace kt::impl

namespace kt::dist {

/// The group of every process (MPI_COMM_WORLD). Made by the Environment, or on first use when
/// the application initialised MPI itself.
inline const ProcessGroup& world() {
  auto& slot = impl::world_group();
  if (!slot) {
    KT_REQUIRE(impl::mpi_is_running(), "kt::dist::world(): MPI is not initialised; create a kt::dist::Environment "
                                       "first (auto mpi = kt::dist::init(argc, argv)) or call MPI_Init");
    slot.emplace(MPI_COMM_WORLD);
  }
  return *slot;
}

/// Rank 0 of the world: the one that prints and writes files.
inline bool is_main_process() { return world().rank() == 0; }

class Environment {
public:
  Environment() : Environment(nullptr, nullptr) {}
  Environment(int& argc, char**& argv) : Environment(&argc, &argv) {}
  ~Environment() {
    std::set_terminate(previous_handler_);
    // Unwinding past MPI while another rank may wait in a collective: the job cannot go on.
    if (std::uncaught_exceptions() > uncaught_at_start_)
      abort("an exception is leaving the scope of kt::dist::Environment");
    impl::world_group().reset();
    if (owns_mpi_ && impl::mpi_is_running()) MPI_Finalize();
  }
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;

  /// Whether this Environment called MPI_Init (and will call MPI_Finalize).
  bool owns_mpi() const { return owns_mpi_; }
  /// The thread support MPI provides (MPI_THREAD_FUNNELED is all kt needs: it calls MPI
  /// from the thread that runs backward() and the collectives only).
  int thread_level() const { return thread_level_; }

private:
  Environment(int* argc, char*** argv) : uncaught_at_start_(std::uncaught_exceptions()) {
    if (!impl::mpi_is_running()) {
      KT_MPI(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &thread_level_));
      owns_mpi_ = true;
    } else {
      KT_MPI(MPI_Query_thread(&thread_level_));
    }
    previous_handler_ = std::set_terminate(terminate_handler);
    world();
  }

  bool owns_mpi_ = false;
  int thread_level_ = MPI_THREAD_SINGLE;
  int uncaught_at_start_ = 0;
  std::terminate_handler previous_handler_ = nullptr;
};

/// `auto mpi = kt::dist::init(argc, argv);` — an Environment for main()'s scope.
inline Environment init(int& argc, char**& argv) { return Environment(argc, argv); }

/// kt::Runtime options for this process: on Cuda, the GPU of index local_rank() modulo the
/// node's GPU count (one GPU per process when a node runs one process per GPU).
inline RuntimeOptions runtime_options(const ProcessGroup& group = world()) {
  RuntimeOptions options;
#if defined(KOKKOS_ENABLE_CUDA)
  const int gpus = kt::impl::cuda_device_count();
  if (gpus > 0) options.device_id(group.local_rank() % gpus);
#else
  (void)group;
#endif
  return options;
}

}  // namespace kt::dist

#include "kt/core/impl/public_end.hpp"
