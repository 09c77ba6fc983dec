#pragma once
// The execution-space instance kt's own work on a device is ordered on.
//
// Host devices: the instance given (kernels there complete before they return).
// Cuda: a stream CUDA graphs can capture. Kokkos 4 gives its default instance a stream of its
// own, and kt uses it; Kokkos 3's default instance is CUDA's legacy stream, which
// cudaStreamBeginCapture refuses, so there kt's work goes to one stream kt creates, with the
// default flags: the legacy stream waits for it and it for the legacy stream, so kernels a user
// launches on Kokkos::Cuda() stay ordered with kt's.

#include <Kokkos_Core.hpp>

namespace kt::impl {

template <class Exec>
Exec work_instance(const Exec& exec) {
  return exec;
}

#if defined(KOKKOS_ENABLE_CUDA)
/// kt's Cuda instance (see the file comment): made on first use, released by a finalize
/// hook (and made again should Kokkos be initialised again).
inline Kokkos::Cuda kt_cuda_instance() {
  struct Owned {
    cudaStream_t stream = nullptr;
    Kokkos::Cuda* exec = nullptr;
  };
  static Owned owned;
  if (owned.exec == nullptr) {
    const Kokkos::Cuda fallback;
    if (fallback.cuda_stream() != nullptr || cudaStreamCreate(&owned.stream) != cudaSuccess) {
      (void)cudaGetLastError();
      owned.stream = nullptr;
      owned.exec = new Kokkos::Cuda(fallback);
    } else {
      owned.exec = new Kokkos::Cuda(owned.stream);
    }
    Kokkos::push_finalize_hook([] {
      owned.exec->fence();
      delete owned.exec;
      owned.exec = nullptr;
      if (owned.stream != nullptr) (void)cudaStreamDestroy(owned.stream);
      owned.stream = nullptr;
    });
  }
  return *owned.exec;
}

/// Kokkos 3's default instance (the legacy stream) becomes kt's stream; any other instance
/// (one the caller made on its own stream) is kept.
inline Kokkos::Cuda work_instance(const Kokkos::Cuda& exec) {
  return exec.cuda_stream() == nullptr ? kt_cuda_instance() : exec;
}
#endif

}  // namespace kt::impl
