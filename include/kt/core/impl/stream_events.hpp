#pragma once
// The stream of an execution-space instance, and the events that tell kt's caching allocator
// when work queued on a stream has finished (kt/core/impl/block_cache.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/block_cache.hpp"

#include <Kokkos_Core.hpp>

#include <type_traits>
#include <vector>

namespace kt::impl {

/// The queue `exec`'s work is ordered on: its CUDA stream on Cuda, null on host devices.
template <class Exec>
StreamId stream_id(const Exec& exec) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same_v<Exec, Kokkos::Cuda>) return static_cast<StreamId>(exec.cuda_stream());
#endif
  (void)exec;
  return nullptr;
}

#if defined(KOKKOS_ENABLE_CUDA)
/// CUDA events, recycled: `record` marks the current end of a stream's queue, `done` polls it.
/// Errors (e.g. after the driver is gone at exit) count as "finished": a destructor-time
/// release must not throw, and nothing can still be running then.
class CudaEvents {
public:
  using Event = cudaEvent_t;
  Event record(StreamId stream) {
    cudaEvent_t e = nullptr;
    if (!pool_.empty()) {
      e = pool_.back();
      pool_.pop_back();
    } else if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess) {
      (void)cudaGetLastError();
      (void)cudaStreamSynchronize(static_cast<cudaStream_t>(const_cast<void*>(stream)));
      return nullptr;  // no event: the stream was synchronised instead
    }
    if (cudaEventRecord(e, static_cast<cudaStream_t>(const_cast<void*>(stream))) != cudaSuccess) {
      (void)cudaGetLastError();
      (void)cudaStreamSynchronize(static_cast<cudaStream_t>(const_cast<void*>(stream)));
    }
    return e;
  }
  bool done(Event e) {
    if (e == nullptr) return true;
    const cudaError_t status = cudaEventQuery(e);
    if (status == cudaErrorNotReady) return false;
    if (status != cudaSuccess) (void)cudaGetLastError();
    return true;
  }
  void wait(Event e) {
    if (e != nullptr && cudaEventSynchronize(e) != cudaSuccess) (void)cudaGetLastError();
  }
  void release(Event& e) {
    if (e != nullptr) pool_.push_back(e);
    e = nullptr;
  }

private:
  std::vector<cudaEvent_t> pool_;  // never destroyed: the allocator lives until exit
};
#endif

/// The Events of a memory space: CUDA events for device memory, none for host memory.
template <class MemSpace>
struct events_of {
  using type = NoEvents;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct events_of<Kokkos::CudaSpace> {
  using type = CudaEvents;
};
template <>
struct events_of<Kokkos::CudaUVMSpace> {
  using type = CudaEvents;
};
#endif

}  // namespace kt::impl
