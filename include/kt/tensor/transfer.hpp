#pragma once
/// \file kt/tensor/transfer.hpp
/// Copies between tensors, across devices too: `dst.copy_(src)` in PyTorch. Moving a whole
/// tensor is `t.to<Device>()` (see kt/tensor/tensor.hpp).
///
///     auto staging = kt::empty<float, kt::Host>({256, 784});
///     auto batch = kt::empty<float, kt::DefaultDevice>({256, 784});
///     kt::copy(batch, staging);                   // blocking, like torch's copy_
///
///     kt::DefaultDevice stream;                   // an execution-space instance
///     kt::copy(stream, batch, staging);           // ordered on `stream` only
///     stream.fence();                             // wait for it

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/impl/host_wait.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/tensor/impl/copy_check.hpp"
#include "kt/tensor/impl/same_device.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace kt {

/// Copies src's elements into dst. Shapes must be equal; dtypes must be equal (checked at
/// compile time); the devices may differ. Returns when the copy is complete.
template <class T1, class D1, class T2, class D2>
void copy(const Tensor<T1, D1>& dst, const Tensor<T2, D2>& src) {
  impl::require_same_dtype<T1, T2>();
  if constexpr (std::is_same_v<T1, T2>) {
    KT_PROFILE_REGION("kt::copy");
    impl::check_copy(dst, src, "kt::copy");
    if (src.numel() == 0) return;
    // deep_copy without an instance fences: pending work on both devices finishes first.
    impl::HostWait<typename Tensor<T2, D2>::memory_space> wait("kt::copy");
    Kokkos::deep_copy(dst.view(), src.view());
    wait.done();
  }
}

/// Asynchronous copy ordered on `exec`, an instance of dst's or src's device (a CUDA stream
/// on GPUs). Neither tensor may be touched until `exec.fence()` (or later work on `exec`).
template <class ExecSpace, class T1, class D1, class T2, class D2>
void copy(const ExecSpace& exec, const Tensor<T1, D1>& dst, const Tensor<T2, D2>& src) {
  static_assert(std::is_same_v<ExecSpace, D1> || std::is_same_v<ExecSpace, D2>,
                "kt::copy(exec, dst, src): exec must be an instance of dst's or src's device");
  impl::require_same_dtype<T1, T2>();
  if constexpr (std::is_same_v<T1, T2>) {
    KT_PROFILE_REGION("kt::copy(exec)");
    impl::check_copy(dst, src, "kt::copy");
    if (src.numel() == 0) return;
    impl::copy_views(exec, dst.view(), src.view());
  }
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
