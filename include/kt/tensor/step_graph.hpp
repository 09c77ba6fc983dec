#pragma once
/// \file kt/tensor/step_graph.hpp
/// A training (or inference) step recorded once and replayed (`torch.cuda.graph` with static
/// inputs, `make_graphed_callables`): on kt::Cuda the step's kernels, cuBLAS calls and copies
/// become one CUDA graph, launched with one call per batch; on host devices the step's
/// kernels, products and copies are recorded as they run and replayed in order, without the
/// autograd graph, shape checks, allocations and dispatch that produced them
/// (kt/core/impl/host_work.hpp). One source serves every device, with the eager step's results.
///
///     auto step = kt::make_step_graph<D>([&](const kt::Tensor<float, D>& x, const kt::Tensor<std::int64_t, D>& y) {
///       opt.zero_grad();
///       auto loss = kt::cross_entropy(model(kt::Var<float, D>(x)), y);
///       loss.backward();
///       opt.step();
///       return loss.data();                 // a Tensor the graph rewrites at every replay
///     });
///     for (auto [x, y] : loader) {
///       auto loss = step(x, y);             // copies x, y into the graph's inputs, replays
///       ...                                 // loss.item() when you want it (a host wait)
///     }
///
/// The first `warmup` calls (default 2) run eagerly — optimizers make their state, cuBLAS its
/// handle; on Cuda the last one allocates from the graph's memory pool — and the next one
/// captures the step: on Cuda by stream capture (kt/core/impl/work_instance.hpp says on which
/// stream), then launching it; on host devices by running it while it is recorded. Later calls
/// only copy their inputs and replay. Memory the captured step uses comes from the graph's
/// pool, which no other tensor gets while the graph lives (its replays keep writing it), so
/// replays allocate no tensor.
///
/// Rules, checked with a kt::Error on every device:
///  - The inputs keep the dtypes and shapes of the first call (a graph replays fixed shapes:
///    one StepGraph per shape, or DataLoaderOptions().drop_last(true)).
///  - The step function must not make the host wait: item(), to_vector(), blocking copies,
///    kt::synchronize() and reductions to host values inside it are refused, named.
///  - Host-side effects of the step function happen at capture only; kt's own bookkeeping
///    (optimizers' step counts) is redone at each replay, the learning rate is read on the
///    device (set_lr() between replays works), but your code inside the function runs once.
///    Change what the step reads through tensors, not through host variables.
///  - The returned value (and every tensor the step made) is the graph's memory: the next
///    replay overwrites it; clone() what you keep.
///  - Random numbers (dropout, kt::rand) are drawn anew at every replay on host devices, as
///    the eager step draws them; a CUDA graph replays the offsets it captured.
///  - On host devices a replay repeats kt's own work only: Kokkos kernels and copies the step
///    function launches itself are refused at the recording, named (with a Kokkos tool or a
///    kt::Profiler running, Kokkos' callbacks are theirs and nothing checks this).
/// What the graph captured must outlive it (model, optimizer, generators, tensors it reads).

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/device.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/caching_allocator.hpp"
#include "kt/core/impl/capture_state.hpp"
#include "kt/core/impl/host_work.hpp"
#include "kt/core/impl/host_work_watch.hpp"
#include "kt/core/impl/work_instance.hpp"
#include "kt/tensor/tensor.hpp"
#include "kt/tensor/transfer.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include "kt/backend/cuda/cuda_error.hpp"
#endif

#include <Kokkos_Core.hpp>

#include <any>
#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace kt {

/// Settings of kt::StepGraph.
class StepGraphOptions {
public:
  /// Eager calls before the capture (on Cuda): at least 1, so that state made on the first
  /// step (optimizer moments, momentum buffers) exists before the graph is recorded.
  StepGraphOptions& warmup(int n) { warmup_ = n; return *this; }
  /// The name in error messages and in kt::Profiler.
  StepGraphOptions& name(std::string n) { name_ = std::move(n); return *this; }
  int warmup() const { return warmup_; }
  const std::string& name() const { return name_; }

private:
  int warmup_ = 2;
  std::string name_ = "kt::StepGraph";
};

namespace impl {

/// Sets this thread's capture state for the duration of a call of the step function.
class CaptureScope {
public:
  /// `hooks` set: a capture (a CUDA graph's, or with `host_work` a host device's recording).
  CaptureScope(const char* step, std::vector<std::function<void()>>* hooks, HostWork* host_work = nullptr)
      : saved_(capture_state()) {
    KT_REQUIRE(saved_.step == nullptr, step, ": a step function may not call another captured step (",
               saved_.step, " is running)");
    capture_state() = CaptureState{step, hooks, hooks != nullptr && host_work == nullptr, host_work};
  }
  ~CaptureScope() { capture_state() = saved_; }
  CaptureScope(const CaptureScope&) = delete;
  CaptureScope& operator=(const CaptureScope&) = delete;

private:
  CaptureState saved_;
};

#if defined(KOKKOS_ENABLE_CUDA)
/// An instantiated CUDA graph and the memory pool of its captured step.
class CudaStepGraph {
public:
  CudaStepGraph() = default;
  CudaStepGraph(const CudaStepGraph&) = delete;
  CudaStepGraph& operator=(const CudaStepGraph&) = delete;
  ~CudaStepGraph() {
    if (exec_ != nullptr) (void)cudaGraphExecDestroy(exec_);
    if (graph_ != nullptr) (void)cudaGraphDestroy(graph_);
    Allocator<Kokkos::CudaSpace>::instance().release_pool(pool_);
  }

  /// Runs f() eagerly with the graph's pool: the blocks the step needs are then there for
  /// the capture.
  template <class F>
  auto fill_pool(F&& f) {
    auto& allocator = Allocator<Kokkos::CudaSpace>::instance();
    pool_ = allocator.begin_capture(pool_);
    struct End {
      Allocator<Kokkos::CudaSpace>& a;
      ~End() { a.end_capture(); }
    } end{allocator};
    return f();
  }

  /// Records f() on `stream`; kt::Error (and nothing kept) when CUDA cannot capture it.
  /// Relaxed mode: a block the pool lacks is then still allocated (cudaMalloc), where the
  /// stricter modes refuse it.
  template <class F>
  void capture(const std::string& name, cudaStream_t stream, F&& f) {
    auto& allocator = Allocator<Kokkos::CudaSpace>::instance();
    pool_ = allocator.begin_capture(pool_);
    cudaError_t begin = cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed);
    if (begin != cudaSuccess) {
      allocator.end_capture();
      (void)cudaGetLastError();
      KT_THROW(name, ": cudaStreamBeginCapture failed: ", cudaGetErrorName(begin), ": ", cudaGetErrorString(begin));
    }
    try {
      f();
    } catch (...) {
      cudaGraph_t partial = nullptr;
      (void)cudaStreamEndCapture(stream, &partial);
      if (partial != nullptr) (void)cudaGraphDestroy(partial);
      (void)cudaGetLastError();
      allocator.end_capture();
      throw;
    }
    const cudaError_t end = cudaStreamEndCapture(stream, &graph_);
    allocator.end_capture();
    if (end != cudaSuccess || graph_ == nullptr) {
      (void)cudaGetLastError();
      KT_THROW(name, ": CUDA could not capture the step (", cudaGetErrorName(end), ": ", cudaGetErrorString(end),
               "): an operation in the step function is not capturable — one that waits for the device, runs on "
               "another stream than kt's, or copies from pageable host memory; run it outside the step");
    }
    const cudaError_t inst = cudaGraphInstantiate(&exec_, graph_, 0);
    if (inst != cudaSuccess) {
      (void)cudaGetLastError();
      KT_THROW(name, ": cudaGraphInstantiate failed: ", cudaGetErrorName(inst), ": ", cudaGetErrorString(inst));
    }
  }

  void launch(const std::string& name, cudaStream_t stream) const {
    const cudaError_t e = cudaGraphLaunch(exec_, stream);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      KT_THROW(name, ": cudaGraphLaunch failed: ", cudaGetErrorName(e), ": ", cudaGetErrorString(e));
    }
  }

  bool captured() const { return exec_ != nullptr; }

private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
  BlockPool* pool_ = nullptr;
};
#endif

}  // namespace impl

/// A step function recorded once and replayed with new inputs (see the file comment).
/// `Fn` takes `const Tensor<T_i, D>&...` and returns void or a value (usually a Tensor).
template <class D, class Fn>
class StepGraph {
  static_assert(is_device_v<D>, "kt::StepGraph<D, Fn>: D must be a device (kt::Serial, kt::OpenMP, kt::Cuda, ...)");

public:
  explicit StepGraph(Fn fn, StepGraphOptions options = {}) : fn_(std::move(fn)), options_(std::move(options)) {
    KT_REQUIRE(options_.warmup() >= 1, options_.name(), ": warmup must be >= 1, got ", options_.warmup());
  }
  StepGraph(const StepGraph&) = delete;
  StepGraph& operator=(const StepGraph&) = delete;

  /// Runs the step on `inputs` (see the file comment); returns what the step function returns.
  template <class... Ts>
  auto operator()(const Tensor<Ts, D>&... inputs) {
    check_inputs(inputs...);
    ++calls_;
    const char* name = options_.name().c_str();
    using Result = std::invoke_result_t<Fn&, const Tensor<Ts, D>&...>;
    if constexpr (is_host_accessible_v<D>) {
      if (calls_ <= options_.warmup()) {
        impl::CaptureScope scope(name, nullptr);
        return fn_(inputs...);
      }
      auto& held = held_inputs(inputs...);
      if (!host_recorded_) {
        record_on_host(held);
      } else {
        for (const auto& hook : replay_hooks_) hook();
        host_work_.replay();
      }
      if constexpr (!std::is_void_v<Result>) return std::any_cast<Result>(result_);
    } else {
#if defined(KOKKOS_ENABLE_CUDA)
      auto& held = held_inputs(inputs...);
      const cudaStream_t stream = impl::kt_cuda_instance().cuda_stream();
      if (calls_ < options_.warmup()) {
        impl::CaptureScope scope(name, nullptr);
        return std::apply(fn_, held);
      }
      if (calls_ == options_.warmup()) {  // the last warm-up fills the graph's pool
        impl::CaptureScope scope(name, nullptr);
        return graph_.fill_pool([&] { return std::apply(fn_, held); });
      }
      if (!graph_.captured()) {
        graph_.capture(options_.name(), stream, [&] {
          impl::CaptureScope scope(name, &replay_hooks_);
          if constexpr (std::is_void_v<Result>) std::apply(fn_, held);
          else result_ = std::apply(fn_, held);
        });
      } else {
        for (const auto& hook : replay_hooks_) hook();
      }
      graph_.launch(options_.name(), stream);
      if constexpr (!std::is_void_v<Result>) return std::any_cast<Result>(result_);
#else
      static_assert(is_host_accessible_v<D>, "kt::StepGraph: this device has no graph support in this build");
#endif
    }
  }

  /// Whether the step has been captured (a CUDA graph, or a host device's recording).
  bool captured() const {
    if constexpr (is_host_accessible_v<D>) {
      return host_recorded_;
    } else {
#if defined(KOKKOS_ENABLE_CUDA)
      return graph_.captured();
#else
      return false;
#endif
    }
  }

  ~StepGraph() {
    // The recorded work holds tensors of the pool: it goes first, then the pool.
    host_work_.units.clear();
    result_.reset();
    impl::Allocator<memory_space_t<D>>::instance().release_pool(host_pool_);
  }

private:
  /// The graph's own input tensors, with the caller's inputs copied in (ordered on D's work
  /// instance before the step's work).
  template <class... Ts>
  std::tuple<Tensor<Ts, D>...>& held_inputs(const Tensor<Ts, D>&... inputs) {
    using Inputs = std::tuple<Tensor<Ts, D>...>;
    if (!static_inputs_.has_value()) static_inputs_ = Inputs(Tensor<Ts, D>(inputs.shape())...);
    auto& held = std::any_cast<Inputs&>(static_inputs_);
    copy_inputs(held, std::index_sequence_for<Ts...>(), inputs...);
    return held;
  }

  /// Runs the step on `held` while its work is recorded (kt/core/impl/host_work.hpp), its
  /// tensors coming from the graph's pool; nothing is kept if it throws.
  template <class Inputs>
  void record_on_host(Inputs& held) {
    auto& allocator = impl::Allocator<memory_space_t<D>>::instance();
    host_pool_ = allocator.begin_capture(host_pool_);
    struct End {
      impl::Allocator<memory_space_t<D>>& a;
      ~End() { a.end_capture(); }
    } end{allocator};
    try {
      const impl::HostWorkWatch watch;
      {
        impl::CaptureScope scope(options_.name().c_str(), &replay_hooks_, &host_work_);
        if constexpr (std::is_void_v<decltype(std::apply(fn_, held))>) std::apply(fn_, held);
        else result_ = std::apply(fn_, held);
      }
      watch.check(options_.name());
    } catch (...) {
      host_work_.units.clear();
      replay_hooks_.clear();
      result_.reset();
      throw;
    }
    host_recorded_ = true;
  }

  /// Allocates nothing once the first call's dtypes and shapes are kept: a replay's only host
  /// work besides the recorded units.
  template <class... Ts>
  void check_inputs(const Tensor<Ts, D>&... inputs) {
    std::size_t i = 0;
    for (const bool defined : {true, inputs.defined()...}) {  // true: a step may take no input
      KT_REQUIRE(defined, options_.name(), ": input ", i - 1, " is undefined");
      ++i;
    }
    const std::array<const char*, sizeof...(Ts)> dtypes{dtype_name<Ts>()...};
    const std::array<const Shape*, sizeof...(Ts)> shapes{&inputs.shape()...};
    if (calls_ == 0) {
      dtypes_.assign(dtypes.begin(), dtypes.end());
      for (const Shape* shape : shapes) shapes_.push_back(*shape);
      return;
    }
    bool same = dtypes_.size() == dtypes.size();
    for (std::size_t k = 0; same && k < dtypes.size(); ++k) same = dtypes_[k] == dtypes[k];
    KT_REQUIRE(same, options_.name(), ": called with ", dtypes.size(), " inputs of dtypes ",
               list(std::vector<std::string>(dtypes.begin(), dtypes.end())), " but first with ", list(dtypes_),
               "; a step graph keeps its inputs' dtypes");
    for (std::size_t k = 0; k < shapes.size(); ++k)
      KT_REQUIRE(*shapes[k] == shapes_[k], options_.name(), ": input ", k, " has shape ", shapes[k]->str(),
                 " but the step was first called (and captured) with ", shapes_[k].str(),
                 "; a graph replays fixed shapes: use one StepGraph per shape, or drop the last partial batch "
                 "(kt::DataLoaderOptions().drop_last(true))");
  }

  static std::string list(const std::vector<std::string>& v) {
    std::string out = "(";
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i];
    return out + ")";
  }

  template <class Held, std::size_t... I, class... Ts>
  static void copy_inputs(Held& held, std::index_sequence<I...>, const Tensor<Ts, D>&... inputs) {
    // Ordered on kt's stream before the launch; the caller's tensors may be reused at once
    // only after that work is done, as with any kt kernel reading them.
    (kt::copy(D(), std::get<I>(held), inputs), ...);
  }

#if defined(KOKKOS_ENABLE_CUDA)
  impl::CudaStepGraph graph_;
#endif
  std::any static_inputs_, result_;
  impl::HostWork host_work_;
  impl::BlockPool* host_pool_ = nullptr;
  bool host_recorded_ = false;
  Fn fn_;
  StepGraphOptions options_;
  std::vector<std::function<void()>> replay_hooks_;
  std::vector<std::string> dtypes_;
  std::vector<Shape> shapes_;
  int calls_ = 0;
};

/// `auto step = kt::make_step_graph<D>(fn, options)`: a StepGraph of device D.
template <class D, class Fn>
StepGraph<D, std::decay_t<Fn>> make_step_graph(Fn&& fn, StepGraphOptions options = {}) {
  return StepGraph<D, std::decay_t<Fn>>(std::forward<Fn>(fn), std::move(options));
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
