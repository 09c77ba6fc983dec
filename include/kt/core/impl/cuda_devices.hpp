#pragma once
// The GPUs a Cuda build can use, asked of the CUDA runtime directly (Kokkos' own query aborts
// the process when there is no driver), and whether kt started Kokkos without them.

#include "kt/core/impl/internal.hpp"

#include <Kokkos_Core.hpp>

namespace kt::impl {

/// GPUs visible to the CUDA runtime: 0 without a Cuda build, a driver or a device.
inline int cuda_device_count() {
#if defined(KOKKOS_ENABLE_CUDA)
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
#else
  return 0;
#endif
}

/// Whether a GPU kernel can read and write `p`: false for plain (pageable, unregistered) host
/// memory unless the GPU can access pageable memory (HMM, ATS). True without a Cuda build.
inline bool cuda_can_access(const void* p) {
#if defined(KOKKOS_ENABLE_CUDA)
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  if (attributes.type != cudaMemoryTypeUnregistered) return true;
  int device = 0, pageable = 0;
  return cudaGetDevice(&device) == cudaSuccess &&
         cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, device) == cudaSuccess && pageable != 0;
#else
  (void)p;
  return true;
#endif
}

/// Set when kt::Runtime started a Cuda build of Kokkos on a machine without a GPU: Kokkos
/// then runs its host devices only, and kt::is_available<kt::Cuda>() is false.
inline bool& cuda_disabled() {
  static bool disabled = false;
  return disabled;
}

}  // namespace kt::impl
