#pragma once
/// \file kt/core/device.hpp
/// Devices are Kokkos execution spaces used as types: picking one is a compile-time decision.
///
///     using D = kt::DefaultDevice;               // Cuda if built, else OpenMP, else Serial
///     auto x = kt::randn<float, D>({64, 784}, /*seed=*/0);
///     std::cout << kt::device_info<D>().name;    // "OpenMP"
///
/// The PyTorch-to-kt table is in docs/devices.md.

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/cuda_devices.hpp"
#include "kt/core/impl/host_memory.hpp"
#include "kt/core/impl/memory_space_name.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <ostream>
#include <string>
#include <type_traits>

namespace kt {

#if defined(KOKKOS_ENABLE_SERIAL)
/// One host thread; every build of kt has at least one host device.
using Serial = Kokkos::Serial;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
/// The host's cores through OpenMP.
using OpenMP = Kokkos::OpenMP;
#endif
#if defined(KOKKOS_ENABLE_CUDA)
/// An NVIDIA GPU; the index is chosen at start-up (kt::RuntimeOptions::device_id).
using Cuda = Kokkos::Cuda;
#endif

/// The best compiled-in device: Cuda if enabled, else OpenMP, else Serial.
#if defined(KOKKOS_ENABLE_CUDA)
using DefaultDevice = Kokkos::Cuda;
#elif defined(KOKKOS_ENABLE_OPENMP)
using DefaultDevice = Kokkos::OpenMP;
#else
using DefaultDevice = Kokkos::Serial;
#endif

/// The best compiled-in host device: where `t.host()` puts a tensor for printing or I/O.
///
/// In a host-only build Host and DefaultDevice are one type, so code that mixes them compiles
/// on a laptop and fails in the Cuda build. Defining KT_DISTINCT_HOST_DEVICE (CMake option of
/// the same name, or the macro on one target) makes Host the Serial device while DefaultDevice
/// stays OpenMP: the same mix then fails to compile on the laptop too ("tensors are on
/// different devices"), and code that moves its data with .to<>() builds and runs unchanged.
#if defined(KT_DISTINCT_HOST_DEVICE) && !defined(KOKKOS_ENABLE_CUDA)
#if !defined(KOKKOS_ENABLE_SERIAL) || !defined(KOKKOS_ENABLE_OPENMP)
#error "KT_DISTINCT_HOST_DEVICE needs a Kokkos with both Serial and OpenMP (Host becomes Serial, DefaultDevice OpenMP)"
#endif
using Host = Kokkos::Serial;
#else
using Host = Kokkos::DefaultHostExecutionSpace;
#endif

/// True for the Kokkos execution spaces kt accepts as devices.
template <class D>
inline constexpr bool is_device_v = Kokkos::is_execution_space<D>::value;

/// True for Kokkos::Cuda (false in builds without Cuda, where the type does not exist).
template <class D>
inline constexpr bool is_cuda_v =
#if defined(KOKKOS_ENABLE_CUDA)
    std::is_same_v<D, Kokkos::Cuda>;
#else
    false;
#endif

/// The memory space a device's tensors live in (HostSpace, CudaSpace, ...).
template <class D>
using memory_space_t = typename D::memory_space;

/// True when host code can read a device's memory directly (no copy needed).
template <class D>
inline constexpr bool is_host_accessible_v =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space_t<D>>::accessible;

/// The device's name as Kokkos spells it: "Serial", "OpenMP", "Cuda".
template <class D>
std::string device_name() {
  static_assert(is_device_v<D>, "kt::device_name: D is not a Kokkos execution space");
  return D::name();
}

/// Number of devices of kind D present: 1 for host devices, the number of usable GPUs for
/// Cuda (`torch.cuda.device_count()`; 0 on a machine without one).
template <class D>
int device_count() {
  static_assert(is_device_v<D>, "kt::device_count: D is not a Kokkos execution space");
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<D, Kokkos::Cuda>) return impl::cuda_disabled() ? 0 : impl::cuda_device_count();
#endif
  return 1;
}

/// Number of devices of the default kind (GPUs in a Cuda build, else 1).
inline int device_count() { return device_count<DefaultDevice>(); }

/// True when D is compiled in and at least one such device is present
/// (`torch.cuda.is_available()`). Devices that are not compiled in have no kt alias at all,
/// so code that names one fails to compile instead of failing at run time.
template <class D>
bool is_available() {
  return is_device_v<D> && device_count<D>() > 0;
}

/// Which device a tensor is on, as a value (`tensor.device`): its type ("cuda", "openmp",
/// "serial", ...) and, for GPUs, the index of the GPU. Prints as PyTorch does: `cuda:0`.
struct DeviceId {
  std::string type;
  int index = -1;  ///< the GPU's index; -1 for host devices
  std::string str() const { return index < 0 ? type : type + ":" + std::to_string(index); }
  friend bool operator==(const DeviceId& a, const DeviceId& b) { return a.type == b.type && a.index == b.index; }
  friend bool operator!=(const DeviceId& a, const DeviceId& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& os, const DeviceId& d) { return os << d.str(); }
};

/// The DeviceId of device D (for Cuda, the GPU this process uses).
template <class D>
DeviceId device_id() {
  static_assert(is_device_v<D>, "kt::device_id: D is not a Kokkos execution space");
  std::string type = D::name();
  for (auto& c : type) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  int index = -1;
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<D, Kokkos::Cuda>) {
    index = 0;
    if (cudaGetDevice(&index) != cudaSuccess) (void)cudaGetLastError();
  }
#endif
  return DeviceId{type, index};
}

/// What a device is: the row of `examples/device_query`'s table.
struct DeviceInfo {
  std::string name;           ///< "Serial", "OpenMP", "Cuda"
  std::string memory_space;   ///< "HostSpace", "CudaSpace", ...
  int concurrency = 1;        ///< threads that run at once (Kokkos' concurrency())
  std::size_t total_memory = 0;  ///< bytes of the memory space (physical RAM for host)
  bool is_gpu = false;
};


/// Describes device D. Needs an initialised Kokkos (a live kt::Runtime).
template <class D>
DeviceInfo device_info() {
  static_assert(is_device_v<D>, "kt::device_info: D is not a Kokkos execution space");
  KT_REQUIRE(Kokkos::is_initialized(), "kt::device_info<", D::name(),
             ">: Kokkos is not initialised; create a kt::Runtime first");
  KT_REQUIRE(is_available<D>(), "kt::device_info<", D::name(), ">: no such device is present (kt::is_available<",
             D::name(), ">() is false)");
  DeviceInfo info;
  info.name = D::name();
  info.memory_space = impl::memory_space_name<memory_space_t<D>>();
  info.concurrency = static_cast<int>(D().concurrency());
  info.is_gpu = !is_host_accessible_v<D>;
  info.total_memory = impl::host_physical_memory();
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<D, Kokkos::Cuda>) {
    std::size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) info.total_memory = total_bytes;
  }
#endif
  return info;
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
