#include "kt_test.hpp"

#include <type_traits>

TEST_CASE("kt::DefaultDevice picks the best compiled-in device") {
#if defined(KOKKOS_ENABLE_CUDA)
  CHECK(std::is_same_v<kt::DefaultDevice, Kokkos::Cuda>);
#elif defined(KOKKOS_ENABLE_OPENMP)
  CHECK(std::is_same_v<kt::DefaultDevice, Kokkos::OpenMP>);
#else
  CHECK(std::is_same_v<kt::DefaultDevice, Kokkos::Serial>);
#endif
  CHECK(kt::is_host_accessible_v<kt::Host>);
  CHECK(kt::is_device_v<kt::Host>);
  CHECK_FALSE(kt::is_device_v<float>);
  CHECK_FALSE(kt::is_device_v<Kokkos::HostSpace>);
}

TEST_CASE_TEMPLATE("host devices are available and described", D, KT_DEVICES) {
  if constexpr (kt::is_host_accessible_v<D>) {
    CHECK(kt::is_available<D>());
    CHECK(kt::device_count<D>() == 1);
    const kt::DeviceInfo info = kt::device_info<D>();
    CHECK(info.name == kt::device_name<D>());
    CHECK(info.memory_space == "HostSpace");
    CHECK_FALSE(info.is_gpu);
    CHECK(info.total_memory > (std::size_t(1) << 28));  // at least 256 MiB of RAM
    CHECK(info.concurrency == static_cast<int>(D().concurrency()));
    CHECK(info.concurrency >= 1);
  }
}

TEST_CASE("device names are Kokkos' names") {
  CHECK(kt::device_name<kt::Serial>() == "Serial");
#if defined(KOKKOS_ENABLE_OPENMP)
  CHECK(kt::device_name<kt::OpenMP>() == "OpenMP");
  CHECK(kt::device_info<kt::Serial>().concurrency == 1);
#endif
  CHECK(kt::device_count() >= (kt::is_host_accessible_v<kt::DefaultDevice> ? 1 : 0));
}
