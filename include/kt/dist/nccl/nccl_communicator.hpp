#pragma once
/// \file kt/dist/nccl/nccl_communicator.hpp
/// kt's NCCL adapter: GPU-to-GPU collectives over raw device pointers on a cudaStream_t, like
/// the cuBLAS adapter (kt/backend/cuda/). No Kokkos and no MPI here: the ranks agree on an
/// ncclUniqueId through whatever they share (kt::dist::ProcessGroup broadcasts it over MPI).
///
///     ncclUniqueId id = rank == 0 ? kt::dist::nccl::Communicator::unique_id() : ncclUniqueId{};
///     MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, comm);
///     kt::dist::nccl::Communicator nccl(size, id, rank);       // on this rank's current GPU
///     nccl.all_reduce(d_grad, d_grad, n, ncclFloat32, ncclAvg, stream);
///
/// Every call is asynchronous on `stream`, as NCCL's; errors become kt::Error naming the call.

#include "kt/core/impl/public_begin.hpp"

#include "kt/backend/cuda/cuda_error.hpp"
#include "kt/core/error.hpp"

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

/// Throws kt::Error unless the NCCL call returned ncclSuccess.
#define KT_NCCL_CHECK(call)                                                                          \
  do {                                                                                               \
    const ncclResult_t kt_nccl_result_ = (call);                                                     \
    if (kt_nccl_result_ != ncclSuccess)                                                              \
      KT_THROW("kt::nccl: ", #call, " failed: ", ncclGetErrorString(kt_nccl_result_),                \
               kt_nccl_result_ == ncclUnhandledCudaError ? " (no GPU, or no CUDA driver here?)" : ""); \
  } while (0)

namespace kt::dist::nccl {

/// NCCL's datatype for the native types (16-bit floats: ncclFloat16 / ncclBfloat16 by name).
template <class T>
constexpr ncclDataType_t data_type() {
  if constexpr (std::is_same_v<T, float>) return ncclFloat32;
  else if constexpr (std::is_same_v<T, double>) return ncclFloat64;
  else if constexpr (std::is_same_v<T, std::int32_t>) return ncclInt32;
  else if constexpr (std::is_same_v<T, std::int64_t>) return ncclInt64;
  else {
    static_assert(std::is_same_v<T, std::uint8_t>, "kt::dist::nccl::data_type: float, double, int32, int64 or uint8");
    return ncclUint8;
  }
}

class Communicator {
public:
  /// A new id for a communicator (made by one rank, sent to the others).
  static ncclUniqueId unique_id() {
    ncclUniqueId id;
    KT_NCCL_CHECK(ncclGetUniqueId(&id));
    return id;
  }
  /// Joins the communicator `id` as `rank` of `size`, on the calling thread's current GPU.
  Communicator(int size, const ncclUniqueId& id, int rank) : size_(size), rank_(rank) {
    KT_REQUIRE(size >= 1 && rank >= 0 && rank < size, "kt::nccl::Communicator: rank ", rank, " of ", size,
               " is not a rank");
    KT_NCCL_CHECK(ncclCommInitRank(&comm_, size, id, rank));
  }
  ~Communicator() {
    if (comm_) ncclCommDestroy(comm_);
  }
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;

  int size() const { return size_; }
  int rank() const { return rank_; }
  ncclComm_t get() const { return comm_; }

  /// recv[i] = op over ranks of send[i] (send == recv: in place).
  void all_reduce(const void* send, void* recv, std::size_t count, ncclDataType_t type, ncclRedOp_t op,
                  cudaStream_t stream) const {
    KT_NCCL_CHECK(ncclAllReduce(send, recv, count, type, op, comm_, stream));
  }
  /// Root's `send` into every rank's `recv`.
  void broadcast(const void* send, void* recv, std::size_t count, ncclDataType_t type, int root,
                 cudaStream_t stream) const {
    KT_REQUIRE(root >= 0 && root < size_, "kt::nccl::Communicator::broadcast: root ", root, " is not a rank of ", size_);
    KT_NCCL_CHECK(ncclBroadcast(send, recv, count, type, root, comm_, stream));
  }
  /// Every rank's `send_count` elements, in rank order, into `recv` (size() * send_count).
  void all_gather(const void* send, void* recv, std::size_t send_count, ncclDataType_t type,
                  cudaStream_t stream) const {
    KT_NCCL_CHECK(ncclAllGather(send, recv, send_count, type, comm_, stream));
  }
  /// Block `rank()` (recv_count elements) of the reduction of every rank's `send`.
  void reduce_scatter(const void* send, void* recv, std::size_t recv_count, ncclDataType_t type, ncclRedOp_t op,
                      cudaStream_t stream) const {
    KT_NCCL_CHECK(ncclReduceScatter(send, recv, recv_count, type, op, comm_, stream));
  }

private:
  ncclComm_t comm_ = nullptr;
  int size_, rank_;
};

}  // namespace kt::dist::nccl

#include "kt/core/impl/public_end.hpp"
