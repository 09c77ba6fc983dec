#pragma once
// kt's host and device launches, on an execution-space instance. kt's kernels go through
// these functions, so the rules below hold for them; the kernels that need a team with scratch
// memory (the GEMM kernels, Linear's GPU backward epilogue, the class-loss reduction) launch a
// Kokkos::TeamPolicy themselves, on the same instance. The rules:
//  - The kernel is ordered on work_instance(exec) (kt's CUDA stream on GPUs, see
//    kt/core/impl/work_instance.hpp); nothing fences.
//  - On a host thread pool (OpenMP) a kernel takes one thread per host_grain elements of
//    work, as PyTorch's at::parallel_for does with its grain size: a thread costs a wake-up
//    and a share of the join, more than one core needs for a few thousand simple elements.
//    Below one grain the kernel runs on the calling thread (Kokkos::Serial, same memory
//    space). Results do not change: every kt kernel computes each element independently of
//    how the range is split (reductions fix their order by shape).
//  - Every parallel region on the host is one team of the whole pool, the threads beyond
//    the work idle through it: GCC's OpenMP runtime ends the surplus threads of its pool
//    whenever a smaller team starts and creates them again for the next larger one. Teams of
//    mixed sizes (GEMM pieces, the loader's gather, Kokkos kernels) make the main example's
//    epoch slower on 16 threads than on 8 (docs/performance.md, "Many cores").
//  - None of this applies to GPUs, whose launches are asynchronous anyway.

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/host_wait.hpp"
#include "kt/core/impl/host_work.hpp"
#include "kt/core/impl/work_instance.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace kt::impl {

/// Elements of work per host thread: a kernel of w elements runs on ceil(w / host_grain)
/// threads at most, on the calling thread below one grain.
inline constexpr std::int64_t host_grain = 8192;

/// The execution space a small kernel of device D runs on: D itself, except Serial for OpenMP.
template <class D>
struct inline_space {
  using type = D;
};
#if defined(KOKKOS_ENABLE_OPENMP) && defined(KOKKOS_ENABLE_SERIAL)
template <>
struct inline_space<Kokkos::OpenMP> {
  using type = Kokkos::Serial;
};
#endif

template <class Exec>
using index_policy_t = Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>;

/// f(i) for i in [begin, end), out of line: a host pool's kernel calls it from each of its
/// launch paths (on the calling thread, from the pool, from inside a parallel region), so the
/// compiler builds each kernel's loop once instead of once per path; one call per piece costs
/// nothing next to a piece of work.
template <class F>
__attribute__((noinline)) void run_range(const F& f, std::int64_t begin, std::int64_t end) {
  for (std::int64_t i = begin; i < end; ++i) f(i);
}

/// Piece c of [0, n) in pieces of `chunk` elements, through run_range. It points to the
/// caller's f: a host pool runs the kernel before Kokkos::parallel_for returns, and a copy of f
/// would copy its Views, each an atomic reference count up and down per launch.
template <class F>
struct RangePieces {
  const F* f;
  std::int64_t n, chunk;
  void operator()(std::int64_t c) const { run_range(*f, c * chunk, std::min(n, (c + 1) * chunk)); }
};

/// parallel_for's launch.
template <class Exec, class F>
void launch_for(const Exec& exec, const std::string& label, std::int64_t n, const F& f, std::int64_t work) {
  using Inline = typename inline_space<Exec>::type;
  if constexpr (!std::is_same_v<Inline, Exec>) {
    const std::int64_t threads = ((work < 0 ? n : work) + host_grain - 1) / host_grain;
    const std::int64_t pieces = std::max<std::int64_t>(1, std::min<std::int64_t>(threads, exec.concurrency()));
    const RangePieces<F> run{&f, n, (n + pieces - 1) / pieces};
    // One piece with nothing watching launches (no Kokkos tool, no kt::Profiler): the loop
    // itself, without Kokkos' launch bookkeeping (10 ns a kernel, 0.3 µs of a small step).
    if (pieces == 1 && !Kokkos::Profiling::profileLibraryLoaded()) run_range(f, 0, n);
    else if (pieces == 1) Kokkos::parallel_for(label, index_policy_t<Inline>(0, 1), run);
    else Kokkos::parallel_for(label, index_policy_t<Exec>(work_instance(exec), 0, pieces), run);
  } else {
    Kokkos::parallel_for(label, index_policy_t<Exec>(work_instance(exec), 0, n), f);
  }
}

/// Kokkos::parallel_for(label, [0, n), f) on `exec`; on a host pool, on the calling thread or
/// on ceil(work / host_grain) threads (at most the pool) when `work` (default n) is small, one
/// contiguous piece each. While kt::Profiler or a Kokkos tool watches, every launch is a Kokkos
/// kernel, so they see it; unwatched, a kernel on the calling thread runs its loop directly.
/// One unit of a step recorded on a host device (kt/core/impl/host_work.hpp).
template <class Exec, class F>
void parallel_for(const Exec& exec, const char* label, std::int64_t n, const F& f, std::int64_t work = -1) {
  if constexpr (is_host_accessible_v<Exec>)  // devices without recording compile none of it
    if (HostWork* recording = host_recording<Exec>())
      return record_host_work(recording, [exec, name = std::string(label), n, f, work] { launch_for(exec, name, n, f, work); });
  launch_for(exec, label, n, f, work);
}

/// parallel_reduce's launch.
template <class Exec, class F, class... Results>
void launch_reduce(const Exec& exec, const std::string& label, std::int64_t n, const F& f, Results&... results) {
  using Inline = typename inline_space<Exec>::type;
  if constexpr (!std::is_same_v<Inline, Exec>) {
    if (n < host_grain) {
      Kokkos::parallel_reduce(label, index_policy_t<Inline>(0, n), f, results...);
      return;
    }
  }
  Kokkos::parallel_reduce(label, index_policy_t<Exec>(work_instance(exec), 0, n), f, results...);
}

/// parallel_reduce without the host-wait bookkeeping; into Views, one unit of a recorded host
/// step (into host scalars it is refused there, by HostWait).
template <class Exec, class F, class... Results>
void reduce_on(const Exec& exec, const char* label, std::int64_t n, const F& f, Results&... results) {
  if constexpr (is_host_accessible_v<Exec> && (Kokkos::is_view<Results>::value && ...)) {
    if (HostWork* recording = host_recording<Exec>())
      return record_host_work(recording, [exec, name = std::string(label), n, f, results...]() mutable {
        launch_reduce(exec, name, n, f, results...);
      });
  }
  launch_reduce(exec, label, n, f, results...);
}

/// Kokkos::parallel_reduce(label, [0, n), f, results...) on `exec`, on the calling thread when
/// exec is a host pool and n is below one grain. Reducing into host scalars waits for the
/// result.
template <class Exec, class F, class... Results>
void parallel_reduce(const Exec& exec, const char* label, std::int64_t n, const F& f, Results&... results) {
  if constexpr (!(Kokkos::is_view<Results>::value && ...)) {
    // A result in host memory: the host waits for the kernel (kt/core/impl/host_wait.hpp).
    HostWait<typename Exec::memory_space> wait(label);
    reduce_on(exec, label, n, f, results...);
    wait.done();
  } else {
    reduce_on(exec, label, n, f, results...);
  }
}

/// copy_views' copy. Between host memory, fewer than host_grain elements of one type and
/// nothing watching (no Kokkos tool, no kt::Profiler), it is a memcpy on the calling thread,
/// where host work is done by the time it returns anyway: Kokkos' deep_copy checks its
/// arguments and asks for tool callbacks several times over, longer than such a copy takes
/// (a recorded small step's input copies: docs/performance.md, "Bias and ReLU in the small
/// path's tile store").
template <class Exec, class Dst, class Src>
void copy_now(const Exec& exec, const Dst& dst, const Src& src) {
  using V = typename Dst::non_const_value_type;
  constexpr bool host_pair = is_host_accessible_v<Exec> && unsigned(Dst::traits::rank) == 1 &&
                             unsigned(Src::traits::rank) == 1 &&
                             std::is_same_v<V, typename Src::non_const_value_type> && std::is_trivially_copyable_v<V> &&
                             Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Dst::memory_space>::accessible &&
                             Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Src::memory_space>::accessible;
  if constexpr (host_pair) {
    const std::size_t n = dst.extent(0);
    const V* const from = src.data();
    V* const to = dst.data();
    const bool apart = to + n <= from || from + n <= to;  // Kokkos reports an overlap
    if (n == src.extent(0) && n < std::size_t(host_grain) && apart && !Kokkos::Profiling::profileLibraryLoaded()) {
      if (n > 0) std::memcpy(to, from, n * sizeof(V));
      return;
    }
  }
  Kokkos::deep_copy(work_instance(exec), dst, src);
}

/// Kokkos::deep_copy(dst, src) ordered on `exec`; one unit of a step recorded on a host device.
template <class Exec, class Dst, class Src>
void copy_views(const Exec& exec, const Dst& dst, const Src& src) {
  if constexpr (is_host_accessible_v<Exec>)
    if (HostWork* recording = host_recording<Exec>())
      return record_host_work(recording, [exec, dst, src] { copy_now(exec, dst, src); });
  copy_now(exec, dst, src);
}

/// f(i) for i in [0, pieces) on the host's default execution space, piece i on thread i of
/// its (whole) team; one after another on the calling thread where there is no pool or the
/// caller is already inside one. For a few large pieces of host work that call libraries or
/// copy memory (kt's BLAS pieces, the loader's gather); f must not throw.
template <class F>
void parallel_pieces(const std::string& label, int pieces, const F& f) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  KT_REQUIRE(host_recording<Host>() == nullptr, label, " cannot be recorded in a step on a host device: it runs "
             "only inside a unit of recorded work (a GEMM)");
  if (pieces == 1) {
    f(0);
    return;
  }
  if (pieces > 1)
    Kokkos::parallel_for(label, Kokkos::RangePolicy<Host, Kokkos::IndexType<int>>(0, pieces, Kokkos::ChunkSize(1)), f);
}

}  // namespace kt::impl
