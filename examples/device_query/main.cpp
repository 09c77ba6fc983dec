// examples/device_query: what `torch.cuda.is_available()`, `device_count()`,
// `get_device_name()` and `memory_allocated()` tell a PyTorch user, for every device this
// build of kt was compiled with.
//
//   ./examples/device_query/device_query [--kokkos-threads=N] [--kokkos-device-id=K]

#include <kt/kt.hpp>

#include <cstdio>
#include <string>

namespace {

std::string mib(std::size_t bytes) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buffer;
}

/// One row of the table: device D as kt sees it (a compiled-in GPU may be absent: ask first,
/// as with torch.cuda.is_available(); device_info of an absent device is a kt::Error).
template <class D>
void print_device() {
  if (!kt::is_available<D>()) {
    std::printf("%-8s %-9s %11s  %-13s %12s %12s %12s %12s\n", kt::device_name<D>().c_str(), "no", "-", "-", "-",
                "-", "-", "-");
    return;
  }
  const kt::DeviceInfo info = kt::device_info<D>();
  const kt::MemoryStats stats = kt::memory_stats<D>();
  std::printf("%-8s %-9s %11d  %-13s %12s %12s %12s %12s\n", info.name.c_str(),
              kt::is_available<D>() ? "yes" : "no", info.concurrency, info.memory_space.c_str(),
              mib(info.total_memory).c_str(), mib(stats.allocated).c_str(),
              mib(stats.reserved).c_str(), mib(stats.peak_allocated).c_str());
}

void print_table() {
  std::printf("%-8s %-9s %11s  %-13s %12s %12s %12s %12s\n", "device", "available", "concurrency",
              "memory space", "total memory", "allocated", "reserved", "peak");
  // Only compiled-in devices have a kt alias; the others do not exist, even as types.
#if defined(KOKKOS_ENABLE_SERIAL)
  print_device<kt::Serial>();
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
  print_device<kt::OpenMP>();
#endif
#if defined(KOKKOS_ENABLE_CUDA)
  print_device<kt::Cuda>();
#endif
}

}  // namespace

int main(int argc, char* argv[]) {
  kt::Runtime runtime(argc, argv);

  std::printf("kt device query (Kokkos %d.%d.%d)\n\n", KOKKOS_VERSION / 10000,
              KOKKOS_VERSION / 100 % 100, KOKKOS_VERSION % 100);
  print_table();

  // Memory statistics are kept per memory space, so devices that share one (Serial and
  // OpenMP share HostSpace) show the same numbers. Watch them move with one 4 MiB tensor.
  using D = kt::DefaultDevice;
  if (!kt::is_available<D>()) {
    std::printf("\nDefaultDevice = %s is compiled in but not present here: %s programs run on kt::Host "
                "(see kt::dispatch_device)\n",
                kt::device_name<D>().c_str(), kt::device_name<kt::Host>().c_str());
    return 0;
  }
  std::printf("\nmemory of %s (%s), caching allocator %s:\n", kt::device_name<D>().c_str(),
              kt::device_info<D>().memory_space.c_str(), kt::caching_enabled<D>() ? "on" : "off");
  std::printf("  at start:                 allocated %s, reserved %s\n",
              mib(kt::memory_stats<D>().allocated).c_str(), mib(kt::memory_stats<D>().reserved).c_str());
  {
    auto t = kt::zeros<float, D>({1024, 1024});  // 1024 * 1024 * 4 bytes
    const auto s = kt::memory_stats<D>();
    std::printf("  holding a 4 MiB tensor:   allocated %s, reserved %s\n",
                mib(s.allocated).c_str(), mib(s.reserved).c_str());
  }
  const auto after = kt::memory_stats<D>();
  std::printf("  after releasing it:       allocated %s, reserved %s (%s cached), peak %s\n",
              mib(after.allocated).c_str(), mib(after.reserved).c_str(), mib(after.cached()).c_str(),
              mib(after.peak_allocated).c_str());
  kt::empty_cache<D>();
  std::printf("  after kt::empty_cache:    allocated %s, reserved %s\n",
              mib(kt::memory_stats<D>().allocated).c_str(), mib(kt::memory_stats<D>().reserved).c_str());

  std::printf("\nDefaultDevice = %s, Host = %s, device_count() = %d\n",
              kt::device_name<kt::DefaultDevice>().c_str(), kt::device_name<kt::Host>().c_str(),
              kt::device_count());
  return 0;
}
