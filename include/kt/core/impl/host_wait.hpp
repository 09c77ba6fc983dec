#pragma once
// The points where kt makes the host wait for a device: Tensor::item(), to_vector(), blocking
// copies, from_host, kt::synchronize(). Each one
//  - is refused inside a captured step (kt::StepGraph): a CUDA graph cannot make the host wait,
//    and the same code must behave alike on every device;
//  - is recorded by kt::Profiler as a "fence" row named after it (a training step in steady
//    state has none);
//  - raises, once the wait is over, an error that the device's kernels recorded meanwhile
//    (kt/core/impl/device_errors.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/capture_state.hpp"
#include "kt/core/impl/device_errors.hpp"
#include "kt/core/impl/memory_space_name.hpp"
#include "kt/core/impl/profile_callbacks.hpp"

namespace kt::impl {

/// Refuses a host wait named `what` inside a captured step.
inline void require_no_capture(const char* what) {
  if (const char* step = active_capture())
    KT_THROW(what, " makes the host wait for the device, which cannot happen inside a captured step (", step,
             " is recording its step function): move it after the step, e.g. read the loss the step returns once "
             "the step has run");
}

/// One host wait for MemSpace's work: construct before waiting, call done() after.
template <class MemSpace>
class HostWait {
public:
  explicit HostWait(const char* what) : what_(what) {
    require_no_capture(what);
    profile_with_recorder([&](ProfileRecorder& r) { r.fence_begin(what, memory_space_name<MemSpace>()); });
  }
  ~HostWait() {
    profile_with_recorder([](ProfileRecorder& r) { r.fence_end(); });
  }
  HostWait(const HostWait&) = delete;
  HostWait& operator=(const HostWait&) = delete;

  /// The wait is over: raises what the device's kernels recorded.
  void done() const { raise_device_errors<MemSpace>(what_); }

private:
  const char* what_;
};

}  // namespace kt::impl
