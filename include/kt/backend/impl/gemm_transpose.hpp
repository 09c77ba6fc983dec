#pragma once
/// \file kt/backend/impl/gemm_transpose.hpp
/// 16 x 16 fp32 blocks transposed in AVX-512 registers, for packing an operand whose rows are
/// contiguous into column-major micro-panels (op(B) of the Linear forward's x · Wᵀ).
///
/// kt's kernels otherwise rely on the compiler's vectoriser (kt/backend/impl/gemm_micro.hpp).
/// A transpose is the one loop it does not vectorise: GCC 12 and Clang load the block element
/// by element, 16 strided scalar loads per stored vector. Packing the 64 x 64 weight of a
/// 32 x 64 x 64 product that way takes as long as the product's multiply-adds; sixteen row
/// loads, 64 in-register shuffles and sixteen stores take a fraction of it
/// (docs/performance.md, "Transposed operands"). Other targets keep the scalar loop.

#include "kt/core/impl/internal.hpp"

#include <cstdint>

#if defined(__AVX512F__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#include <immintrin.h>
#define KT_IMPL_GEMM_TRANSPOSE16 1
#endif

namespace kt::impl {

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

/// Packs the first kc columns of R rows (R a multiple of 16) of a row-contiguous fp32 source
/// into one column-major micro-panel (dst[c * R + r] = src[r * rs + c]) in 16 x 16 blocks;
/// returns the number of columns packed (a multiple of 16; 0 where there are no AVX-512
/// registers), the caller packs the rest.
template <int R>
int gemm_pack_transposed16(float* dst, const float* src, std::int64_t rs, int kc) {
#if defined(KT_IMPL_GEMM_TRANSPOSE16)
  static_assert(R % 16 == 0, "gemm_pack_transposed16: R must be a multiple of 16");
  int c0 = 0;
  for (; c0 + 16 <= kc; c0 += 16)
    for (int g = 0; g < R; g += 16) gemm_transpose16(src + g * rs + c0, rs, dst + c0 * R + g, R);
  return c0;
#else
  (void)dst;
  (void)src;
  (void)rs;
  (void)kc;
  return 0;
#endif
}

}  // namespace kt::impl
