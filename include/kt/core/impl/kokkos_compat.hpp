#pragma once
// The few places where Kokkos 3.4 and Kokkos 4.x/5.x spell the same thing differently.
// Everything else in kt uses the API the versions share.

#include <Kokkos_Core.hpp>

#include <cmath>
#include <string>

namespace kt::impl {

#if KOKKOS_VERSION >= 40000
#define KT_KOKKOS_MATH ::Kokkos
#else
#define KT_KOKKOS_MATH ::Kokkos::Experimental
#endif

/// a * b + c rounded once (Kokkos 3.4 has no Kokkos::fma): the same result on every device,
/// whatever a compiler would contract on its own.
template <class C>
KOKKOS_INLINE_FUNCTION C fma(C a, C b, C c) {
#if KOKKOS_VERSION >= 40000
  return Kokkos::fma(a, b, c);
#elif defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return ::fma(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

/// Initialises Kokkos with a thread count and GPU index (-1: Kokkos' default).
inline void initialize_kokkos(int num_threads, int device_id) {
#if KOKKOS_VERSION >= 40000
  Kokkos::InitializationSettings settings;
  if (num_threads > 0) settings.set_num_threads(num_threads);
  if (device_id >= 0) settings.set_device_id(device_id);
  Kokkos::initialize(settings);
#else
  Kokkos::InitArguments args;
  args.num_threads = num_threads > 0 ? num_threads : -1;
  args.device_id = device_id;
  Kokkos::initialize(args);
#endif
}

inline bool kokkos_is_initialized() {
#if KOKKOS_VERSION >= 40000
  return Kokkos::is_initialized() && !Kokkos::is_finalized();
#else
  return Kokkos::is_initialized();
#endif
}

}  // namespace kt::impl
