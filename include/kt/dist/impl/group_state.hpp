#pragma once
// What a kt::dist::ProcessGroup and its copies share: kt's duplicate of the user's
// communicator (so kt's messages never match the application's), the rank facts, and in a
// Cuda build with NCCL the NCCL communicator, made on the group's first device collective.

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"
#include "kt/dist/impl/mpi_call.hpp"

#include <mpi.h>

#include <memory>

#if defined(KT_DIST_HAS_NCCL) && defined(KOKKOS_ENABLE_CUDA)
#include "kt/dist/nccl/nccl_communicator.hpp"
#endif

namespace kt::impl {

struct GroupState {
  explicit GroupState(MPI_Comm user_comm) {
    KT_REQUIRE(mpi_is_running(), "kt::dist::ProcessGroup: MPI is not initialised (create a "
                                 "kt::dist::Environment, kt::dist::init(argc, argv), or call MPI_Init first)");
    KT_MPI(MPI_Comm_dup(user_comm, &comm));
    KT_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    KT_MPI(MPI_Comm_rank(comm, &rank));
    KT_MPI(MPI_Comm_size(comm, &size));
    MPI_Comm node = MPI_COMM_NULL;
    KT_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
    KT_MPI(MPI_Comm_rank(node, &local_rank));
    KT_MPI(MPI_Comm_size(node, &local_size));
    MPI_Comm_free(&node);
  }
  ~GroupState() {
    if (mpi_is_running()) MPI_Comm_free(&comm);
  }
  GroupState(const GroupState&) = delete;
  GroupState& operator=(const GroupState&) = delete;

  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, size = 1, local_rank = 0, local_size = 1;
#if defined(KT_DIST_HAS_NCCL) && defined(KOKKOS_ENABLE_CUDA)
  std::unique_ptr<dist::nccl::Communicator> nccl;
#endif
};

}  // namespace kt::impl
