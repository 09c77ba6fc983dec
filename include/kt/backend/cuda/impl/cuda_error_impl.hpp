#pragma once
// The formatting behind KT_CUDA_CHECK / KT_CUBLAS_CHECK (kt/backend/cuda/cuda_error.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <string>

#if !defined(CUDART_VERSION) || CUDART_VERSION < 11000
#error "kt's CUDA adapters need CUDA 11.0 or newer (bf16 GEMM, cublasComputeType_t)"
#endif

namespace kt::cuda::impl {

/// "cudaMallocHost(&p, n)" -> "cudaMallocHost": the function the macro was given.
inline std::string call_name(const char* expr) {
  const std::string s(expr);
  return s.substr(0, s.find('('));
}

/// A hint for the failures users meet first; empty for the rest.
inline const char* hint(cudaError_t e) {
  switch (e) {
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver: return " (no CUDA driver or GPU here?)";
    case cudaErrorInvalidDevice: return " (device index out of range?)";
    case cudaErrorNoKernelImageForDevice:
      return " (built for another GPU architecture: set CMAKE_CUDA_ARCHITECTURES)";
    default: return "";
  }
}

/// The enumerator's name (cublasGetStatusName only exists from CUDA 11.4 on).
inline const char* status_name(cublasStatus_t s) {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    default: return "CUBLAS_STATUS_(unknown)";
  }
}

/// What the status means, in words (cuBLAS' own strings need CUDA 11.4).
inline const char* status_meaning(cublasStatus_t s) {
  switch (s) {
    case CUBLAS_STATUS_NOT_INITIALIZED:
      return "the library was not initialized (no CUDA device, or the driver failed to start?)";
    case CUBLAS_STATUS_ALLOC_FAILED: return "resource allocation failed (out of device memory?)";
    case CUBLAS_STATUS_INVALID_VALUE: return "an unsupported value or parameter was passed";
    case CUBLAS_STATUS_ARCH_MISMATCH:
      return "the GPU lacks a feature this call needs (e.g. 16-bit GEMM on an old GPU)";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
    default: return "cuBLAS error";
  }
}

[[noreturn]] inline void throw_cuda(cudaError_t e, const std::string& call, const char* file,
                                    int line, const std::string& context = {}) {
  throw ::kt::Error(::kt::impl::concat("kt::cuda: ", call, " failed: ", cudaGetErrorName(e), ": ",
                                       cudaGetErrorString(e), hint(e), context),
                    file, line);
}

[[noreturn]] inline void throw_cublas(cublasStatus_t s, const std::string& call, const char* file,
                                      int line, const std::string& context = {}) {
  throw ::kt::Error(::kt::impl::concat("kt::cublas: ", call, " failed: ", status_name(s), ": ",
                                       status_meaning(s), context),
                    file, line);
}

inline void check_cuda(cudaError_t e, const char* expr, const char* file, int line) {
  if (e != cudaSuccess) {
    // The runtime remembers the last error; a failure turned into an exception must not
    // resurface from an unrelated later cudaGetLastError().
    (void)cudaGetLastError();
    throw_cuda(e, call_name(expr), file, line);
  }
}

inline void check_cublas(cublasStatus_t s, const char* expr, const char* file, int line) {
  if (s != CUBLAS_STATUS_SUCCESS) throw_cublas(s, call_name(expr), file, line);
}

}  // namespace kt::cuda::impl
