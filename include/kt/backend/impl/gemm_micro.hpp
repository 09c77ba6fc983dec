#pragma once
/// \file kt/backend/impl/gemm_micro.hpp
/// What kt's GEMM kernels (kt/backend/impl/gemm_kokkos.hpp, gemm_kokkos_host.hpp) share: the
/// accumulation type, the tile sizes per execution space and the register-blocked micro-kernel.

#include "kt/core/impl/internal.hpp"

#include "kt/core/dtype.hpp"
#include "kt/core/impl/unroll.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kt::impl {

/// The type a GEMM accumulates in: the compute type of floating dtypes (fp32 for kt::half and
/// kt::bfloat16, double for double), int64 for integers (kt::matmul's integer kernel).
template <class T>
using gemm_acc_t = std::conditional_t<std::is_integral_v<T>, std::int64_t, compute_t<T>>;

// The host's SIMD register width and count, read from the compiler's target macros (no
// intrinsics): they size the register block. Built without -march, x86-64 is SSE2. AVX-512:
// GCC and Clang prefer 256-bit vectors on most AVX-512 targets (-mprefer-vector-width, which
// no macro reveals). GCC takes the preference per function, so its micro-kernels ask for
// 512-bit vectors (KT_IMPL_GEMM_MICRO_INLINE) and the block is sized for them: 12 x 32 fp32,
// twice the multiply-adds per instruction of 256-bit vectors on a CPU with full-width
// AVX-512 units (docs/performance.md, "kt's own host kernel against OpenBLAS"). Clang has no
// such attribute (min_vector_width does not widen its vectorizer), so it keeps 32-byte
// vectors in 32 registers.
#if defined(__AVX512F__) && defined(__GNUC__) && !defined(__clang__)
#define KT_IMPL_GEMM_WIDE_AVX512 1
inline constexpr int gemm_host_simd_bytes = 64, gemm_host_simd_regs = 32;
#elif defined(__AVX512F__)
inline constexpr int gemm_host_simd_bytes = 32, gemm_host_simd_regs = 32;
#elif defined(__AVX__)
inline constexpr int gemm_host_simd_bytes = 32, gemm_host_simd_regs = 16;
#elif defined(__aarch64__)
inline constexpr int gemm_host_simd_bytes = 16, gemm_host_simd_regs = 32;
#else
inline constexpr int gemm_host_simd_bytes = 16, gemm_host_simd_regs = 16;
#endif

/// Compile-time tile sizes of the kernel on execution space Exec for accumulator type Acc.
/// MR x NR: one thread's register block; MC x NC: a GPU team's C tile, the host's row block and
/// column block; KC: the K block.
template <class Exec, class Acc,
          bool Host = Kokkos::SpaceAccessibility<Exec, Kokkos::HostSpace>::accessible>
struct GemmTiles {
  // Host (kt/backend/impl/gemm_kokkos_host.hpp): one thread per block of C. NR = two SIMD
  // registers of accumulators per row and MR rows use 2*MR of the registers, leaving room for
  // the two B vectors and the A broadcast: 6 x 2 = 12 of 16 (AVX2/SSE), 12 x 2 = 24 of 32
  // (AVX-512).
  static constexpr int simd = gemm_host_simd_bytes / int(sizeof(Acc)) > 0
                                  ? gemm_host_simd_bytes / int(sizeof(Acc)) : 1;
  static constexpr int MR = gemm_host_simd_regs >= 32 ? 12 : 6;
  static constexpr int NR = 2 * simd;
  // KC = 384: a B micro-panel (KC x NR: 24 KiB with fp32 at NR = 16) stays in a 32 KiB L1
  // while the A micro-panels stream past it from L2, where the packed A block (MC x KC, 288 KiB
  // in fp32) stays. The 512-bit block's panel (NR = 32) is 48 KiB; on a Xeon with a 48 KiB L1,
  // KC = 256 (32 KiB) measured the same. MC = 192 rows and NC = 512 columns (a block of op(B) when several threads share
  // the product) amortise the packing. The exact sizes matter little (KC = 384 is slightly
  // ahead of 256 with a 1 MiB L2), and a pad between panels does not help, so there is none
  // (docs/performance.md, "kt's own host kernel against OpenBLAS").
  static constexpr int KC = 384, MC = 192 / MR * MR, NC = 512;
  static constexpr int team_size = 1, vector_length = 1;
  static constexpr int scratch_level = 1;  // level 0 is capped at 32 KiB on host back-ends
  static constexpr int pad = 0, c_pad = 0;
};

/// The team kernel's tiles (kt/backend/impl/gemm_kokkos.hpp): a 64 x 64 C tile per team, a
/// 4 x 4 register block per thread. A K block of 16 (8 for 8-byte accumulators) keeps the
/// packed tiles (2 x 4.3 KiB in fp32) and the C tile (16.3 KiB in fp32, 33 KiB in fp64) within
/// the 48 KiB of shared memory a GPU block gets without opting in.
template <class Acc>
struct GemmTeamTiles {
  static constexpr int MR = 4, NR = 4, KC = sizeof(Acc) > 4 ? 8 : 16, MC = 64, NC = 64;
  // Lanes with consecutive micro-panels read addresses one panel apart (and C tile rows MR
  // apart): padding panels by 4 elements and C rows by 1 spreads them over the memory banks.
  static constexpr int pad = 4, c_pad = 1;
};

template <class Exec, class Acc>
struct GemmTiles<Exec, Acc, false> : GemmTeamTiles<Acc> {
  // GPU: teams of 16 x 16 threads (team size 16 x vector length 16), tiles in shared memory.
  static constexpr int team_size = 16, vector_length = 16;
  static constexpr int scratch_level = 0;
};

/// Loads x as the accumulation type: through compute_t, so 16-bit values become exact floats.
template <class Acc, class T>
KOKKOS_FORCEINLINE_FUNCTION Acc gemm_load(const T& x) {
  return static_cast<Acc>(static_cast<compute_t<T>>(x));
}

// Loop hints: kt/core/impl/unroll.hpp.
// Host: a function of its own. Compiled inside the large team lambda, GCC 12 kept the AVX-512
// block (MR = 12) in memory instead of registers; on its own it gets every target right. And
// Serial and OpenMP then run the very same machine code for every multiply-add. With
// KT_IMPL_GEMM_WIDE_AVX512 it also carries GCC's per-function vector-width preference (nvcc
// passes it to its host compiler; a device pass defines __CUDA_ARCH__).
#if defined(KT_IMPL_GEMM_WIDE_AVX512) && !defined(__CUDA_ARCH__)
#define KT_IMPL_GEMM_MICRO_INLINE \
  KOKKOS_INLINE_FUNCTION __attribute__((noinline, target("prefer-vector-width=512")))
#elif defined(__GNUC__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#define KT_IMPL_GEMM_MICRO_INLINE KOKKOS_INLINE_FUNCTION __attribute__((noinline))
#else
#define KT_IMPL_GEMM_MICRO_INLINE KOKKOS_FORCEINLINE_FUNCTION
#endif

/// c[MR][NR] (+)= a * b over kc packed steps: the register-blocked micro-kernel. Fixed-size
/// arrays with the contiguous j innermost: per k step, NR/simd vector loads of b, MR
/// broadcasts of a and MR*NR/simd vector FMAs on register accumulators.
template <int MR, int NR, class Acc>
KT_IMPL_GEMM_MICRO_INLINE void gemm_micro(int kc, const Acc* KOKKOS_RESTRICT a,
                                          const Acc* KOKKOS_RESTRICT b, Acc* KOKKOS_RESTRICT c,
                                          int ldc, bool first) {
  Acc acc[MR][NR];
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NR; ++j) acc[i][j] = first ? Acc(0) : c[i * ldc + j];
  for (int l = 0; l < kc; ++l) {
    KT_IMPL_UNROLL_ROWS
    for (int i = 0; i < MR; ++i) {
      const Acc ai = a[l * MR + i];
      KT_IMPL_UNROLL_COLS
      for (int j = 0; j < NR; ++j) acc[i][j] += ai * b[l * NR + j];
    }
  }
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NR; ++j) c[i * ldc + j] = acc[i][j];
}

}  // namespace kt::impl

// KT_IMPL_GEMM_MICRO_INLINE stays defined: the unpacked micro-kernel of
// kt/backend/impl/gemm_host_small.hpp uses it too.
