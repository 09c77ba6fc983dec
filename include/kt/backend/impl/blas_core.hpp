#pragma once
// Whether the linked BLAS runs a kernel as good as kt's own on this CPU.
//
// kt sends host float products to BLAS because a BLAS tuned for the CPU is level with or ahead
// of kt's kernel at the MLP shapes. That holds only when the library knows the CPU: a BLAS
// older than the CPU falls back to an older family's kernels (Debian's OpenBLAS 0.3.21 runs
// its SSE3 Prescott kernels on recent Xeons, its AVX2 Haswell kernels on a Zen 5). OpenBLAS
// says which family it chose (openblas_get_corename(); OPENBLAS_CORETYPE overrides it), so kt
// decides from that and the CPU's vector units, once per process and without timing anything
// (a timed choice could differ between two runs of one program, and with it the rounding):
// a BLAS whose kernels use narrower units than kt's kernel is passed over (blas_core_loses).

#include "kt/core/impl/internal.hpp"

#include "kt/backend/impl/blas_threads.hpp"
#include "kt/backend/impl/gemm_micro.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#endif

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace kt::impl {

/// The widest float vector unit a kernel uses, in order.
enum class SimdLevel { Sse = 0, Avx = 1, Avx2Fma = 2, Avx512 = 3 };

inline const char* to_string(SimdLevel l) {
  switch (l) {
    case SimdLevel::Sse: return "SSE";
    case SimdLevel::Avx: return "AVX";
    case SimdLevel::Avx2Fma: return "AVX2+FMA";
    case SimdLevel::Avx512: return "AVX-512";
  }
  return "?";
}

/// The level of an OpenBLAS x86-64 core name (case-insensitive); Sse for the pre-AVX families
/// and for names kt does not know.
inline SimdLevel openblas_core_level(std::string core) {
  std::transform(core.begin(), core.end(), core.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* name : {"skylakex", "cooperlake", "sapphirerapids"})
    if (core == name) return SimdLevel::Avx512;
  for (const char* name : {"haswell", "zen", "piledriver", "steamroller", "excavator"})
    if (core == name) return SimdLevel::Avx2Fma;
  for (const char* name : {"sandybridge", "bulldozer"})
    if (core == name) return SimdLevel::Avx;
  return SimdLevel::Sse;
}

/// The level kt's own host kernel is compiled for in this translation unit: AVX-512 only where
/// its micro-kernel really runs 512-bit vectors (kt/backend/impl/gemm_micro.hpp).
inline constexpr SimdLevel kt_kernel_level() {
#if defined(KT_IMPL_GEMM_WIDE_AVX512)
  return SimdLevel::Avx512;
#elif (defined(__AVX2__) && defined(__FMA__)) || defined(__AVX512F__)
  return SimdLevel::Avx2Fma;
#elif defined(__AVX__)
  return SimdLevel::Avx;
#else
  return SimdLevel::Sse;
#endif
}

/// Whether this CPU runs 512-bit FMAs at full width, so that kt's AVX-512 kernel has twice the
/// peak of 256-bit kernels: Intel CPUs with AVX-512F, and AMD's from Zen 5 (family 0x1A); Zen 4
/// (family 0x19) splits each 512-bit operation into two 256-bit halves.
inline bool cpu_full_width_avx512() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (!__builtin_cpu_supports("avx512f")) return false;
  if (__builtin_cpu_is("intel")) return true;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__builtin_cpu_is("amd") || !__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
  const unsigned base = (eax >> 8) & 0xF, extended = (eax >> 20) & 0xFF;
  return (base == 0xF ? base + extended : base) >= 0x1A;
#else
  return false;
#endif
}

/// Whether kt's kernel beats a BLAS running OpenBLAS' `core` kernels, by the vector units each
/// uses: a core without FMA where kt's kernel has FMA (Prescott kernels on an AVX-512 Xeon), or
/// a 256-bit core where kt's kernel uses full-width AVX-512 (Haswell kernels on a Zen 5); both
/// make training steps slower than kt's kernel does. A core as wide as kt's kernel keeps the
/// products: there BLAS is level with kt from 128³ and ahead below (docs/performance.md,
/// "Host float products"). Not OpenBLAS (no core name): kept. The level of kt's kernel is the
/// compiling translation unit's (-march); a program should compile kt with one -march.
inline bool blas_core_loses(const std::string& core, SimdLevel kt_level, bool full_width_avx512) {
  if (core.empty()) return false;
  const SimdLevel blas = openblas_core_level(core);
  if (blas < SimdLevel::Avx2Fma && kt_level >= SimdLevel::Avx2Fma) return true;
  return blas < SimdLevel::Avx512 && kt_level == SimdLevel::Avx512 && full_width_avx512;
}

/// Whether kt's small-product path (kt/backend/impl/gemm_host_small.hpp) beats a BLAS running
/// OpenBLAS' `core` kernels at products small enough for one thread, where the BLAS keeps the
/// larger ones. OpenBLAS (0.3.21) has kernels for small products only in its AVX-512 families;
/// its other cores pack both operands of every product, which kt's small path does not (it
/// packs op(B) only when B is transposed, in register transposes). Where kt's kernel has FMA
/// and is at least as wide as the core's, its small path is the faster (docs/performance.md,
/// "Small products on 256-bit OpenBLAS cores"). Not OpenBLAS (no core name): kept.
inline bool blas_small_products_lose(const std::string& core, SimdLevel kt_level) {
  if (core.empty()) return false;
  const SimdLevel blas = openblas_core_level(core);
  return blas < SimdLevel::Avx512 && kt_level >= SimdLevel::Avx2Fma && kt_level >= blas;
}

/// What kt knows of the linked BLAS, decided once per process.
struct BlasCore {
  std::string name;       // OpenBLAS' kernel family ("Haswell", "Prescott"); empty when unknown
  bool bypassed = false;  // kt's kernel serves the products instead (blas_core_loses)
  bool small_on_kt = false;  // kt's small path serves small products (blas_small_products_lose)
};

/// Prints, once, why kt passes over the linked BLAS (KT_BLAS_NOTICE=0 silences it).
inline void blas_bypass_notice(const BlasCore& b) {
  const char* env = std::getenv("KT_BLAS_NOTICE");
  if (env != nullptr && std::string(env) == "0") return;
  std::fprintf(stderr,
               "kt: notice: OpenBLAS runs its %s kernels (%s) on this CPU, where kt's own GEMM kernel (%s) is "
               "faster: kt's kernel serves host float products. An OpenBLAS that knows this CPU, or "
               "OPENBLAS_CORETYPE naming its family, would run as wide; KT_BLAS_NOTICE=0 silences this notice.\n",
               b.name.c_str(), to_string(openblas_core_level(b.name)), to_string(kt_kernel_level()));
}

inline const BlasCore& blas_core() {
  static const BlasCore core = [] {
    BlasCore b;
#if defined(KT_ENABLE_CBLAS) && defined(KT_CBLAS_IS_OPENBLAS)
    if (const char* name = openblas_get_corename()) b.name = name;
#endif
    b.bypassed = blas_core_loses(b.name, kt_kernel_level(), cpu_full_width_avx512());
    b.small_on_kt = blas_small_products_lose(b.name, kt_kernel_level());
    if (b.bypassed) blas_bypass_notice(b);
    return b;
  }();
  return core;
}

}  // namespace kt::impl
