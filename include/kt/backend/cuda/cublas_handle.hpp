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

#include "kt/backend/cuda/cuda_error.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace kt::cuda {
namespace impl {

/// The handles of one thread, indexed by device.
class CublasHandles {
public:
  CublasHandles() = default;
  CublasHandles(const CublasHandles&) = delete;
  CublasHandles& operator=(const CublasHandles&) = delete;

  // Destroyed when the thread exits. For the main thread that is at exit(), and the C++
  // rules order it before every static destructor and atexit handler — so before the CUDA
  // runtime tears itself down (PyTorch leaks its handles because its pool is a *static*
  // object, destroyed too late). Errors are ignored: nothing can be reported from here.
  ~CublasHandles() { release(); }

  cublasHandle_t get(int device) {
    if (device >= static_cast<int>(handles_.size())) handles_.resize(device + 1, nullptr);
    if (handles_[device] == nullptr) {
      cublasHandle_t h = nullptr;
      KT_CUBLAS_CHECK(cublasCreate(&h));  // on the current device, which is `device`
      handles_[device] = h;               // owned from here: release() destroys it on failure
      KT_CUBLAS_CHECK(cublasSetAtomicsMode(h, CUBLAS_ATOMICS_NOT_ALLOWED));
      KT_CUBLAS_CHECK(cublasSetMathMode(
          h, static_cast<cublasMath_t>(CUBLAS_DEFAULT_MATH |
                                       CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)));
    }
    return handles_[device];
  }

  /// Destroys every handle, each with its own device current (cuBLAS requires the device of
  /// a handle to be unchanged from cublasCreate to cublasDestroy), then restores the device.
  void release() noexcept {
    const auto none = [](cublasHandle_t h) { return h == nullptr; };
    if (std::all_of(handles_.begin(), handles_.end(), none)) return;  // touch no CUDA then
    int current = -1;
    const bool have_current = cudaGetDevice(&current) == cudaSuccess;
    for (int d = 0; d < static_cast<int>(handles_.size()); ++d) {
      if (handles_[d] == nullptr) continue;
      if (cudaSetDevice(d) == cudaSuccess) (void)cublasDestroy(handles_[d]);
      handles_[d] = nullptr;  // on failure (context gone) the handle is leaked, not misused
    }
    if (have_current) (void)cudaSetDevice(current);
    (void)cudaGetLastError();
  }

private:
  std::vector<cublasHandle_t> handles_;
};

inline CublasHandles& thread_cublas_handles() {
  thread_local CublasHandles handles;
  return handles;
}

}  // namespace impl

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
