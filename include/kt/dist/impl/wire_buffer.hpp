#pragma once
// The host memory MPI reads and writes for one tensor: the tensor's own memory when it is
// host-accessible and already of the wire type (no copy at all), else a copy — pinned when kt
// runs on Cuda, so the device copies run at full speed — widened to fp32 for 16-bit reductions.
// finish() applies avg's division and copies the result back into the tensor.

#include "kt/core/impl/internal.hpp"

#include "kt/dist/impl/mpi_types.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

namespace kt::impl {

#if defined(KOKKOS_ENABLE_CUDA)
using DistStagingSpace = Kokkos::CudaHostPinnedSpace;
#else
using DistStagingSpace = Kokkos::HostSpace;
#endif

template <class T, class D>
inline constexpr bool host_accessible_v =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Tensor<T, D>::memory_space>::accessible;

template <class W, class T, class D>
class WireBuffer {
public:
  /// `read`: the tensor's values are needed (inputs); outputs only need the space.
  WireBuffer(const Tensor<T, D>& tensor, bool read) : tensor_(tensor) {
    const auto n = static_cast<std::size_t>(tensor.numel());
    Kokkos::fence();  // the tensor's values may still be computed by queued kernels
    host_ = tensor.data();
    if constexpr (!host_accessible_v<T, D>) {
      staging_ = Kokkos::View<T*, DistStagingSpace>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kt::dist staging"), n);
      if (read && n > 0) Kokkos::deep_copy(staging_, tensor.view());
      host_ = staging_.data();
    }
    if constexpr (std::is_same_v<W, T>) {
      data_ = host_;
    } else {
      wide_.resize(n);
      if (read)
        for (std::size_t i = 0; i < n; ++i) wide_[i] = static_cast<W>(host_[i]);
      data_ = wide_.data();
    }
  }
  WireBuffer(const WireBuffer&) = delete;
  WireBuffer& operator=(const WireBuffer&) = delete;

  W* data() const { return data_; }

  /// After MPI wrote data(): divides by `divisor` (avg; 1 for the others) and puts the result
  /// into the tensor.
  void finish(int divisor = 1) {
    const auto n = static_cast<std::size_t>(tensor_.numel());
    if constexpr (std::is_floating_point_v<W>) {
      if (divisor != 1)
        for (std::size_t i = 0; i < n; ++i) data_[i] /= static_cast<W>(divisor);
    }
    if constexpr (!std::is_same_v<W, T>)
      for (std::size_t i = 0; i < n; ++i) host_[i] = static_cast<T>(wide_[i]);
    if constexpr (!host_accessible_v<T, D>) {
      if (n > 0) Kokkos::deep_copy(tensor_.view(), staging_);
    }
  }

private:
  Tensor<T, D> tensor_;
  T* host_ = nullptr;
  W* data_ = nullptr;
  std::vector<W> wide_;
  Kokkos::View<T*, DistStagingSpace> staging_;
};

}  // namespace kt::impl
