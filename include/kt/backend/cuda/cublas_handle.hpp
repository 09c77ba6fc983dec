#pragma once
/// \file kt/backend/cuda/cublas_handle.hpp
/// kt's cuBLAS handles: one per (host thread, device), created on first use and bound to the
/// caller's stream on every call — NVIDIA's recommended model for multi-threaded programs.
///
///     cublasHandle_t h = kt::cuda::cublas_handle(stream);   // current device, this thread
///     KT_CUBLAS_CHECK(cublasSaxpy(h, n, &alpha, x, 1, y, 1));
///     kt::cuda::release_cublas_handles();   // optional: before cudaDeviceReset(), say
///
/// Settings of new handles: atomics not allowed (cuBLAS' default, set explicitly: no
/// split-K/atomic variants, so results are run-to-run reproducible), and no reduced-precision
/// reductions for 16-bit GEMMs (accumulation really is fp32). Code that changes a setting of
/// the shared handle (pointer mode, math mode) must restore it.
///
/// Reproducibility: cuBLAS gives bit-identical results run to run on the same GPU model and
/// toolkit while ONE stream is active. With concurrent streams it may pick different
/// workspaces, hence algorithms; set CUBLAS_WORKSPACE_CONFIG=:4096:8 (or :16:8) before CUDA
/// starts for determinism then — cublas_workspace_config_is_deterministic() checks it.

#include "kt/core/impl/public_begin.hpp"

#include "kt/backend/cuda/cuda_error.hpp"
#include "kt/backend/cuda/impl/cublas_handles.hpp"

#include <cstdlib>
#include <cstring>

namespace kt::cuda {

/// The calling thread's cuBLAS handle for the current device (created on first use), bound to
/// `stream` (which must belong to the current device). Not to be shared with other threads.
/// Throws kt::Error when CUDA or cuBLAS cannot start (no driver, no device, out of memory).
inline cublasHandle_t cublas_handle(cudaStream_t stream) {
  int device = 0;
  KT_CUDA_CHECK(cudaGetDevice(&device));
  cublasHandle_t h = impl::thread_cublas_handles().get(device);
  KT_CUBLAS_CHECK(cublasSetStream(h, stream));
  return h;
}

/// Destroys the calling thread's handles now (they are recreated on the next use). Call it
/// before cudaDeviceReset(); other threads' handles go when those threads exit.
inline void release_cublas_handles() noexcept { impl::thread_cublas_handles().release(); }

/// True when CUBLAS_WORKSPACE_CONFIG is ":4096:8" or ":16:8" (cuBLAS' documented values for
/// deterministic results with several concurrent streams; read when CUDA starts).
inline bool cublas_workspace_config_is_deterministic() {
  const char* v = std::getenv("CUBLAS_WORKSPACE_CONFIG");
  return v != nullptr && (std::strcmp(v, ":4096:8") == 0 || std::strcmp(v, ":16:8") == 0);
}

}  // namespace kt::cuda

#include "kt/core/impl/public_end.hpp"
