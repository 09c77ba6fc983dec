#pragma once
// Errors that kernels find (a class index outside [0, C)) without making the host wait.
//
// A kernel that finds one writes it into the device's error record, memory the host and the
// device both address (pinned host memory on Cuda, ordinary memory on host devices); the host
// reads the record where it waits for the device anyway (kt/core/impl/host_wait.hpp) and
// raises it there as a kt::Error. On host devices a kernel has finished when it returns, so
// the op that launched it raises at once. The record holds the first error: later kernels
// leave a set record alone, and raising clears it.
//
// Writers: one thread of a kernel (kernels on a device are ordered on kt's instance), so the
// record needs no atomics, which pinned memory would not offer portably anyway.

#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/kokkos_compat.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

namespace kt::impl {

/// What a kernel found: `count` values of which the first, at `index`, is `value`, outside
/// [0, bound). op: an id from device_error_op().
struct DeviceErrorRecord {
  std::int64_t op = 0;  // 0: no error
  std::int64_t count = 0, index = 0, value = 0, bound = 0;
};

/// The messages of device-found errors, by id (1-based; 0 means "no error").
class DeviceErrorOps {
public:
  /// The id kernels write for an op's errors; `text` is the message before the numbers, e.g.
  /// "kt::cross_entropy".
  static std::int64_t id(const char* text) {
    auto& r = instance();
    std::lock_guard<std::mutex> lock(r.mutex_);
    for (std::size_t i = 0; i < r.names_.size(); ++i)
      if (r.names_[i] == text) return static_cast<std::int64_t>(i) + 1;
    r.names_.emplace_back(text);
    return static_cast<std::int64_t>(r.names_.size());
  }
  static std::string name(std::int64_t id) {
    auto& r = instance();
    std::lock_guard<std::mutex> lock(r.mutex_);
    return id >= 1 && id <= static_cast<std::int64_t>(r.names_.size()) ? r.names_[static_cast<std::size_t>(id - 1)]
                                                                         : std::string("kt");
  }

private:
  static DeviceErrorOps& instance() {
    static DeviceErrorOps* r = new DeviceErrorOps();  // leaked: used until exit
    return *r;
  }
  std::mutex mutex_;
  std::vector<std::string> names_;
};

/// The memory space of a device's error record.
template <class MemSpace>
struct error_space {
  using type = Kokkos::HostSpace;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct error_space<Kokkos::CudaSpace> {
  using type = Kokkos::CudaHostPinnedSpace;
};
template <>
struct error_space<Kokkos::CudaUVMSpace> {
  using type = Kokkos::CudaHostPinnedSpace;
};
#endif

/// The error record of memory space MemSpace's kernels (allocated on first use, returned
/// before Kokkos finalises).
template <class MemSpace>
DeviceErrorRecord* device_error_record() {
  static DeviceErrorRecord* record = nullptr;
  if (record == nullptr) {
    using Space = typename error_space<MemSpace>::type;
    record = static_cast<DeviceErrorRecord*>(Space().allocate("kt::device_errors", sizeof(DeviceErrorRecord)));
    *record = DeviceErrorRecord{};
    Kokkos::push_finalize_hook([] {
      Space().deallocate(record, sizeof(DeviceErrorRecord));
      record = nullptr;
    });
  }
  return record;
}

}  // namespace kt::impl

namespace kt::impl {

/// The text of a record: the op, then what was out of range.
KT_INLINE_UNLESS_COMPILED std::string device_error_text(const DeviceErrorRecord& r);

// Defined once in kt_compiled when it is linked (kt/core/impl/compiled.hpp).
#if !defined(KT_COMPILED) || defined(KT_COMPILED_DEFINES_CORE)
KT_INLINE_UNLESS_COMPILED std::string device_error_text(const DeviceErrorRecord& r) {
  return DeviceErrorOps::name(r.op) + ": " + std::to_string(r.count) + (r.count == 1 ? " target is" : " targets are") +
         " outside [0, " + std::to_string(r.bound) + "), the first at index " + std::to_string(r.index) + " (value " +
         std::to_string(r.value) + ")";
}
#endif

/// Raises (and clears) MemSpace's recorded error; call only where that device's kernels so
/// far have finished. `where`: null when the op that found it raises at once (host devices),
/// else the wait that reports it.
template <class MemSpace>
void raise_device_errors(const char* where) {
  DeviceErrorRecord* record = device_error_record<MemSpace>();
  if (record->op == 0) return;
  const DeviceErrorRecord r = *record;
  *record = DeviceErrorRecord{};
  if (where == nullptr) KT_THROW(device_error_text(r));
  KT_THROW(device_error_text(r), " [found on the device by a kernel of an earlier call and reported at ", where,
           ", the next point where the host waited for the device; that call and those after it counted these "
           "targets as ignored]");
}

}  // namespace kt::impl
