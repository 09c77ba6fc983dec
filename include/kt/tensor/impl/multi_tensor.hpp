#pragma once
// One launch over several tensors (PyTorch's multi_tensor_apply): a kernel functor carries the
// pointers of up to `Max` tensors by value, and TensorGroup maps a flat element index to its
// tensor.
//
// By value, not in a device table: the pointers then need no copy to the device (a copy would
// make the host wait, or need pinned staging kept alive), and a captured CUDA graph replays
// the launch with the same pointers. Kokkos 3 passes a functor below 512 bytes as a kernel
// argument and copies larger ones through constant memory with a host wait on an event, which
// a graph capture cannot take — so a group stays small (Max of 6 to 8 tensors; callers
// static_assert their functor's size), and a model with more tensors takes one launch per
// group.
//
// On a GPU one launch covers the whole group (each thread finds its tensor among at most Max
// ends); on host devices, where a launch costs nothing, each tensor gets its own range so the
// loop over its elements vectorises — the same element function either way.

#include "kt/core/impl/internal.hpp"

#include "kt/core/device.hpp"
#include "kt/core/impl/parallel_for.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace kt::impl {

/// The element ranges of up to Max tensors laid end to end.
template <int Max>
struct TensorGroup {
  static constexpr int capacity = Max;
  std::int64_t end[Max] = {};  // end[e]: elements of tensors 0..e together
  int size = 0;

  /// Appends a tensor of n elements (the caller checks size < Max).
  void add(std::int64_t n) {
    end[size] = (size == 0 ? 0 : end[size - 1]) + n;
    ++size;
  }
  std::int64_t total() const { return size == 0 ? 0 : end[size - 1]; }
  KOKKOS_INLINE_FUNCTION std::int64_t begin(int e) const { return e == 0 ? 0 : end[e - 1]; }
  /// The tensor holding flat element i.
  KOKKOS_INLINE_FUNCTION int entry(std::int64_t i) const {
    int e = 0;
    while (e + 1 < size && i >= end[e]) ++e;
    return e;
  }
};

/// Whether F offers bind(e): tensor e's element function with its device-resident scalars
/// read once, on the host.
template <class F, class = void>
inline constexpr bool has_bind_v = false;
template <class F>
inline constexpr bool has_bind_v<F, std::void_t<decltype(std::declval<const F&>().bind(0))>> = true;

/// Runs f.element(e, k) for every element k of every tensor e of f.group, on device D. On host
/// devices a functor with bind(e) runs bind(e)(k) instead: scalars that live in memory (a
/// learning rate, Adam's step scalars, a skip flag) become values before the loop, which the
/// compiler can then vectorise — read through a pointer inside the loop, a float scalar may
/// alias the float stores and keeps the loop scalar, many times slower (docs/performance.md,
/// "Host float products").
///
/// A recorded host step keeps the whole loop as one unit, so that its replays read those
/// scalars again (kt/core/impl/host_work.hpp).
template <class D, class F>
void multi_tensor_for(const char* label, const F& f) {
  if constexpr (is_host_accessible_v<D>) {
    // Host lambdas (an extended device lambda cannot live in a lambda); one label string for
    // every tensor's launch.
    const auto run = [name = std::string(label), f] {
      for (int e = 0; e < f.group.size; ++e) {
        const std::int64_t n = f.group.end[e] - f.group.begin(e);
        if constexpr (has_bind_v<F>) {
          const auto g = f.bind(e);
          if (g.skip) continue;
          launch_for(D(), name, n, [=](std::int64_t k) { g(k); }, -1);
        } else {
          launch_for(D(), name, n, [=](std::int64_t k) { f.element(e, k); }, -1);
        }
      }
    };
    if (HostWork* recording = host_recording<D>()) record_host_work(recording, run);
    else run();
  } else {
    parallel_for(D(), label, f.group.total(), KOKKOS_LAMBDA(std::int64_t i) {
      const int e = f.group.entry(i);
      f.element(e, i - f.group.begin(e));
    });
  }
}

/// Zero-fills up to 8 tensors in one launch (`zero_grad(set_to_none=false)`).
template <class T>
struct ZeroGroup {
  static constexpr int capacity = 8;
  TensorGroup<capacity> group;
  T* x[capacity];
  KOKKOS_INLINE_FUNCTION void element(int e, std::int64_t k) const { x[e][k] = T(0); }
};

}  // namespace kt::impl
