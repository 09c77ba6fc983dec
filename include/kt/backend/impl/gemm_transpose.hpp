#pragma once
/// \file kt/backend/impl/gemm_transpose.hpp
/// fp32 blocks transposed in vector registers — 16 x 16 with AVX-512, 8 x 8 with AVX — for
/// packing an operand whose rows are contiguous into column-major micro-panels (op(B) of the
/// Linear forward's x · Wᵀ), and 8 x 8 blocks for turning tiles of Cᵀ into rows of C (the
/// small path's swapped products: kt/backend/impl/gemm_host_small_swapped.hpp).
///
/// kt's kernels otherwise rely on the compiler's vectoriser (kt/backend/impl/gemm_micro.hpp).
/// A transpose is the one loop it does not vectorise: GCC 12 and Clang load the block element
/// by element, 16 strided scalar loads per stored vector. Packing the 64 x 64 weight of a
/// 32 x 64 x 64 product that way takes as long as the product's multiply-adds; quarter-row
/// loads, 32 in-register shuffles and sixteen stores take a fraction of it (16 shuffles for an
/// 8 x 8 block; docs/performance.md, "Transposed operands"). Other targets keep the scalar loop.

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/unroll.hpp"

#include <cstdint>

#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#if defined(__AVX__)  // AVX-512 builds have both block sizes
#include <immintrin.h>
#define KT_IMPL_GEMM_TRANSPOSE8 1
#endif
#if defined(__AVX512F__)
#define KT_IMPL_GEMM_TRANSPOSE16 1
#endif
#endif

namespace kt::impl {

/// The side of the blocks this build transposes in registers; 0 where it has no such code.
#if defined(KT_IMPL_GEMM_TRANSPOSE16)
inline constexpr int gemm_transpose_block = 16;
#elif defined(KT_IMPL_GEMM_TRANSPOSE8)
inline constexpr int gemm_transpose_block = 8;
#else
inline constexpr int gemm_transpose_block = 0;
#endif

/// Whether this build has gemm_transpose8 (any AVX target, AVX-512 included).
#if defined(KT_IMPL_GEMM_TRANSPOSE8)
inline constexpr bool gemm_transposes8 = true;
#else
inline constexpr bool gemm_transposes8 = false;
#endif

/// Whether panels of r rows pack in those blocks (the divisor is never 0: nvcc's device pass
/// warns of a % 0 even where && skips it).
constexpr bool gemm_transposes_rows(int r) {
  return gemm_transpose_block > 0 && r % (gemm_transpose_block > 0 ? gemm_transpose_block : 1) == 0;
}

#if defined(KT_IMPL_GEMM_TRANSPOSE16)
/// d[c * ds + r] = s[r * rs + c] for r, c < 16. The 128-bit quarters move as they load:
/// quarter g of register 4a + b takes row 4g + b's columns 4a .. 4a + 3 (a load and three
/// inserts from memory), so that a 4 x 4 transpose inside every quarter (interleaves by element,
/// then by pairs) leaves column 4a + q of all sixteen rows in register 4a + q. An insert from
/// memory issues on either of two vector ports where a 512-bit shuffle has one, so 32 shuffles
/// and 48 inserts replace the 64 shuffles of transposing whole rows in registers. A 64 x 64
/// weight packs in 0.4 of the time from L1 and 0.75 from L2 (docs/performance.md, "Transposed
/// operands"). The 4 x 4 stage is spelled out again for 256-bit registers in gemm_transpose8:
/// the intrinsics differ by width.
inline void gemm_transpose16(const float* s, std::int64_t rs, float* d, std::int64_t ds) {
  __m512 a[16];
  KT_IMPL_UNROLL_ROWS
  for (int j = 0; j < 16; ++j) {
    const float* q = s + (j % 4) * rs + (j / 4) * 4;
    __m512 v = _mm512_castps128_ps512(_mm_loadu_ps(q));
    v = _mm512_insertf32x4(v, _mm_loadu_ps(q + 4 * rs), 1);
    v = _mm512_insertf32x4(v, _mm_loadu_ps(q + 8 * rs), 2);
    a[j] = _mm512_insertf32x4(v, _mm_loadu_ps(q + 12 * rs), 3);
  }
  KT_IMPL_UNROLL_ROWS
  for (int c = 0; c < 16; c += 4) {
    const __m512 lo01 = _mm512_unpacklo_ps(a[c], a[c + 1]), hi01 = _mm512_unpackhi_ps(a[c], a[c + 1]);
    const __m512 lo23 = _mm512_unpacklo_ps(a[c + 2], a[c + 3]), hi23 = _mm512_unpackhi_ps(a[c + 2], a[c + 3]);
    _mm512_storeu_ps(d + (c + 0) * ds, _mm512_shuffle_ps(lo01, lo23, _MM_SHUFFLE(1, 0, 1, 0)));
    _mm512_storeu_ps(d + (c + 1) * ds, _mm512_shuffle_ps(lo01, lo23, _MM_SHUFFLE(3, 2, 3, 2)));
    _mm512_storeu_ps(d + (c + 2) * ds, _mm512_shuffle_ps(hi01, hi23, _MM_SHUFFLE(1, 0, 1, 0)));
    _mm512_storeu_ps(d + (c + 3) * ds, _mm512_shuffle_ps(hi01, hi23, _MM_SHUFFLE(3, 2, 3, 2)));
  }
}
#endif

#if defined(KT_IMPL_GEMM_TRANSPOSE8)
/// d[c * ds + r] = s[r * rs + c] for r, c < 8, as gemm_transpose16 does it: the high half of
/// register 4a + b takes row 4 + b's columns 4a .. 4a + 3 as it loads, then a 4 x 4 transpose
/// inside each half leaves column 4a + q in register 4a + q (16 shuffles and eight inserts from
/// memory, where moving the halves in registers takes 24 shuffles).
inline void gemm_transpose8(const float* s, std::int64_t rs, float* d, std::int64_t ds) {
  __m256 a[8];
  KT_IMPL_UNROLL_ROWS
  for (int j = 0; j < 8; ++j) {
    const float* q = s + (j % 4) * rs + (j / 4) * 4;
    a[j] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(q)), _mm_loadu_ps(q + 4 * rs), 1);
  }
  KT_IMPL_UNROLL_ROWS
  for (int c = 0; c < 8; c += 4) {
    const __m256 lo01 = _mm256_unpacklo_ps(a[c], a[c + 1]), hi01 = _mm256_unpackhi_ps(a[c], a[c + 1]);
    const __m256 lo23 = _mm256_unpacklo_ps(a[c + 2], a[c + 3]), hi23 = _mm256_unpackhi_ps(a[c + 2], a[c + 3]);
    _mm256_storeu_ps(d + (c + 0) * ds, _mm256_shuffle_ps(lo01, lo23, _MM_SHUFFLE(1, 0, 1, 0)));
    _mm256_storeu_ps(d + (c + 1) * ds, _mm256_shuffle_ps(lo01, lo23, _MM_SHUFFLE(3, 2, 3, 2)));
    _mm256_storeu_ps(d + (c + 2) * ds, _mm256_shuffle_ps(hi01, hi23, _MM_SHUFFLE(1, 0, 1, 0)));
    _mm256_storeu_ps(d + (c + 3) * ds, _mm256_shuffle_ps(hi01, hi23, _MM_SHUFFLE(3, 2, 3, 2)));
  }
}
#endif

/// Packs the first kc columns of R rows (R a multiple of gemm_transpose_block) of a
/// row-contiguous fp32 source into one column-major micro-panel (dst[c * R + r] =
/// src[r * rs + c]) in register-transposed blocks; returns the number of columns packed (a
/// multiple of the block; 0 where the build has no such code), the caller packs the rest.
template <int R>
int gemm_pack_transposed(float* dst, const float* src, std::int64_t rs, int kc) {
  if constexpr (gemm_transpose_block == 0) {
    (void)dst, (void)src, (void)rs, (void)kc;
    return 0;
  } else {
    constexpr int B = gemm_transpose_block;
    static_assert(gemm_transposes_rows(R), "gemm_pack_transposed: R must be a multiple of the block");
    int c0 = 0;
    for (; c0 + B <= kc; c0 += B)
      for (int g = 0; g < R; g += B) {
#if defined(KT_IMPL_GEMM_TRANSPOSE16)
        gemm_transpose16(src + g * rs + c0, rs, dst + c0 * R + g, R);
#elif defined(KT_IMPL_GEMM_TRANSPOSE8)
        gemm_transpose8(src + g * rs + c0, rs, dst + c0 * R + g, R);
#endif
      }
    return c0;
  }
}

}  // namespace kt::impl
