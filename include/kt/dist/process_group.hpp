#pragma once
/// \file kt/dist/process_group.hpp
/// A group of MPI processes and the collectives kt runs on it (`torch.distributed`'s process
/// group). The group works on its own duplicate of the communicator it is given, so kt's
/// messages never match the application's; copies of a ProcessGroup share that duplicate.
///
///     kt::dist::ProcessGroup group(MPI_COMM_WORLD);           // or kt::dist::world()
///     group.all_reduce(t, kt::dist::ReduceOp::avg);           // blocking, in place
///     auto work = group.all_reduce_async(g);                   // non-blocking
///     work.wait();
///
/// Every rank must call the same collectives in the same order with tensors of the same dtype
/// and number of elements (MPI's rule). Host tensors go to MPI directly; Cuda tensors go
/// through NCCL (all_reduce, broadcast) when kt::dist found it, and otherwise through pinned
/// host buffers; half and bfloat16 are reduced in fp32.

#include "kt/core/impl/public_begin.hpp"

#include "kt/dist/impl/group_collectives.hpp"
#include "kt/dist/impl/group_state.hpp"
#include "kt/dist/impl/mpi_call.hpp"
#include "kt/dist/reduce_op.hpp"
#include "kt/dist/work.hpp"
#include "kt/tensor/tensor.hpp"

#include <mpi.h>

#include <memory>

namespace kt::dist {

class ProcessGroup {
public:
  /// A group over `comm` (which the caller keeps owning); MPI must be initialised.
  explicit ProcessGroup(MPI_Comm comm) : state_(std::make_shared<impl::GroupState>(comm)) {}

  int rank() const { return state_->rank; }
  int size() const { return state_->size; }
  /// The rank among the processes of this group on the same node (MPI shared-memory split):
  /// what picks a GPU per process.
  int local_rank() const { return state_->local_rank; }
  int local_size() const { return state_->local_size; }
  /// kt's duplicate of the communicator.
  MPI_Comm comm() const { return state_->comm; }

  /// Combines every rank's `tensor` with `op`; every rank gets the result in place.
  template <class T, class D>
  Work all_reduce_async(const Tensor<T, D>& tensor, ReduceOp op = ReduceOp::sum) const {
    return impl::group_all_reduce(*state_, tensor, op, false);
  }
  template <class T, class D>
  void all_reduce(const Tensor<T, D>& tensor, ReduceOp op = ReduceOp::sum) const {
    impl::group_all_reduce(*state_, tensor, op, true);
  }

  /// Copies rank `root`'s `tensor` into every rank's.
  template <class T, class D>
  Work broadcast_async(const Tensor<T, D>& tensor, int root = 0) const {
    return impl::group_broadcast(*state_, tensor, root, false);
  }
  template <class T, class D>
  void broadcast(const Tensor<T, D>& tensor, int root = 0) const {
    impl::group_broadcast(*state_, tensor, root, true);
  }

  /// Concatenates every rank's `input` along the first dimension, in rank order, into
  /// `output` (`all_gather_into_tensor`): output has size() times input's elements.
  template <class T, class D>
  Work all_gather_async(const Tensor<T, D>& output, const Tensor<T, D>& input) const {
    return impl::group_all_gather(*state_, output, input, false);
  }
  template <class T, class D>
  void all_gather(const Tensor<T, D>& output, const Tensor<T, D>& input) const {
    impl::group_all_gather(*state_, output, input, true);
  }
  /// The gathered tensor, of shape [size() * input.size(0), ...] (a scalar gathers to [size()]).
  template <class T, class D>
  Tensor<T, D> all_gather(const Tensor<T, D>& input) const {
    auto dims = input.shape().dims();
    if (dims.empty()) dims.push_back(size());
    else dims[0] *= size();
    Tensor<T, D> output{Shape(dims), D()};
    all_gather(output, input);
    return output;
  }

  /// Reduces `input` (size() blocks along the first dimension) over the ranks and gives rank
  /// r the reduced block r in `output`.
  template <class T, class D>
  Work reduce_scatter_async(const Tensor<T, D>& output, const Tensor<T, D>& input,
                            ReduceOp op = ReduceOp::sum) const {
    return impl::group_reduce_scatter(*state_, output, input, op, false);
  }
  template <class T, class D>
  void reduce_scatter(const Tensor<T, D>& output, const Tensor<T, D>& input, ReduceOp op = ReduceOp::sum) const {
    impl::group_reduce_scatter(*state_, output, input, op, true);
  }

  /// Returns (or completes) once every rank has entered it.
  Work barrier_async() const {
    return impl::group_barrier_async(*state_);
  }
  void barrier() const { KT_MPI(MPI_Barrier(comm())); }

private:
  std::shared_ptr<impl::GroupState> state_;
};

}  // namespace kt::dist

#include "kt/core/impl/public_end.hpp"
