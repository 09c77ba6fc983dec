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

# CMAKE_CUDA_ARCHITECTURES: the user's; else, with a Kokkos built for Cuda, Kokkos' own GPU
# architecture (Kokkos_ARCH: HOPPER90 -> 90); else nvcc's own default (sm_75 for CUDA 13,
# sm_52 for CUDA 11), which that nvcc always supports — a fixed value such as 90 breaks CUDA
# < 11.8, and "native" fails on machines without a GPU. The adapters and their tests contain
# no device code, so the choice only names what the build targets.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND Kokkos_ENABLE_CUDA)
  foreach(arch IN LISTS Kokkos_ARCH)
    if(arch MATCHES "^(KEPLER|MAXWELL|PASCAL|VOLTA|TURING|AMPERE|ADA|HOPPER|BLACKWELL)([0-9]+)$")
      set(CMAKE_CUDA_ARCHITECTURES "${CMAKE_MATCH_2}")
    endif()
  endforeach()
endif()
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

# Installed in its own export set, which ktConfig.cmake loads (after finding CUDAToolkit) only
# when it exists. By default only beside a Kokkos with Cuda: with a host-only Kokkos the
# adapters are built for their tests, and the install stays CUDA-free for its users.
option(KT_INSTALL_CUDA_ADAPTERS "Install kt::cuda_adapters (its users then need the CUDA toolkit)"
       ${Kokkos_ENABLE_CUDA})
if(KT_INSTALL_CUDA_ADAPTERS)
  install(TARGETS kt_cuda_adapters EXPORT ktCudaAdaptersTargets)
  install(EXPORT ktCudaAdaptersTargets NAMESPACE kt:: DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/kt")
  message(STATUS "kt: CUDA adapters enabled and installed (CUDA ${CUDAToolkit_VERSION}, "
    "architectures ${CMAKE_CUDA_ARCHITECTURES})")
else()
  message(STATUS "kt: CUDA adapters built for their tests, not installed (Kokkos has no Cuda; "
    "-DKT_INSTALL_CUDA_ADAPTERS=ON installs them)")
endif()
