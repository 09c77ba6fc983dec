#pragma once
// Loop hints for register-blocked kernels (the GEMM micro-kernel, the in-kernel MLP): a block
// of R x C accumulators updated in a `rows { columns }` loop nest. GCC: unroll the rows
// completely but keep the column loop a loop, so that the *loop* vectoriser turns it into
// C / simd vector FMAs whose accumulators it then keeps in registers; fully unrolled, GCC 12
// instead vectorises as a far slower SLP reduction with lane permutes and spills. Clang's SLP
// vectoriser is faster with everything unrolled (docs/performance.md, "kt's own host kernel
// against OpenBLAS"). GPUs: unroll everything, the block is scalar registers.

#include "kt/core/impl/internal.hpp"

#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__clang__)
#define KT_IMPL_UNROLL_ROWS _Pragma("unroll")
#define KT_IMPL_UNROLL_COLS _Pragma("unroll")
#elif defined(__GNUC__) && !defined(__NVCC__)  // nvcc's front end rejects GCC's pragma
#define KT_IMPL_UNROLL_ROWS _Pragma("GCC unroll 64")
#define KT_IMPL_UNROLL_COLS _Pragma("GCC unroll 1")
#else
#define KT_IMPL_UNROLL_ROWS
#define KT_IMPL_UNROLL_COLS
#endif
