#pragma once
// The few places where Kokkos 3.4 and Kokkos 4.x/5.x spell the same thing differently.
// Everything else in kt uses the API the versions share.

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/cuda_devices.hpp"

#include <Kokkos_Core.hpp>
#if defined(KOKKOS_ENABLE_CUDA) && KOKKOS_VERSION >= 40000
// The registry of execution spaces: installed, but not public (Kokkos' own headers include
// such headers the same way, with this macro defined around them).
#if !defined(KOKKOS_IMPL_PUBLIC_INCLUDE)
#define KOKKOS_IMPL_PUBLIC_INCLUDE
#define KT_IMPL_PUBLIC_INCLUDE_SET
#endif
#include <impl/Kokkos_ExecSpaceManager.hpp>
#if defined(KT_IMPL_PUBLIC_INCLUDE_SET)
#undef KOKKOS_IMPL_PUBLIC_INCLUDE
#undef KT_IMPL_PUBLIC_INCLUDE_SET
#endif
#endif

#include <cmath>
#include <memory>
#include <ostream>
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

#if defined(KOKKOS_ENABLE_CUDA)
/// Stands in for Kokkos' Cuda execution space in its registry of spaces ("150_Cuda", which
/// Kokkos::initialize starts in key order) when there is no GPU: Kokkos then starts its host
/// spaces only instead of aborting. The registry's interface changed once, from Kokkos 3's
/// InitArguments to Kokkos 4's InitializationSettings (the same in 5.x).
#if KOKKOS_VERSION >= 40000
class NoCudaSpace : public Kokkos::Impl::ExecSpaceBase {
public:
  void initialize(const Kokkos::InitializationSettings&) override {}
  void finalize() override {}
  void static_fence(const std::string&) override {}
#else
class NoCudaSpace : public Kokkos::Impl::ExecSpaceInitializerBase {
public:
  void initialize(const Kokkos::InitArguments&) override {}
  void finalize(const bool) override {}
  void fence() override {}
#endif
  void print_configuration(std::ostream& msg, const bool) override {
    msg << "Device Execution Space:\n  Cuda: disabled by kt (no GPU found)\n";
  }
};
#endif

/// In a Cuda build on a machine without a GPU, keeps Kokkos from starting Cuda (which would
/// abort) so the host devices still work; records it in cuda_disabled(). Returns true when
/// Cuda is usable or not built.
inline bool prepare_cuda_for_initialize() {
#if defined(KOKKOS_ENABLE_CUDA)
  if (cuda_device_count() > 0) return true;
  Kokkos::Impl::ExecSpaceManager::get_instance().register_space_factory("150_Cuda", std::make_unique<NoCudaSpace>());
  cuda_disabled() = true;
  return false;
#else
  return true;
#endif
}

/// Initialises Kokkos with a thread count and GPU index (-1: Kokkos' default).
inline void initialize_kokkos(int num_threads, int device_id) {
  prepare_cuda_for_initialize();
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
