#pragma once
// 16-bit GEMMs on the host through the fp32 libraries (OpenBLAS, Eigen). Neither has a half or
// bfloat16 GEMM here (Debian's OpenBLAS 0.3.21 is built without sbgemm), so the operands are
// widened to fp32 once per call — O(mk + kn) exact conversions (kt/core/impl/half_format.hpp's
// are branch-free and vectorise) against O(mnk) multiply-adds — the fp32 library accumulates,
// and C is rounded to 16 bits once, as kt's own kernel does. Operands are widened one K block
// at a time, so the scratch stays small. Since kt's own kernel widens while packing at
// OpenBLAS' speed, the heuristic no longer picks this path (kt/backend/impl/gemm_select.hpp);
// it serves a forced BLAS or Eigen back-end and benchmark mode's timed candidates
// (bench_mixed_gemm; docs/performance.md, "Mixed precision").

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/core/impl/convert.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/core/impl/scratch.hpp"
#include "kt/core/impl/stream_events.hpp"

#include <cstdint>
#include <type_traits>

namespace kt::impl {

/// Copies the rows x cols matrix at src (rows ld apart) into dst (rows dst_ld apart), converted
/// from S to D: exact when widening, one rounding when narrowing.
template <class Exec, class D, class S>
void convert_matrix(const Exec& exec, const char* label, const S* src, std::int64_t rows, std::int64_t cols,
                    std::int64_t ld, D* dst, std::int64_t dst_ld) {
  // One task per row, a vectorised loop along it; the work counts elements, so small
  // conversions stay on the calling thread.
  parallel_for(
      exec, label, rows,
      KOKKOS_LAMBDA(std::int64_t r) {
        const S* in = src + r * ld;
        D* out = dst + r * dst_ld;
        for (std::int64_t c = 0; c < cols; ++c) out[c] = convert<D>(in[c]);
      },
      rows * cols);
}

/// K block of the widened GEMM: the fp32 copies are of op(A)'s m x 256 and op(B)'s 256 x n
/// blocks, so the scratch is (m + n) * 256 + m * n floats whatever k (layer 1 of a
/// 784-512-512-10 MLP at batch 256: 1.3 MB instead of 2.9 MB for whole operands), and 256 is
/// OpenBLAS' own K block, so the library's efficiency is unchanged.
inline constexpr std::int64_t widen_kc = 256;

/// Runs the 16-bit problem p with `fp32_gemm(const GemmProblem<float>&)` on fp32 copies of its
/// operands, K block by K block, accumulating in fp32: in an fp32 copy of C rounded once at the
/// end, or — when C is fp32 already (GemmProblem<T, float>) — in C itself, without a copy.
template <class Exec, class T, class C, class Fp32Gemm>
void gemm_widened(const Exec& exec, const GemmProblem<T, C>& p, const Fp32Gemm& fp32_gemm) {
  using MemSpace = typename Exec::memory_space;
  constexpr bool c_is_fp32 = std::is_same_v<C, float>;
  const bool ta = p.trans_a == Transpose::Yes, tb = p.trans_b == Transpose::Yes;
  const std::int64_t kc = p.k < widen_kc ? p.k : widen_kc;
  const std::int64_t c_scratch = c_is_fp32 ? 0 : p.m * p.n;
  const Scratch<MemSpace> scratch(static_cast<std::size_t>((p.m + p.n) * kc + c_scratch) * sizeof(float),
                                  "kt::gemm widened operands", stream_id(exec));
  float* const a = scratch.template as<float>();
  float* const b = a + p.m * kc;
  for (std::int64_t entry = 0; entry < p.batch; ++entry) {
    const T* const pa = p.a + entry * p.stride_a;
    const T* const pb = p.b + entry * p.stride_b;
    C* const pc = p.c + entry * p.stride_c;
    float* c = nullptr;
    std::int64_t ldc = p.n;
    if constexpr (c_is_fp32) {
      c = pc, ldc = p.ldc;
    } else {
      c = b + p.n * kc;
      if (p.beta != 0)  // beta == 0 never reads C (BLAS semantics)
        convert_matrix(exec, "kt::gemm::widen C", static_cast<const C*>(pc), p.m, p.n, p.ldc, c, p.n);
    }
    for (std::int64_t k0 = 0; k0 < p.k; k0 += kc) {
      const std::int64_t kb = p.k - k0 < kc ? p.k - k0 : kc;
      // Each block as stored: op(A) = A (m x k: columns k0..) or Aᵀ (A is k x m: rows k0..).
      if (ta) convert_matrix(exec, "kt::gemm::widen A", pa + k0 * p.lda, kb, p.m, p.lda, a, p.m);
      else convert_matrix(exec, "kt::gemm::widen A", pa + k0, p.m, kb, p.lda, a, kb);
      if (tb) convert_matrix(exec, "kt::gemm::widen B", pb + k0, p.n, kb, p.ldb, b, kb);
      else convert_matrix(exec, "kt::gemm::widen B", pb + k0 * p.ldb, kb, p.n, p.ldb, b, p.n);
      GemmProblem<float> q;
      q.trans_a = p.trans_a, q.trans_b = p.trans_b;
      q.m = p.m, q.n = p.n, q.k = kb;
      q.a = a, q.lda = ta ? p.m : kb;
      q.b = b, q.ldb = tb ? kb : p.n;
      q.c = c, q.ldc = ldc;
      q.alpha = p.alpha;
      q.beta = k0 == 0 ? p.beta : 1.0;  // later blocks accumulate
      exec.fence();  // the libraries run on the calling thread
      fp32_gemm(q);
    }
    if constexpr (!c_is_fp32)
      convert_matrix(exec, "kt::gemm::narrow C", static_cast<const float*>(c), p.m, p.n, p.n, pc, p.ldc);
  }
  exec.fence();  // before the scratch goes back to the cache
}

}  // namespace kt::impl
