#pragma once
// kt::kt_compiled, the opt-in compiled instantiation library. kt stays header-only by default;
// a program that links kt::kt_compiled gets KT_COMPILED defined, and the headers that define
// kt's heaviest templates (the GEMM dispatch with every back-end, the fused Linear passes with
// every activation, the reductions, the modules, the optimizers, the data loaders of the common
// samples; docs/integration.md lists them all) then declare them `extern template` for kt's
// floating dtypes on every enabled device. The program's translation units call the library's
// copy instead of instantiating and optimising their own: compile time goes, run time stays
// (each entry point is a whole kernel, dispatch or class, never inlined into a caller's loop).
// The library and its users must share their flags (cmake/ktCompiled.cmake says why).
//
// Each such header lists its entry points once, in a macro that takes the keyword:
//
//     #define KT_ETI_ADAM(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_ADAM_ONE, KW)
//     #if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_OPTIM)
//     KT_ETI_ADAM(extern template)
//     #endif
//
// where KT_ETI_ADAM_ONE(T, D, KW) declares Adam<T, D> and its bases; src/compiled/optim.cpp, the
// one file of the library that defines that group, defines KT_COMPILED_DEFINES_OPTIM, includes
// the header and writes KT_ETI_ADAM(template). An explicit instantiation is a list of
// declarations, which only a macro can write once for both uses (Kokkos' own ETI is built the
// same way). Types outside the lists instantiate as usual.
//
// A few non-template functions that most programs reach (the safetensors reader and writer,
// the checkpoint parts of kt's own classes) are defined once the same way. Their header declares
// them KT_INLINE_UNLESS_COMPILED and defines them in a block that a program linking kt_compiled
// does not see:
//
//     KT_INLINE_UNLESS_COMPILED SafetensorsFile load_safetensors(const std::string& path, ...);
//     #if !defined(KT_COMPILED) || defined(KT_COMPILED_DEFINES_IO)
//     KT_INLINE_UNLESS_COMPILED SafetensorsFile load_safetensors(const std::string& path, ...) { ... }
//     #endif
//
// Header-only they are `inline` functions, compiled by every translation unit that calls one;
// with KT_COMPILED they are ordinary functions that the library's file of that group defines.

#include "kt/core/impl/internal.hpp"

#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_SERIAL)
#define KT_ETI_SERIAL(M, KW) M(Kokkos::Serial, KW)
#define KT_ETI_FLOATS_SERIAL(M, KW) KT_ETI_EACH_FLOAT(M, Kokkos::Serial, KW)
#define KT_ETI_DTYPES_SERIAL(M, KW) KT_ETI_EACH_DTYPE(M, Kokkos::Serial, KW)
#else
#define KT_ETI_SERIAL(M, KW)
#define KT_ETI_FLOATS_SERIAL(M, KW)
#define KT_ETI_DTYPES_SERIAL(M, KW)
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
#define KT_ETI_OPENMP(M, KW) M(Kokkos::OpenMP, KW)
#define KT_ETI_FLOATS_OPENMP(M, KW) KT_ETI_EACH_FLOAT(M, Kokkos::OpenMP, KW)
#define KT_ETI_DTYPES_OPENMP(M, KW) KT_ETI_EACH_DTYPE(M, Kokkos::OpenMP, KW)
#else
#define KT_ETI_OPENMP(M, KW)
#define KT_ETI_FLOATS_OPENMP(M, KW)
#define KT_ETI_DTYPES_OPENMP(M, KW)
#endif
#if defined(KOKKOS_ENABLE_CUDA)
#define KT_ETI_CUDA(M, KW) M(Kokkos::Cuda, KW)
#define KT_ETI_FLOATS_CUDA(M, KW) KT_ETI_EACH_FLOAT(M, Kokkos::Cuda, KW)
#define KT_ETI_DTYPES_CUDA(M, KW) KT_ETI_EACH_DTYPE(M, Kokkos::Cuda, KW)
#else
#define KT_ETI_CUDA(M, KW)
#define KT_ETI_FLOATS_CUDA(M, KW)
#define KT_ETI_DTYPES_CUDA(M, KW)
#endif

/// M(D, KW) for every device D kt instantiates in kt_compiled.
#define KT_ETI_EACH_DEVICE(M, KW) KT_ETI_SERIAL(M, KW) KT_ETI_OPENMP(M, KW) KT_ETI_CUDA(M, KW)

/// M(T, D, KW) for kt's floating dtypes T on device D.
#define KT_ETI_EACH_FLOAT(M, D, KW) M(float, D, KW) M(double, D, KW) M(::kt::half, D, KW) M(::kt::bfloat16, D, KW)

/// M(T, D, KW) for kt's floating dtypes T on every device D.
#define KT_ETI_EACH_FLOAT_DEVICE(M, KW) KT_ETI_FLOATS_SERIAL(M, KW) KT_ETI_FLOATS_OPENMP(M, KW) KT_ETI_FLOATS_CUDA(M, KW)

/// M(T, D, KW) for every kt dtype T on device D.
#define KT_ETI_EACH_DTYPE(M, D, KW) \
  KT_ETI_EACH_FLOAT(M, D, KW) M(std::int32_t, D, KW) M(std::int64_t, D, KW) M(std::uint8_t, D, KW)

/// M(T, D, KW) for every kt dtype T on every device D.
#define KT_ETI_EACH_DTYPE_DEVICE(M, KW) \
  KT_ETI_DTYPES_SERIAL(M, KW) KT_ETI_DTYPES_OPENMP(M, KW) KT_ETI_DTYPES_CUDA(M, KW)

#if defined(KT_COMPILED)
#define KT_INLINE_UNLESS_COMPILED
#else
#define KT_INLINE_UNLESS_COMPILED inline
#endif
