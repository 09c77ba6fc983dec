#pragma once
// What the engine runs besides the gradients: hooks on leaves, called once a backward has
// delivered the last gradient it will deliver to that leaf (PyTorch's post-accumulate-grad
// hooks, what DistributedDataParallel starts its all-reduces from), and callbacks queued during
// a backward that run once its sweep is over (PyTorch's engine queue_callback).

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace kt::impl {

/// A leaf's hooks and whether the current backward has reached it.
struct LeafHooks {
  std::vector<std::pair<std::uint64_t, std::function<void()>>> list;
  bool reached = false;  // a gradient was accumulated into the leaf in this backward

  std::uint64_t add(std::function<void()> hook) {
    static std::atomic<std::uint64_t> last_id{0};
    const std::uint64_t id = ++last_id;
    list.emplace_back(id, std::move(hook));
    return id;
  }
  void remove(std::uint64_t id) {
    for (auto it = list.begin(); it != list.end(); ++it)
      if (it->first == id) {
        list.erase(it);
        return;
      }
  }
  /// Runs the hooks if the backward reached the leaf; a hook may remove hooks (a copy runs).
  void fire() {
    if (!reached) return;
    reached = false;
    const auto hooks = list;
    for (const auto& hook : hooks) hook.second();
  }
};

/// The callbacks of the backward running on this thread: installed for the length of one
/// run_backward (nested backwards get their own), run after a sweep that did not throw.
class BackwardCallbacks {
public:
  BackwardCallbacks() : previous_(current()) { current() = this; }
  ~BackwardCallbacks() { current() = previous_; }
  BackwardCallbacks(const BackwardCallbacks&) = delete;
  BackwardCallbacks& operator=(const BackwardCallbacks&) = delete;

  static void queue(std::function<void()> callback) {
    KT_REQUIRE(current() != nullptr, "kt::autograd::queue_callback: no backward is running on this "
                                     "thread (queue callbacks from a hook, during backward())");
    current()->queued_.push_back(std::move(callback));
  }
  /// Runs the queued callbacks in order, including those that they queue themselves.
  void run() {
    for (std::size_t i = 0; i < queued_.size(); ++i) {
      auto callback = std::move(queued_[i]);
      callback();
    }
    queued_.clear();
  }

private:
  static BackwardCallbacks*& current() {
    thread_local BackwardCallbacks* active = nullptr;
    return active;
  }
  BackwardCallbacks* previous_;
  std::vector<std::function<void()>> queued_;
};

}  // namespace kt::impl
