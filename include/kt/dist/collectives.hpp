#pragma once
/// \file kt/dist/collectives.hpp
/// `torch.distributed`'s functions: the collectives of kt::dist::ProcessGroup on the world
/// group, or on the group given last. `_async` variants return a kt::dist::Work.
///
///     kt::dist::all_reduce(loss_sum, kt::dist::ReduceOp::sum);
///     kt::dist::broadcast(weights, /*root=*/0);
///     auto gathered = kt::dist::all_gather(local_predictions);
///     kt::dist::barrier();

#include "kt/core/impl/public_begin.hpp"

#include "kt/dist/environment.hpp"
#include "kt/dist/process_group.hpp"

namespace kt::dist {

template <class T, class D>
void all_reduce(const Tensor<T, D>& tensor, ReduceOp op = ReduceOp::sum, const ProcessGroup& group = world()) {
  group.all_reduce(tensor, op);
}
template <class T, class D>
Work all_reduce_async(const Tensor<T, D>& tensor, ReduceOp op = ReduceOp::sum, const ProcessGroup& group = world()) {
  return group.all_reduce_async(tensor, op);
}

template <class T, class D>
void broadcast(const Tensor<T, D>& tensor, int root = 0, const ProcessGroup& group = world()) {
  group.broadcast(tensor, root);
}
template <class T, class D>
Work broadcast_async(const Tensor<T, D>& tensor, int root = 0, const ProcessGroup& group = world()) {
  return group.broadcast_async(tensor, root);
}

template <class T, class D>
void all_gather(const Tensor<T, D>& output, const Tensor<T, D>& input, const ProcessGroup& group = world()) {
  group.all_gather(output, input);
}
template <class T, class D>
Tensor<T, D> all_gather(const Tensor<T, D>& input, const ProcessGroup& group = world()) {
  return group.all_gather(input);
}
template <class T, class D>
Work all_gather_async(const Tensor<T, D>& output, const Tensor<T, D>& input, const ProcessGroup& group = world()) {
  return group.all_gather_async(output, input);
}

template <class T, class D>
void reduce_scatter(const Tensor<T, D>& output, const Tensor<T, D>& input, ReduceOp op = ReduceOp::sum,
                    const ProcessGroup& group = world()) {
  group.reduce_scatter(output, input, op);
}
template <class T, class D>
Work reduce_scatter_async(const Tensor<T, D>& output, const Tensor<T, D>& input, ReduceOp op = ReduceOp::sum,
                          const ProcessGroup& group = world()) {
  return group.reduce_scatter_async(output, input, op);
}

inline void barrier(const ProcessGroup& group = world()) { group.barrier(); }
inline Work barrier_async(const ProcessGroup& group = world()) { return group.barrier_async(); }

}  // namespace kt::dist

#include "kt/core/impl/public_end.hpp"
