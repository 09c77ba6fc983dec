#pragma once
// The devices (Kokkos execution spaces) compiled into this Kokkos, as a type list: what
// kt::dispatch_device chooses among and what Module::to<D>() converts between. Derived from
// Kokkos' own KOKKOS_ENABLE_* settings, so a Threads, HIP or SYCL build gets its devices too.

#include "kt/core/impl/internal.hpp"

#include <Kokkos_Core.hpp>

#include <type_traits>
#include <variant>

namespace kt {
/// A device as a value, for generic lambdas: `[](auto tag) { using D = typename decltype(tag)::type; }`
/// (what kt::dispatch_device passes).
template <class D>
struct DeviceTag {
  using type = D;
};
}  // namespace kt

namespace kt::impl {

template <class... Ds>
struct DeviceList {};


template <class... Lists>
struct concat_devices;
template <>
struct concat_devices<> {
  using type = DeviceList<>;
};
template <class... A>
struct concat_devices<DeviceList<A...>> {
  using type = DeviceList<A...>;
};
template <class... A, class... B, class... Rest>
struct concat_devices<DeviceList<A...>, DeviceList<B...>, Rest...> {
  using type = typename concat_devices<DeviceList<A..., B...>, Rest...>::type;
};

// Most capable first: the order kt::dispatch_device tries them in.
#if defined(KOKKOS_ENABLE_CUDA)
using cuda_devices = DeviceList<Kokkos::Cuda>;
#else
using cuda_devices = DeviceList<>;
#endif
#if defined(KOKKOS_ENABLE_HIP) && KOKKOS_VERSION >= 40000
using hip_devices = DeviceList<Kokkos::HIP>;
#elif defined(KOKKOS_ENABLE_HIP)
using hip_devices = DeviceList<Kokkos::Experimental::HIP>;
#else
using hip_devices = DeviceList<>;
#endif
#if defined(KOKKOS_ENABLE_SYCL)
using sycl_devices = DeviceList<Kokkos::Experimental::SYCL>;
#else
using sycl_devices = DeviceList<>;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
using openmp_devices = DeviceList<Kokkos::OpenMP>;
#else
using openmp_devices = DeviceList<>;
#endif
#if defined(KOKKOS_ENABLE_THREADS)
using threads_devices = DeviceList<Kokkos::Threads>;
#else
using threads_devices = DeviceList<>;
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
using serial_devices = DeviceList<Kokkos::Serial>;
#else
using serial_devices = DeviceList<>;
#endif

/// Every enabled device, GPUs first, Serial last.
using enabled_devices = typename concat_devices<cuda_devices, hip_devices, sycl_devices, openmp_devices,
                                                threads_devices, serial_devices>::type;

/// One of a list's devices, chosen at run time: std::variant<DeviceTag<D>...> (std::visit
/// hands the tag to a generic lambda).
template <class List>
struct any_device_of;
template <class... Ds>
struct any_device_of<DeviceList<Ds...>> {
  using type = std::variant<DeviceTag<Ds>...>;
};

/// DeviceList<Ds...> without repeats, each device where it first appears.
template <class Out, class... In>
struct unique_devices {
  using type = Out;
};
template <class... Out, class D, class... Rest>
struct unique_devices<DeviceList<Out...>, D, Rest...>
    : unique_devices<std::conditional_t<(std::is_same_v<D, Out> || ...), DeviceList<Out...>, DeviceList<Out..., D>>,
                     Rest...> {};
template <class... Ds>
using unique_device_list_t = typename unique_devices<DeviceList<>, Ds...>::type;

/// Whether D is one of the list's devices.
template <class D, class List>
struct in_device_list;
template <class D, class... Ds>
struct in_device_list<D, DeviceList<Ds...>> : std::bool_constant<(std::is_same_v<D, Ds> || ...)> {};

/// The enabled devices that are among Ds, in enabled_devices' order, each once.
template <class Enabled, class... Ds>
struct enabled_among;
template <class... Es, class... Ds>
struct enabled_among<DeviceList<Es...>, Ds...> {
  using type = typename concat_devices<
      std::conditional_t<in_device_list<Es, DeviceList<Ds...>>::value, DeviceList<Es>, DeviceList<>>...>::type;
};
template <class... Ds>
using enabled_among_t = typename enabled_among<enabled_devices, Ds...>::type;

}  // namespace kt::impl
