#pragma once
// The collectives of kt::dist::ProcessGroup on its shared state, blocking or not. Each checks
// its arguments, stages the tensor in a wire buffer (kt/dist/impl/wire_buffer.hpp: host memory
// MPI can read, 16-bit dtypes widened for reductions) and starts MPI's call; the buffer's
// finish step (divide for avg, narrow, copy back) runs once the data has arrived. Cuda tensors
// take NCCL for all_reduce and broadcast where kt::dist found it.

#include "kt/core/impl/internal.hpp"

#include "kt/core/dtype.hpp"
#include "kt/core/error.hpp"
#include "kt/dist/impl/group_state.hpp"
#include "kt/dist/impl/mpi_call.hpp"
#include "kt/dist/impl/mpi_types.hpp"
#include "kt/dist/impl/nccl_collective.hpp"
#include "kt/dist/impl/pending_op.hpp"
#include "kt/dist/impl/wire_buffer.hpp"
#include "kt/dist/reduce_op.hpp"
#include "kt/dist/work.hpp"
#include "kt/tensor/tensor.hpp"

#include <mpi.h>

#include <climits>
#include <functional>
#include <memory>
#include <utility>

namespace kt::impl {

/// One collective: `start(request)` calls MPI's non-blocking variant when given a request and
/// the blocking one (MPI's own algorithms, often faster) when given null; `finish` runs once
/// the data has arrived.
template <class Start>
dist::Work launch_collective(bool blocking, const Start& start, const char* call, std::function<void()> finish) {
  if (blocking) {
    check_mpi(start(nullptr), call);
    finish();
    return dist::Work();
  }
  auto pending = std::make_shared<PendingOp>();
  pending->requests().resize(1);
  check_mpi(start(pending->requests().data()), call);
  pending->on_complete(std::move(finish));
  return dist::Work(pending);
}

template <class T>
void check_reduce_op(dist::ReduceOp op, const char* what) {
  KT_REQUIRE(op != dist::ReduceOp::avg || is_floating_dtype_v<T>, "kt::dist::", what, ": ReduceOp::avg needs a "
             "floating dtype, not ", dtype_name<T>(), " (use sum and divide)");
}

inline int reduce_divisor(const GroupState& group, dist::ReduceOp op) {
  return op == dist::ReduceOp::avg ? group.size : 1;
}

// MPI counts are ints: a larger tensor is an error, never a truncated transfer.
template <class T, class D>
int mpi_count(const Tensor<T, D>& tensor, const char* what) {
  KT_REQUIRE(tensor.numel() <= INT_MAX, "kt::dist::", what, ": ", tensor.numel(), " elements (shape ",
             tensor.shape().str(), ") exceed MPI's count limit of ", INT_MAX, " per call; split the tensor");
  return static_cast<int>(tensor.numel());
}

template <class T, class D>
dist::Work group_all_reduce(GroupState& group, const Tensor<T, D>& tensor, dist::ReduceOp op, bool blocking) {
  check_reduce_op<T>(op, "all_reduce");
#if defined(KT_DIST_HAS_NCCL) && defined(KOKKOS_ENABLE_CUDA)
  if constexpr (nccl_tensor_v<T, D>) {
    nccl_all_reduce(nccl_communicator(group), tensor, op);
    return nccl_done(blocking);
  }
#endif
  using W = mpi_reduce_t<T>;
  auto buffer = std::make_shared<WireBuffer<W, T, D>>(tensor, true);
  const int n = mpi_count(tensor, "all_reduce");
  return launch_collective(
      blocking,
      [&](MPI_Request* r) {
        return r ? MPI_Iallreduce(MPI_IN_PLACE, buffer->data(), n, mpi_type<W>(), mpi_op(op), group.comm, r)
                 : MPI_Allreduce(MPI_IN_PLACE, buffer->data(), n, mpi_type<W>(), mpi_op(op), group.comm);
      },
      "MPI_Allreduce", [buffer, divisor = reduce_divisor(group, op)] { buffer->finish(divisor); });
}

template <class T, class D>
dist::Work group_broadcast(GroupState& group, const Tensor<T, D>& tensor, int root, bool blocking) {
  KT_REQUIRE(root >= 0 && root < group.size, "kt::dist::broadcast: root ", root,
             " is not a rank of this group (size ", group.size, ")");
#if defined(KT_DIST_HAS_NCCL) && defined(KOKKOS_ENABLE_CUDA)
  if constexpr (nccl_tensor_v<T, D>) {
    nccl_broadcast(nccl_communicator(group), tensor, root);
    return nccl_done(blocking);
  }
#endif
  auto buffer = std::make_shared<WireBuffer<T, T, D>>(tensor, group.rank == root);
  const int n = mpi_count(tensor, "broadcast");
  return launch_collective(
      blocking,
      [&](MPI_Request* r) {
        return r ? MPI_Ibcast(buffer->data(), n, mpi_type<T>(), root, group.comm, r)
                 : MPI_Bcast(buffer->data(), n, mpi_type<T>(), root, group.comm);
      },
      "MPI_Bcast", [buffer] { buffer->finish(); });
}

template <class T, class D>
dist::Work group_all_gather(GroupState& group, const Tensor<T, D>& output, const Tensor<T, D>& input, bool blocking) {
  KT_REQUIRE(output.numel() == input.numel() * group.size, "kt::dist::all_gather: the output has ",
             output.numel(), " elements (shape ", output.shape().str(), ") but must hold ", group.size,
             " ranks x ", input.numel(), " (input shape ", input.shape().str(), ")");
  auto in = std::make_shared<WireBuffer<T, T, D>>(input, true);
  auto out = std::make_shared<WireBuffer<T, T, D>>(output, false);
  const int n = mpi_count(input, "all_gather");
  return launch_collective(
      blocking,
      [&](MPI_Request* r) {
        return r ? MPI_Iallgather(in->data(), n, mpi_type<T>(), out->data(), n, mpi_type<T>(), group.comm, r)
                 : MPI_Allgather(in->data(), n, mpi_type<T>(), out->data(), n, mpi_type<T>(), group.comm);
      },
      "MPI_Allgather", [in, out] { out->finish(); });
}

template <class T, class D>
dist::Work group_reduce_scatter(GroupState& group, const Tensor<T, D>& output, const Tensor<T, D>& input,
                                dist::ReduceOp op, bool blocking) {
  check_reduce_op<T>(op, "reduce_scatter");
  KT_REQUIRE(input.numel() == output.numel() * group.size, "kt::dist::reduce_scatter: the input has ",
             input.numel(), " elements (shape ", input.shape().str(), ") but must hold ", group.size,
             " ranks x ", output.numel(), " (output shape ", output.shape().str(), ")");
  using W = mpi_reduce_t<T>;
  auto in = std::make_shared<WireBuffer<W, T, D>>(input, true);
  auto out = std::make_shared<WireBuffer<W, T, D>>(output, false);
  const int n = mpi_count(output, "reduce_scatter");
  return launch_collective(
      blocking,
      [&](MPI_Request* r) {
        return r ? MPI_Ireduce_scatter_block(in->data(), out->data(), n, mpi_type<W>(), mpi_op(op), group.comm, r)
                 : MPI_Reduce_scatter_block(in->data(), out->data(), n, mpi_type<W>(), mpi_op(op), group.comm);
      },
      "MPI_Reduce_scatter_block", [in, out, divisor = reduce_divisor(group, op)] { out->finish(divisor); });
}

inline dist::Work group_barrier_async(GroupState& group) {
  return launch_collective(
      false, [&](MPI_Request* r) { return MPI_Ibarrier(group.comm, r); }, "MPI_Ibarrier", [] {});
}

}  // namespace kt::impl
