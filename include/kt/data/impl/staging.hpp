#pragma once
// Where the DataLoader stages batches on the host, and the execution-space instance that
// copies them to the device. With Cuda: page-locked buffers (Kokkos::CudaHostPinnedSpace),
// recycled through a pool, and a Kokkos::Cuda instance on a stream of its own. Without Cuda
// the staging is ordinary host memory and host devices need no copy at all.

#include "kt/core/impl/internal.hpp"

#include "kt/core/device.hpp"
#include "kt/core/impl/work_instance.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <vector>

namespace kt::impl {

/// Allocates `bytes` of staging memory: sets `ptr` and returns the owner of the memory.
using StagingAllocator = std::function<std::shared_ptr<void>(std::size_t bytes, void*& ptr)>;

#if defined(KOKKOS_ENABLE_CUDA)
/// Pinned host buffers, reused: a buffer returns to the pool when its owner is released.
class PinnedPool : public std::enable_shared_from_this<PinnedPool> {
  using Buffer = Kokkos::View<unsigned char*, Kokkos::CudaHostPinnedSpace>;

public:
  std::shared_ptr<void> acquire(std::size_t bytes, void*& ptr) {
    Buffer buffer;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (std::size_t i = 0; i < free_.size(); ++i)
        if (free_[i].extent(0) >= bytes) {
          buffer = free_[i];
          free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(i));
          break;
        }
    }
    if (buffer.data() == nullptr)
      buffer = Buffer(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kt::DataLoader::pinned_staging"),
                      bytes > 0 ? bytes : 1);
    ptr = buffer.data();
    auto self = shared_from_this();
    return std::shared_ptr<void>(buffer.data(), [self, buffer](void*) {
      std::lock_guard<std::mutex> lock(self->mutex_);
      self->free_.push_back(buffer);
    });
  }

private:
  std::mutex mutex_;
  std::vector<Buffer> free_;
};
#endif

/// The staging allocator for batches bound for Device: pinned for a GPU when asked, else
/// empty (batches are then ordinary kt host tensors).
template <class Device>
StagingAllocator staging_allocator(bool pin_memory) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (!is_host_accessible_v<Device>) {
    if (pin_memory) {
      auto pool = std::make_shared<PinnedPool>();
      return [pool](std::size_t bytes, void*& ptr) { return pool->acquire(bytes, ptr); };
    }
  }
#endif
  (void)pin_memory;
  return {};
}

/// An execution-space instance of Device for the loader's copies: its own CUDA stream on
/// Cuda (so copies overlap kt's compute), the default instance elsewhere. hand_off() makes the
/// work kt queues afterwards wait for the copies queued so far, on the device: the host does
/// not wait. It returns a mark that done()/wait() test before the copies' host staging is
/// reused.
template <class Device>
class CopyInstance {
public:
  Device get() const { return Device(); }
  int hand_off() { return 0; }
  void wait(int) {}
};

#if defined(KOKKOS_ENABLE_CUDA)
template <>
class CopyInstance<Kokkos::Cuda> {
public:
  CopyInstance() {
    if (cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking) == cudaSuccess) {
      exec_.emplace(stream_);
    } else {
      (void)cudaGetLastError();
      stream_ = nullptr;
      exec_.emplace();
    }
  }
  ~CopyInstance() {
    exec_->fence();
    exec_.reset();
    for (cudaEvent_t e : events_)
      if (e != nullptr) (void)cudaEventDestroy(e);
    if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
  }
  CopyInstance(const CopyInstance&) = delete;
  CopyInstance& operator=(const CopyInstance&) = delete;
  Kokkos::Cuda get() const { return *exec_; }

  /// kt's stream waits (on the device) for the copies queued so far; returns their mark. Marks
  /// alternate between two events: the loader keeps one batch's staging in flight.
  int hand_off() {
    const int k = next_;
    next_ = 1 - next_;
    cudaEvent_t& e = events_[k];
    const cudaStream_t compute = work_instance(Kokkos::Cuda()).cuda_stream();
    if ((e == nullptr && cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess) ||
        cudaEventRecord(e, exec_->cuda_stream()) != cudaSuccess ||
        cudaStreamWaitEvent(compute, e, 0) != cudaSuccess) {
      (void)cudaGetLastError();
      exec_->fence();  // no event: the host waits instead
    }
    return k;
  }
  /// Waits until the copies of mark k are done (they were handed off a batch ago: long since).
  void wait(int k) {
    if (events_[k] != nullptr && cudaEventSynchronize(events_[k]) != cudaSuccess) (void)cudaGetLastError();
  }

private:
  cudaStream_t stream_ = nullptr;
  std::optional<Kokkos::Cuda> exec_;
  cudaEvent_t events_[2] = {nullptr, nullptr};
  int next_ = 0;
};
#endif

}  // namespace kt::impl
