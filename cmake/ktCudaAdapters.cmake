# kt's raw-pointer CUDA adapters (include/kt/backend/cuda/: cuBLAS GEMM, pinned host memory)
# as the INTERFACE target kt::cuda_adapters. They are host code over device pointers and
# cudaStream_t: they need the CUDA toolkit (headers, cudart, cuBLAS) but neither Kokkos-Cuda
# nor a GPU, so they build, and their tests run, wherever a CUDA compiler is installed.
#
# KT_ENABLE_CUDA_ADAPTERS defaults to ON when CMake finds a CUDA compiler (nvcc on PATH,
# CUDACXX or CMAKE_CUDA_COMPILER) and OFF otherwise, so configuring never fails for lack of
# CUDA; switched ON explicitly without one, it stops with a clear message.

include(CheckLanguage)
if(NOT DEFINED CACHE{KT_ENABLE_CUDA_ADAPTERS})
  check_language(CUDA)  # a trial configure of CUDA; sets CMAKE_CUDA_COMPILER or NOTFOUND
endif()
if(CMAKE_CUDA_COMPILER)
  set(_kt_cuda_default ON)
else()
  set(_kt_cuda_default OFF)
endif()
option(KT_ENABLE_CUDA_ADAPTERS
  "Build the raw-pointer CUDA adapters (cuBLAS, pinned memory) and their tests" ${_kt_cuda_default})
unset(_kt_cuda_default)

if(NOT KT_ENABLE_CUDA_ADAPTERS)
  return()
endif()

if(NOT CMAKE_CUDA_COMPILER)
  unset(CMAKE_CUDA_COMPILER CACHE)  # a NOTFOUND cached by an earlier configure: look again
  check_language(CUDA)
  if(NOT CMAKE_CUDA_COMPILER)
    message(FATAL_ERROR "kt: KT_ENABLE_CUDA_ADAPTERS is ON but no CUDA compiler was found: "
      "put nvcc on PATH, or set CUDACXX or CMAKE_CUDA_COMPILER "
      "(e.g. -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc), "
      "or pass -DKT_ENABLE_CUDA_ADAPTERS=OFF")
  endif()
endif()

# CMAKE_CUDA_ARCHITECTURES: left to the user; unset, enable_language() takes nvcc's own
# default (sm_75 for CUDA 13, sm_52 for CUDA 11), which that nvcc always supports — a fixed
# value such as 90 breaks CUDA < 11.8, and "native" fails on machines without a GPU. The
# adapters and their tests contain no device code, so the choice does not matter for them.
if(NOT DEFINED CMAKE_CUDA_STANDARD)
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
endif()
enable_language(CUDA)
find_package(CUDAToolkit REQUIRED)

# No Kokkos here: users link kt::kt as well when they use kt::GemmProblem with the adapters.
add_library(kt_cuda_adapters INTERFACE)
add_library(kt::cuda_adapters ALIAS kt_cuda_adapters)
set_target_properties(kt_cuda_adapters PROPERTIES EXPORT_NAME cuda_adapters)
target_include_directories(kt_cuda_adapters INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(kt_cuda_adapters INTERFACE cxx_std_17)
target_link_libraries(kt_cuda_adapters INTERFACE CUDA::cublas CUDA::cudart)

# Installed in its own export set: ktConfig.cmake loads it (after finding CUDAToolkit) only
# when it exists, so an install without CUDA stays CUDA-free.
install(TARGETS kt_cuda_adapters EXPORT ktCudaAdaptersTargets)
install(EXPORT ktCudaAdaptersTargets NAMESPACE kt:: DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/kt")
message(STATUS "kt: CUDA adapters enabled (CUDA ${CUDAToolkit_VERSION}, "
  "architectures ${CMAKE_CUDA_ARCHITECTURES})")
