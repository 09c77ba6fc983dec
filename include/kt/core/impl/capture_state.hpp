#pragma once
// What a thread that records a captured step (kt::StepGraph) tells the code it runs: which step
// is being captured, and the host-side bookkeeping to redo at every replay.
//
// A replay runs the captured kernels only (a CUDA graph, or on host devices the work that
// kt/core/impl/host_work.hpp records); host state that the step function changes (an
// optimizer's step counts) would fall behind. Code that keeps such state registers a hook
// while a capture is active, and the graph runs the hooks at each replay.

#include "kt/core/impl/internal.hpp"

#include <functional>
#include <vector>

namespace kt::impl {

struct HostWork;  // kt/core/impl/host_work.hpp

struct CaptureState {
  const char* step = nullptr;  // the step function running under kt::StepGraph's rules, or null
  std::vector<std::function<void()>>* on_replay = nullptr;  // set while a CUDA graph records
  bool recording = false;                                    // a CUDA graph records this thread's work
  HostWork* host_work = nullptr;  // where the work of a step recorded on a host device goes, or null
};

inline CaptureState& capture_state() {
  thread_local CaptureState state;
  return state;
}

/// The step this thread is capturing, or null.
inline const char* active_capture() { return capture_state().step; }

/// Registers host bookkeeping to redo at every replay of the step being captured; does
/// nothing outside a capture.
inline void on_replay(std::function<void()> hook) {
  if (auto* hooks = capture_state().on_replay) hooks->push_back(std::move(hook));
}

}  // namespace kt::impl
