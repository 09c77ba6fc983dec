#pragma once
// Process-wide bookkeeping that lets kt::Runtime finalise Kokkos only after the last kt
// allocation is gone, even when a tensor outlives the Runtime object that made Kokkos.

#include "kt/core/impl/internal.hpp"

#include <Kokkos_Core.hpp>

#include <mutex>

namespace kt::impl {

class RuntimeState {
public:
  /// Leaked on purpose: tensors in static storage may be destroyed after every other
  /// static object, and must still find this state.
  static RuntimeState& instance() {
    static RuntimeState* state = new RuntimeState();
    return *state;
  }

  void storage_acquired() {
    std::lock_guard<std::mutex> lock(mutex_);
    ++live_storages_;
  }

  void storage_released() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (--live_storages_ == 0 && finalize_pending_) finalize_locked(lock);
  }

  long live_storages() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return live_storages_;
  }

  /// Called by the Runtime that initialised Kokkos: finalise now, or as soon as the last
  /// storage is released.
  void request_finalize() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (live_storages_ == 0) finalize_locked(lock);
    else finalize_pending_ = true;
  }

  bool finalize_pending() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return finalize_pending_;
  }

private:
  RuntimeState() = default;

  void finalize_locked(std::unique_lock<std::mutex>& lock) {
    finalize_pending_ = false;
    lock.unlock();  // Kokkos' finalize hooks empty the allocators' caches under their own locks
    if (Kokkos::is_initialized()) Kokkos::finalize();
  }

  mutable std::mutex mutex_;
  long live_storages_ = 0;
  bool finalize_pending_ = false;
};

}  // namespace kt::impl
