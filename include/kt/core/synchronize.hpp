#pragma once
/// \file kt/core/synchronize.hpp
/// Waits for a device (`torch.cuda.synchronize()`).
///
///     kt::synchronize<kt::Cuda>();   // every kernel and copy queued so far has finished
///
/// kt queues a device's work without waiting for it; the host waits only at item(),
/// to_vector(), blocking copies (kt::copy without an instance, .to<Device>(), from_host) and
/// here. Errors that kernels find on a GPU (a class index outside [0, C) in a loss) are
/// raised at the first such wait after the kernel ran, as the same kt::Error the op raises
/// on host devices, where the op raises at once (docs/training.md, "Errors found on the
/// device").

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/device.hpp"
#include "kt/core/impl/host_wait.hpp"
#include "kt/core/impl/work_instance.hpp"

#include <Kokkos_Core.hpp>

namespace kt {

/// Waits until all work queued on device D has finished, then raises an error its kernels
/// recorded (kt::Error). Refused inside a captured step (kt::StepGraph).
template <class D = DefaultDevice>
void synchronize() {
  static_assert(is_device_v<D>, "kt::synchronize<D>: D must be a device (kt::Serial, kt::OpenMP, kt::Cuda, ...)");
  impl::HostWait<memory_space_t<D>> wait("kt::synchronize");
  impl::work_instance(D()).fence();
  Kokkos::fence();
  wait.done();
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
