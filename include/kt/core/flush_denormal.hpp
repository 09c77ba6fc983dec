#pragma once
/// \file kt/core/flush_denormal.hpp
/// Flushing subnormal floats to zero on the host (`torch.set_flush_denormal`).
///
///     kt::Runtime runtime(argc, argv);
///     kt::set_flush_denormal(true);   // every host thread kt computes on: FTZ and DAZ
///
/// A product or an exp whose operands or results are subnormal (below 1.2e-38 in fp32) takes a
/// microcode assist on x86, tens to hundreds of cycles instead of one. Training that drives a
/// loss towards zero makes such values (a softmax's smallest probabilities underflow), and a
/// small model's step then slows down several times over (docs/performance.md, "Subnormal
/// floats"). Flushing makes them zero: results that would be subnormal become 0 (FTZ) and
/// subnormal operands read as 0 (DAZ), as CUDA's -ftz does on a GPU. The values kt computes
/// change only where subnormals occur.

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/host_work.hpp"
#include "kt/core/impl/parallel_for.hpp"

#include <Kokkos_Core.hpp>

#if (defined(__x86_64__) || defined(__i386__)) && defined(__SSE__)
#include <xmmintrin.h>
#define KT_HAVE_FLUSH_DENORMAL 1
#else
#define KT_HAVE_FLUSH_DENORMAL 0
#endif

namespace kt {

namespace impl {

/// Sets or clears FTZ and DAZ (MXCSR bits 15 and 6) on the calling thread; false where the
/// CPU has no such switch kt knows.
inline bool set_thread_flush_denormal(bool on) {
#if KT_HAVE_FLUSH_DENORMAL
  constexpr unsigned flush_to_zero = 1u << 15, denormals_are_zero = 1u << 6;
  const unsigned csr = _mm_getcsr();
  _mm_setcsr(on ? csr | flush_to_zero | denormals_are_zero : csr & ~(flush_to_zero | denormals_are_zero));
  return true;
#else
  (void)on;
  return false;
#endif
}

}  // namespace impl

/// Whether set_flush_denormal can act on this CPU: x86 with SSE (MXCSR's FTZ and DAZ).
inline constexpr bool flush_denormal_supported() { return KT_HAVE_FLUSH_DENORMAL != 0; }

/// Flushes subnormal floats to zero (on = true) or keeps them (false, the default) on the
/// calling thread and on every thread of the host pool (kt::OpenMP's threads when it is
/// enabled): the threads kt's host kernels, its BLAS calls and its recorded steps run on.
/// Threads these start later inherit the setting (on Linux a new thread starts with its
/// creator's floating-point control word); before kt::Runtime, the calling thread's setting
/// passes to the pool it starts. Other threads of the program keep their own. Returns false,
/// changing nothing, where unsupported (flush_denormal_supported()). GPUs are not affected.
inline bool set_flush_denormal(bool on) {
  if (!flush_denormal_supported()) return false;
  KT_REQUIRE(impl::host_recording<Kokkos::DefaultHostExecutionSpace>() == nullptr,
             "kt::set_flush_denormal: called while a kt::StepGraph records a step; set it before the first call "
             "of the graph");
  impl::set_thread_flush_denormal(on);
  if (Kokkos::is_initialized())  // one piece per thread of the pool, each setting its own
    impl::parallel_pieces("kt::set_flush_denormal", static_cast<int>(Kokkos::DefaultHostExecutionSpace().concurrency()),
                          [on](int) { impl::set_thread_flush_denormal(on); });
  return true;
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
