#pragma once
/// \file kt/autograd/grad_mode.hpp
/// Whether differentiable ops record the graph (`torch.is_grad_enabled`), per thread, and the
/// RAII scopes that switch it: `kt::NoGradGuard` (`torch.no_grad()`) for inference and
/// optimizer updates, `kt::EnableGradGuard` to turn recording back on inside one.
///
///     {
///       kt::NoGradGuard no_grad;          // nothing below records a graph
///       auto logits = model(x);           // logits.requires_grad() == false
///     }

namespace kt {

/// The per-thread switch behind NoGradGuard (on by default in every thread).
class GradMode {
public:
  static bool is_enabled() { return enabled(); }
  static void set_enabled(bool on) { enabled() = on; }

private:
  static bool& enabled() {
    thread_local bool on = true;
    return on;
  }
};

/// Sets grad mode for the lifetime of the guard and restores the previous mode afterwards.
class AutoGradMode {
public:
  explicit AutoGradMode(bool enabled) : previous_(GradMode::is_enabled()) {
    GradMode::set_enabled(enabled);
  }
  ~AutoGradMode() { GradMode::set_enabled(previous_); }
  AutoGradMode(const AutoGradMode&) = delete;
  AutoGradMode& operator=(const AutoGradMode&) = delete;

private:
  bool previous_;
};

/// Ops inside this scope record no graph (`torch::NoGradGuard`).
class NoGradGuard : public AutoGradMode {
public:
  NoGradGuard() : AutoGradMode(false) {}
};

/// Ops inside this scope record again, even within a NoGradGuard (`torch.enable_grad()`).
class EnableGradGuard : public AutoGradMode {
public:
  EnableGradGuard() : AutoGradMode(true) {}
};

}  // namespace kt
