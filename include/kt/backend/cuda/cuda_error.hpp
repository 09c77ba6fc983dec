#pragma once
/// \file kt/backend/cuda/cuda_error.hpp
/// Turns CUDA runtime and cuBLAS status codes into kt::Error, naming the failed call, the
/// code and its meaning, plus a hint for the common causes. Host code only; needs the CUDA
/// toolkit's headers but not Kokkos (kt's CUDA adapters compile with plain nvcc or g++).
///
///     KT_CUDA_CHECK(cudaMallocHost(&p, bytes));
///     // kt::Error: "kt::cuda: cudaMallocHost failed: cudaErrorInsufficientDriver: CUDA driver
///     //   version is insufficient for CUDA runtime version (no CUDA driver or GPU here?) [f:12]"
///     KT_CUBLAS_CHECK(cublasCreate(&handle));
///     // kt::Error: "kt::cublas: cublasCreate failed: CUBLAS_STATUS_NOT_INITIALIZED: the
///     //   library was not initialized (no CUDA device, or the driver failed to start?) [f:14]"

#include "kt/core/impl/public_begin.hpp"

#include "kt/backend/cuda/impl/cuda_error_impl.hpp"

/// Throws kt::Error unless the CUDA runtime call returned cudaSuccess.
#define KT_CUDA_CHECK(call) ::kt::cuda::impl::check_cuda((call), #call, __FILE__, __LINE__)

/// Throws kt::Error unless the cuBLAS call returned CUBLAS_STATUS_SUCCESS.
#define KT_CUBLAS_CHECK(call) ::kt::cuda::impl::check_cublas((call), #call, __FILE__, __LINE__)

#include "kt/core/impl/public_end.hpp"
