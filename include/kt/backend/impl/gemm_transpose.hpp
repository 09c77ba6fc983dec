#pragma once
/// \file kt/backend/impl/gemm_transpose.hpp
/// fp32 blocks transposed in vector registers — 16 x 16 with AVX-512, 8 x 8 with AVX — for
/// packing an operand whose rows are contiguous into column-major micro-panels (op(B) of the
/// Linear forward's x · Wᵀ).
///
/// kt's kernels otherwise rely on the compiler's vectoriser (kt/backend/impl/gemm_micro.hpp).
/// A transpose is the one loop it does not vectorise: GCC 12 and Clang load the block element
/// by element, 16 strided scalar loads per stored vector. Packing the 64 x 64 weight of a
/// 32 x 64 x 64 product that way takes as long as the product's multiply-adds; sixteen row
/// loads, 64 in-register shuffles and sixteen stores take a fraction of it (eight, 24 and eight
/// for an 8 x 8 block; docs/performance.md, "Transposed operands"). Other targets keep the
/// scalar loop.

#include "kt/core/impl/internal.hpp"

#include <cstdint>

#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#if defined(__AVX512F__)
#include <immintrin.h>
#define KT_IMPL_GEMM_TRANSPOSE16 1
#elif defined(__AVX__)
#include <immintrin.h>
#define KT_IMPL_GEMM_TRANSPOSE8 1
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

/// Whether panels of r rows pack in those blocks (the divisor is never 0: nvcc's device pass
/// warns of a % 0 even where && skips it).
constexpr bool gemm_transposes_rows(int r) {
  return gemm_transpose_block > 0 && r % (gemm_transpose_block > 0 ? gemm_transpose_block : 1) == 0;
}

#if defined(KT_IMPL_GEMM_TRANSPOSE16)
/// d[c * ds + r] = s[r * rs + c] for r, c < 16: sixteen rows in, sixteen columns out. Pairs
/// of rows interleave by element, then by pairs, then by 128-bit quarters, twice.
inline void gemm_transpose16(const float* s, std::int64_t rs, float* d, std::int64_t ds) {
  __m512 r[16], t[16];
  for (int i = 0; i < 16; ++i) r[i] = _mm512_loadu_ps(s + i * rs);
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  for (int i = 0; i < 4; ++i) {
    r[4 * i + 0] = _mm512_shuffle_ps(t[4 * i + 0], t[4 * i + 2], _MM_SHUFFLE(1, 0, 1, 0));
    r[4 * i + 1] = _mm512_shuffle_ps(t[4 * i + 0], t[4 * i + 2], _MM_SHUFFLE(3, 2, 3, 2));
    r[4 * i + 2] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], _MM_SHUFFLE(1, 0, 1, 0));
    r[4 * i + 3] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int h = 0; h < 2; ++h)
    for (int i = 0; i < 4; ++i) {
      t[8 * h + i] = _mm512_shuffle_f32x4(r[8 * h + i], r[8 * h + i + 4], 0x88);
      t[8 * h + i + 4] = _mm512_shuffle_f32x4(r[8 * h + i], r[8 * h + i + 4], 0xdd);
    }
  for (int i = 0; i < 8; ++i) {
    r[i] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0x88);
    r[i + 8] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0xdd);
  }
  for (int i = 0; i < 16; ++i) _mm512_storeu_ps(d + i * ds, r[i]);
}
#endif

#if defined(KT_IMPL_GEMM_TRANSPOSE8)
/// d[c * ds + r] = s[r * rs + c] for r, c < 8: pairs of rows interleave by element, then by
/// pairs, within each 128-bit half; then the halves swap places.
inline void gemm_transpose8(const float* s, std::int64_t rs, float* d, std::int64_t ds) {
  __m256 r[8], t[8];
  for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(s + i * rs);
  for (int i = 0; i < 4; ++i) {
    t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  for (int i = 0; i < 2; ++i) {
    r[4 * i + 0] = _mm256_shuffle_ps(t[4 * i + 0], t[4 * i + 2], _MM_SHUFFLE(1, 0, 1, 0));
    r[4 * i + 1] = _mm256_shuffle_ps(t[4 * i + 0], t[4 * i + 2], _MM_SHUFFLE(3, 2, 3, 2));
    r[4 * i + 2] = _mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], _MM_SHUFFLE(1, 0, 1, 0));
    r[4 * i + 3] = _mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], _MM_SHUFFLE(3, 2, 3, 2));
  }
  // r[i]: column i of rows 0-3 | column i + 4 of rows 0-3; r[i + 4] the same of rows 4-7.
  for (int i = 0; i < 4; ++i) {
    t[i] = _mm256_permute2f128_ps(r[i], r[i + 4], 0x20);
    t[i + 4] = _mm256_permute2f128_ps(r[i], r[i + 4], 0x31);
  }
  for (int i = 0; i < 8; ++i) _mm256_storeu_ps(d + i * ds, t[i]);
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
