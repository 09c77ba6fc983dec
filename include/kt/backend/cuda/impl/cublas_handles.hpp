#pragma once
// The per-thread cuBLAS handles behind kt::cuda::cublas_handle (kt/backend/cuda/cublas_handle.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/backend/cuda/cuda_error.hpp"

#include <algorithm>
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

}  // namespace kt::cuda
