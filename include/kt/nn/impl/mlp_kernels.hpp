#pragma once
// The device-side arithmetic of kt::nn::MLPEvaluator (kt/nn/mlp_evaluator.hpp): register-
// blocked pieces of one dense layer, y = act(x · Wᵀ + b), on weights packed by
// kt::nn::PackedMLP as Wt[in][ld] (the transpose, each row padded with zeros to ld, a multiple
// of kMLPPad) so that the innermost loop runs over consecutive output neurons. Every sum is
// accumulated in fp32; 16-bit weights are converted as they are loaded.
//
// Why the shapes below (the measurements: docs/performance.md, "In-kernel inference"):
// - one point (mlp_point_layer): chunks of 32 outputs, two partial sums over the inputs,
//   i.e. four independent 16-float FMA chains, bound by one weight load per FMA. One sum
//   (two chains) is slower; four sums or 64-output chunks are no faster than two.
// - a block of kMLPHostRows points x 16 outputs (mlp_tile_block) shares each weight load
//   between the points and runs near the FMA peak, also with AVX2's 16 registers; 8 x 16 is
//   no faster, 4 x 32 and 8 x 32 are slower.
// - the loop hints of kt's GEMM micro-kernel (kt/backend/impl/gemm_micro.hpp): fully
//   unrolled, GCC 12 vectorises the 16-wide loops with lane shuffles and partial vectors,
//   several times slower.
// - the packed rows must be 64-byte aligned: unaligned, the one-point path is slower.

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/unroll.hpp"
#include "kt/tensor/activation.hpp"
#include "kt/tensor/impl/ops.hpp"
#include "kt/tensor/impl/with_activation.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kt::impl {

/// Output rows of a packed layer are padded to a multiple of this many neurons.
inline constexpr int kMLPPad = 16;
/// Points per tile of the team-level evaluator: the scratch holds two tiles of activations.
inline constexpr int kMLPTile = 32;
/// Points sharing each weight load in the team-level evaluator on the host; on GPUs each
/// thread takes one point (registers are per thread there, and threads share loads through L1).
inline constexpr int kMLPHostRows = 4;

#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__SYCL_DEVICE_ONLY__)
inline constexpr int kMLPRows = 1;
inline constexpr int kMLPCols = 4;  // 16-byte loads of consecutive outputs per thread: coalesced
#else
inline constexpr int kMLPRows = kMLPHostRows;
inline constexpr int kMLPCols = kMLPPad;
#endif

// Unroll the row loop, keep the column loop a loop (kt/core/impl/unroll.hpp).

// Host: the one-point layer is a function of its own, so that its machine code does not depend
// on the user's lambda it is called from (kt's GEMM found GCC 12 keeping a register block in
// memory inside a large lambda; here both ways run at the same speed).
#if defined(__GNUC__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#define KT_IMPL_MLP_LAYER_INLINE KOKKOS_INLINE_FUNCTION __attribute__((noinline))
#else
#define KT_IMPL_MLP_LAYER_INLINE KOKKOS_FORCEINLINE_FUNCTION
#endif

/// v = f(v) elementwise with the activation functor F of kt/tensor/impl/ops.hpp.
template <class F, int R, int C>
KOKKOS_INLINE_FUNCTION void mlp_apply(float (&v)[R][C]) {
  const F f{};
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) v[r][c] = f(v[r][c]);
}

/// v = act(v): the run-time choice made once per block, outside the loops.
template <int R, int C>
KOKKOS_INLINE_FUNCTION void mlp_activate(Activation act, float (&v)[R][C]) {
  visit_activation(act, [&](auto f) { mlp_apply<decltype(f)>(v); });
}

/// Stores C values of one row to y[0..limit) (limit < C only in the last chunk of the last layer).
template <int C>
KOKKOS_INLINE_FUNCTION void mlp_store(const float (&v)[C], float* y, int limit) {
  if (limit >= C) {
    for (int c = 0; c < C; ++c) y[c] = v[c];
  } else {
    for (int c = 0; c < limit; ++c) y[c] = v[c];
  }
}

/// out[c] = b[c] + Σ_k x[k] · w[k·ld + c] for C consecutive outputs of one point; w and b
/// point at the chunk's first column. Two partial sums, over the two halves of k, double the
/// independent FMA chains.
template <int C, class W>
KOKKOS_FORCEINLINE_FUNCTION void mlp_point_chunk(const float* x, int n_in, const W* w, int ld, const W* b,
                                                 float (&out)[1][C]) {
  constexpr int S = 2;
  float acc[S][C];
  for (int c = 0; c < C; ++c) {
    acc[0][c] = static_cast<float>(b[c]);
    acc[1][c] = 0.0f;
  }
  const int half = n_in / S;
  for (int k = 0; k < half; ++k) {
    KT_IMPL_UNROLL_ROWS
    for (int s = 0; s < S; ++s) {
      const float xk = x[s * half + k];
      const W* wr = w + static_cast<std::int64_t>(s * half + k) * ld;
      KT_IMPL_UNROLL_COLS
      for (int c = 0; c < C; ++c) acc[s][c] += xk * static_cast<float>(wr[c]);
    }
  }
  for (int k = S * half; k < n_in; ++k) {  // odd n_in: the last input
    const W* wr = w + static_cast<std::int64_t>(k) * ld;
    for (int c = 0; c < C; ++c) acc[0][c] += x[k] * static_cast<float>(wr[c]);
  }
  for (int c = 0; c < C; ++c) out[0][c] = acc[0][c] + acc[1][c];
}

/// y[0..limit) = act(x · Wᵀ + b) for one point: chunks of 32 outputs (four independent FMA
/// chains of 16-float vectors), then at most one of 16.
template <class W>
KT_IMPL_MLP_LAYER_INLINE void mlp_point_layer(const float* x, int n_in, const W* w, int ld, const W* b,
                                              Activation act, float* y, int limit) {
  int j0 = 0;
  for (; j0 + 2 * kMLPPad <= ld; j0 += 2 * kMLPPad) {
    float v[1][2 * kMLPPad];
    mlp_point_chunk<2 * kMLPPad>(x, n_in, w + j0, ld, b + j0, v);
    mlp_activate(act, v);
    mlp_store<2 * kMLPPad>(v[0], y + j0, limit - j0);
  }
  if (j0 < ld) {
    float v[1][kMLPPad];
    mlp_point_chunk<kMLPPad>(x, n_in, w + j0, ld, b + j0, v);
    mlp_activate(act, v);
    mlp_store<kMLPPad>(v[0], y + j0, limit - j0);
  }
}

/// acc[r][c] = b[c] + Σ_k x[r][k] · w[k·ld + c] for R points (rows x[r], any strides) and C
/// consecutive outputs: each weight is loaded once for the R points.
template <int R, int C, class W>
KOKKOS_INLINE_FUNCTION void mlp_tile_block(const float* const (&x)[R], int n_in, const W* w, int ld, const W* b,
                                           float (&acc)[R][C]) {
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < C; ++c) acc[r][c] = static_cast<float>(b[c]);
  for (int k = 0; k < n_in; ++k) {
    const W* wr = w + static_cast<std::int64_t>(k) * ld;
    float wk[C];
    for (int c = 0; c < C; ++c) wk[c] = static_cast<float>(wr[c]);
    KT_IMPL_UNROLL_ROWS
    for (int r = 0; r < R; ++r) {
      const float xk = x[r][k];
      KT_IMPL_UNROLL_COLS
      for (int c = 0; c < C; ++c) acc[r][c] += xk * wk[c];
    }
  }
}

}  // namespace kt::impl
