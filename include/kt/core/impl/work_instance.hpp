#pragma once
// The execution-space instance kt's own work on a device is ordered on.
//
// Host devices, and Cuda outside a capture: the instance given (usually the default one).
// While kt::StepGraph records a step on Cuda, work on the default instance goes to a stream
// graphs can capture. Kokkos 4 gives its default instance a stream of its own, which serves;
// Kokkos 3's default instance is CUDA's legacy stream, which cudaStreamBeginCapture refuses,
// so there the capture (and the graph's launches) use one stream kt creates with the default
// flags: the legacy stream waits for it and it for the legacy stream, so eager work before and
// after a replay stays ordered with the graph, as it stays ordered with kernels a user
// launches on Kokkos::Cuda().

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/capture_state.hpp"

#include <Kokkos_Core.hpp>

namespace kt::impl {

template <class Exec>
Exec work_instance(const Exec& exec) {
  return exec;
}

#if defined(KOKKOS_ENABLE_CUDA)
/// kt's capture instance (see the file comment): made on first use, released by a finalize
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

/// Kokkos 3's default instance (the legacy stream) becomes kt's capture stream while a step is
/// captured on this thread; any other instance, and the default one otherwise, is kept.
inline Kokkos::Cuda work_instance(const Kokkos::Cuda& exec) {
  return exec.cuda_stream() == nullptr && capture_state().recording ? kt_cuda_instance() : exec;
}
#endif

}  // namespace kt::impl
