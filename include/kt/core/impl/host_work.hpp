#pragma once
// kt::StepGraph on host devices: the step is run once while its work is recorded, then replayed
// without the code that produced it (autograd's graph, shape checks, allocations, dispatch).
//
// A unit of work is one launch of kt's — a kernel, a GEMM with its back-end already chosen, a
// copy, an optimizer's update over a group of tensors — as a closure holding what it reads by
// value: pointers into tensors and scalars. The step's tensors come from the graph's block pool
// (kt/core/impl/caching_allocator.hpp), so those pointers stay the step's while the graph
// lives, as in a CUDA graph. A unit reads at every replay what kt keeps in memory for it (a
// learning rate, Adam's step scalars, a skip flag, a generator's offset), exactly as the eager
// launch reads it, so a replay does what the eager step would.
//
// Work a unit launches belongs to it and is not recorded again: a GEMM's packing kernels, the
// per-tensor loops of an optimizer's update.
//
// A Kokkos launch or copy made while a step is recorded but outside every unit — a user's own
// Kokkos kernel in the step function — would be skipped by every replay:
// kt/core/impl/host_work_watch.hpp refuses it.

#include "kt/core/impl/internal.hpp"

#include "kt/core/device.hpp"
#include "kt/core/impl/capture_state.hpp"

#include <functional>
#include <utility>
#include <vector>

namespace kt::impl {

/// The recorded work of a step on a host device, in launch order.
struct HostWork {
  std::vector<std::function<void()>> units;

  void replay() const {
    for (const auto& unit : units) unit();
  }
};

/// Where this thread's work on execution space Exec is being recorded: the recording of a step
/// on a host device, or null (run the work eagerly). Callers test it first so that eager
/// launches copy nothing.
template <class Exec>
HostWork* host_recording() {
  if constexpr (is_host_accessible_v<Exec>) return capture_state().host_work;
  else return nullptr;
}

/// Work that runs while a step is recorded but is not recorded on its own: a unit's own
/// launches, and work that is not part of the step (a tuner's trial products).
class UnrecordedHostWork {
public:
  UnrecordedHostWork() : recording_(capture_state().host_work) { capture_state().host_work = nullptr; }
  ~UnrecordedHostWork() { capture_state().host_work = recording_; }
  UnrecordedHostWork(const UnrecordedHostWork&) = delete;
  UnrecordedHostWork& operator=(const UnrecordedHostWork&) = delete;

private:
  HostWork* recording_;
};

/// Runs `unit` (a closure holding its operands by value) now and keeps it in `recording` for
/// the replays; a unit that throws is not kept.
template <class Unit>
void record_host_work(HostWork* recording, Unit unit) {
  {
    const UnrecordedHostWork nested;  // the unit's own launches are part of it
    unit();
  }
  recording->units.emplace_back(std::move(unit));
}

}  // namespace kt::impl
