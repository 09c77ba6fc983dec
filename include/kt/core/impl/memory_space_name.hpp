#pragma once
// Memory-space names as the Kokkos types are spelled ("HostSpace", "CudaSpace", ...);
// Kokkos' own name() says "Host" or "Cuda", which reads like a device.

#include "kt/core/impl/internal.hpp"

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

namespace kt::impl {

template <class MemSpace>
std::string memory_space_name() {
  if constexpr (std::is_same_v<MemSpace, Kokkos::HostSpace>) return "HostSpace";
#if defined(KOKKOS_ENABLE_CUDA)
  else if constexpr (std::is_same_v<MemSpace, Kokkos::CudaSpace>) return "CudaSpace";
  else if constexpr (std::is_same_v<MemSpace, Kokkos::CudaUVMSpace>) return "CudaUVMSpace";
  else if constexpr (std::is_same_v<MemSpace, Kokkos::CudaHostPinnedSpace>) return "CudaHostPinnedSpace";
#endif
  else return MemSpace::name();
}

}  // namespace kt::impl
