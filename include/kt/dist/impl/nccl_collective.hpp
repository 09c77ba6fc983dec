#pragma once
// Cuda tensors through NCCL (a Cuda build whose kt::dist found NCCL: KT_DIST_HAS_NCCL), GPU to
// GPU instead of through pinned host buffers. all_reduce and broadcast — DDP's collectives —
// take this path; all_gather and reduce_scatter stay staged. The NCCL communicator of a
// process group is made on its first device collective, which every rank reaches at the same
// point (MPI's rule for collectives): rank 0 makes the id and MPI broadcasts it. The NCCL calls
// run on Kokkos' default Cuda stream, so they are ordered after the kernels that produced the
// tensor; 16-bit tensors are widened to fp32 on the GPU first (reduced in fp32, as on the host).

#if defined(KT_DIST_HAS_NCCL) && defined(KOKKOS_ENABLE_CUDA)

#include "kt/core/impl/internal.hpp"

#include "kt/backend/cuda/cuda_error.hpp"
#include "kt/dist/impl/group_state.hpp"
#include "kt/dist/impl/mpi_call.hpp"
#include "kt/dist/impl/mpi_types.hpp"
#include "kt/dist/impl/pending_op.hpp"
#include "kt/dist/nccl/nccl_communicator.hpp"
#include "kt/dist/reduce_op.hpp"
#include "kt/dist/work.hpp"
#include "kt/tensor/tensor.hpp"
#include "kt/tensor/transfer.hpp"

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <memory>
#include <type_traits>

namespace kt::impl {

template <class T, class D>
inline constexpr bool nccl_tensor_v = std::is_same_v<typename Tensor<T, D>::memory_space, Kokkos::CudaSpace>;

inline ncclRedOp_t nccl_op(dist::ReduceOp op) {
  switch (op) {
    case dist::ReduceOp::avg: return ncclAvg;
    case dist::ReduceOp::max: return ncclMax;
    case dist::ReduceOp::min: return ncclMin;
    default: return ncclSum;
  }
}

/// The group's NCCL communicator, made on its first device collective.
inline dist::nccl::Communicator& nccl_communicator(GroupState& group) {
  if (!group.nccl) {
    ncclUniqueId id{};
    if (group.rank == 0) id = dist::nccl::Communicator::unique_id();
    KT_MPI(MPI_Bcast(&id, static_cast<int>(sizeof id), MPI_BYTE, 0, group.comm));
    group.nccl = std::make_unique<dist::nccl::Communicator>(group.size, id, group.rank);
  }
  return *group.nccl;
}

inline cudaStream_t nccl_stream() { return Kokkos::Cuda().cuda_stream(); }

/// An NCCL collective is queued on the stream: blocking waits for it here, non-blocking in
/// Work::wait().
inline dist::Work nccl_done(bool blocking) {
  const cudaStream_t stream = nccl_stream();
  if (blocking) {
    KT_CUDA_CHECK(cudaStreamSynchronize(stream));
    return dist::Work();
  }
  auto pending = std::make_shared<PendingOp>();  // no MPI request: complete once synchronised
  pending->on_complete([stream] { KT_CUDA_CHECK(cudaStreamSynchronize(stream)); });
  return dist::Work(pending);
}

template <class T, class D>
void nccl_all_reduce(const dist::nccl::Communicator& nccl, const Tensor<T, D>& tensor, dist::ReduceOp op) {
  const auto n = static_cast<std::size_t>(tensor.numel());
  if constexpr (std::is_same_v<mpi_reduce_t<T>, T>) {
    nccl.all_reduce(tensor.data(), tensor.data(), n, dist::nccl::data_type<T>(), nccl_op(op), nccl_stream());
  } else {
    const Tensor<float, D> wide = tensor.template to<float>();
    nccl.all_reduce(wide.data(), wide.data(), n, ncclFloat32, nccl_op(op), nccl_stream());
    copy(tensor, wide.template to<T>());  // the narrowing kernel runs after NCCL on the same stream
  }
}

template <class T, class D>
void nccl_broadcast(const dist::nccl::Communicator& nccl, const Tensor<T, D>& tensor, int root) {
  nccl.broadcast(tensor.data(), tensor.data(), tensor.nbytes(), ncclUint8, root, nccl_stream());
}

}  // namespace kt::impl

#endif
