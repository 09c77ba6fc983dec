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

#include "kt/core/error.hpp"
#include "kt/dist/impl/mpi_call.hpp"
#include "kt/dist/impl/mpi_types.hpp"
#include "kt/dist/impl/nccl_collective.hpp"
#include "kt/dist/impl/wire_buffer.hpp"
#include "kt/dist/reduce_op.hpp"
#include "kt/dist/work.hpp"
#include "kt/tensor/tensor.hpp"

#include <mpi.h>

#include <climits>
#include <functional>
#include <cstdint>
#include <memory>
#include <string>

namespace kt::dist {

class ProcessGroup {
public:
  /// A group over `comm` (which the caller keeps owning); MPI must be initialised.
  explicit ProcessGroup(MPI_Comm comm) : state_(std::make_shared<State>(comm)) {}

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
    return all_reduce_impl(tensor, op, false);
  }
  template <class T, class D>
  void all_reduce(const Tensor<T, D>& tensor, ReduceOp op = ReduceOp::sum) const {
    all_reduce_impl(tensor, op, true);
  }

  /// Copies rank `root`'s `tensor` into every rank's.
  template <class T, class D>
  Work broadcast_async(const Tensor<T, D>& tensor, int root = 0) const {
    return broadcast_impl(tensor, root, false);
  }
  template <class T, class D>
  void broadcast(const Tensor<T, D>& tensor, int root = 0) const {
    broadcast_impl(tensor, root, true);
  }

  /// Concatenates every rank's `input` along the first dimension, in rank order, into
  /// `output` (`all_gather_into_tensor`): output has size() times input's elements.
  template <class T, class D>
  Work all_gather_async(const Tensor<T, D>& output, const Tensor<T, D>& input) const {
    return all_gather_impl(output, input, false);
  }
  template <class T, class D>
  void all_gather(const Tensor<T, D>& output, const Tensor<T, D>& input) const {
    all_gather_impl(output, input, true);
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
    return reduce_scatter_impl(output, input, op, false);
  }
  template <class T, class D>
  void reduce_scatter(const Tensor<T, D>& output, const Tensor<T, D>& input, ReduceOp op = ReduceOp::sum) const {
    reduce_scatter_impl(output, input, op, true);
  }

  /// Returns (or completes) once every rank has entered it.
  Work barrier_async() const {
    return launch(false, [&](MPI_Request* r) { return MPI_Ibarrier(comm(), r); }, "MPI_Ibarrier", [] {});
  }
  void barrier() const { KT_MPI(MPI_Barrier(comm())); }

private:
  // One collective, blocking or not: `start(request)` calls MPI's non-blocking variant when
  // given a request and the blocking one (MPI's own algorithms, often faster) when given
  // null; `finish` runs once the data has arrived.
  template <class Start>
  Work launch(bool blocking, const Start& start, const char* call, std::function<void()> finish) const {
    if (blocking) {
      impl::check_mpi(start(nullptr), call);
      finish();
      return Work();
    }
    auto pending = std::make_shared<impl::PendingOp>();
    pending->requests().resize(1);
    impl::check_mpi(start(pending->requests().data()), call);
    pending->on_complete(std::move(finish));
    return Work(pending);
  }
#if defined(KT_DIST_HAS_NCCL) && defined(KOKKOS_ENABLE_CUDA)
  const dist::nccl::Communicator& nccl() const {
    return impl::nccl_communicator(state_->nccl, comm(), rank(), size());
  }
  // An NCCL collective is queued on the stream: blocking waits for it here, non-blocking in wait().
  static Work nccl_done(bool blocking) {
    const cudaStream_t stream = impl::nccl_stream();
    if (blocking) {
      KT_CUDA_CHECK(cudaStreamSynchronize(stream));
      return Work();
    }
    auto pending = std::make_shared<impl::PendingOp>();  // no MPI request: complete once synchronised
    pending->on_complete([stream] { KT_CUDA_CHECK(cudaStreamSynchronize(stream)); });
    return Work(pending);
  }
#endif

  template <class T, class D>
  Work all_reduce_impl(const Tensor<T, D>& tensor, ReduceOp op, bool blocking) const {
    check_op<T>(op, "all_reduce");
#if defined(KT_DIST_HAS_NCCL) && defined(KOKKOS_ENABLE_CUDA)
    if constexpr (impl::nccl_tensor_v<T, D>) {
      impl::nccl_all_reduce(nccl(), tensor, op);
      return nccl_done(blocking);
    }
#endif
    using W = impl::mpi_reduce_t<T>;
    auto buffer = std::make_shared<impl::WireBuffer<W, T, D>>(tensor, true);
    const int n = count(tensor, "all_reduce");
    return launch(
        blocking,
        [&](MPI_Request* r) {
          return r ? MPI_Iallreduce(MPI_IN_PLACE, buffer->data(), n, impl::mpi_type<W>(), impl::mpi_op(op), comm(), r)
                   : MPI_Allreduce(MPI_IN_PLACE, buffer->data(), n, impl::mpi_type<W>(), impl::mpi_op(op), comm());
        },
        "MPI_Allreduce", [buffer, divisor = divisor(op)] { buffer->finish(divisor); });
  }

  template <class T, class D>
  Work broadcast_impl(const Tensor<T, D>& tensor, int root, bool blocking) const {
    check_root(root);
#if defined(KT_DIST_HAS_NCCL) && defined(KOKKOS_ENABLE_CUDA)
    if constexpr (impl::nccl_tensor_v<T, D>) {
      impl::nccl_broadcast(nccl(), tensor, root);
      return nccl_done(blocking);
    }
#endif
    auto buffer = std::make_shared<impl::WireBuffer<T, T, D>>(tensor, rank() == root);
    const int n = count(tensor, "broadcast");
    return launch(
        blocking,
        [&](MPI_Request* r) {
          return r ? MPI_Ibcast(buffer->data(), n, impl::mpi_type<T>(), root, comm(), r)
                   : MPI_Bcast(buffer->data(), n, impl::mpi_type<T>(), root, comm());
        },
        "MPI_Bcast", [buffer] { buffer->finish(); });
  }

  template <class T, class D>
  Work all_gather_impl(const Tensor<T, D>& output, const Tensor<T, D>& input, bool blocking) const {
    KT_REQUIRE(output.numel() == input.numel() * size(), "kt::dist::all_gather: the output has ",
               output.numel(), " elements (shape ", output.shape().str(), ") but must hold ", size(),
               " ranks x ", input.numel(), " (input shape ", input.shape().str(), ")");
    auto in = std::make_shared<impl::WireBuffer<T, T, D>>(input, true);
    auto out = std::make_shared<impl::WireBuffer<T, T, D>>(output, false);
    const int n = count(input, "all_gather");
    return launch(
        blocking,
        [&](MPI_Request* r) {
          return r ? MPI_Iallgather(in->data(), n, impl::mpi_type<T>(), out->data(), n, impl::mpi_type<T>(), comm(), r)
                   : MPI_Allgather(in->data(), n, impl::mpi_type<T>(), out->data(), n, impl::mpi_type<T>(), comm());
        },
        "MPI_Allgather", [in, out] { out->finish(); });
  }

  template <class T, class D>
  Work reduce_scatter_impl(const Tensor<T, D>& output, const Tensor<T, D>& input, ReduceOp op, bool blocking) const {
    check_op<T>(op, "reduce_scatter");
    KT_REQUIRE(input.numel() == output.numel() * size(), "kt::dist::reduce_scatter: the input has ",
               input.numel(), " elements (shape ", input.shape().str(), ") but must hold ", size(),
               " ranks x ", output.numel(), " (output shape ", output.shape().str(), ")");
    using W = impl::mpi_reduce_t<T>;
    auto in = std::make_shared<impl::WireBuffer<W, T, D>>(input, true);
    auto out = std::make_shared<impl::WireBuffer<W, T, D>>(output, false);
    const int n = count(output, "reduce_scatter");
    return launch(
        blocking,
        [&](MPI_Request* r) {
          return r ? MPI_Ireduce_scatter_block(in->data(), out->data(), n, impl::mpi_type<W>(), impl::mpi_op(op), comm(), r)
                   : MPI_Reduce_scatter_block(in->data(), out->data(), n, impl::mpi_type<W>(), impl::mpi_op(op), comm());
        },
        "MPI_Reduce_scatter_block", [in, out, divisor = divisor(op)] { out->finish(divisor); });
  }

  struct State {
    explicit State(MPI_Comm user_comm) {
      KT_REQUIRE(impl::mpi_is_running(), "kt::dist::ProcessGroup: MPI is not initialised (create a "
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
    ~State() {
      if (impl::mpi_is_running()) MPI_Comm_free(&comm);
    }
    State(const State&) = delete;
    State& operator=(const State&) = delete;

    MPI_Comm comm = MPI_COMM_NULL;
    int rank = 0, size = 1, local_rank = 0, local_size = 1;
#if defined(KT_DIST_HAS_NCCL) && defined(KOKKOS_ENABLE_CUDA)
    std::unique_ptr<dist::nccl::Communicator> nccl;  // made on the first device collective
#endif
  };

  template <class T>
  static void check_op(ReduceOp op, const char* what) {
    KT_REQUIRE(op != ReduceOp::avg || is_floating_dtype_v<T>, "kt::dist::", what, ": ReduceOp::avg needs a "
               "floating dtype, not ", dtype_name<T>(), " (use sum and divide)");
  }
  int divisor(ReduceOp op) const { return op == ReduceOp::avg ? size() : 1; }
  void check_root(int root) const {
    KT_REQUIRE(root >= 0 && root < size(), "kt::dist::broadcast: root ", root, " is not a rank of this group (size ",
               size(), ")");
  }
  // MPI counts are ints: a larger tensor is an error, never a truncated transfer.
  template <class T, class D>
  static int count(const Tensor<T, D>& tensor, const char* what) {
    KT_REQUIRE(tensor.numel() <= INT_MAX, "kt::dist::", what, ": ", tensor.numel(), " elements (shape ",
               tensor.shape().str(), ") exceed MPI's count limit of ", INT_MAX, " per call; split the tensor");
    return static_cast<int>(tensor.numel());
  }

  std::shared_ptr<State> state_;
};

}  // namespace kt::dist
