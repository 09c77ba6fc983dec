#pragma once
/// \file kt/autograd/hooks.hpp
/// Running code during backward(): `Var::register_post_accumulate_grad_hook(hook)` calls
/// `hook(param)` once a backward has accumulated the last gradient it will deliver to that
/// leaf (PyTorch's `register_post_accumulate_grad_hook`); `kt::autograd::queue_callback(f)`,
/// called from a hook, runs `f` once the whole backward is done (PyTorch's engine callback).
/// Together they let a gradient consumer (kt::dist's DistributedDataParallel) start work on
/// each gradient while backward is still computing the others.
///
///     auto handle = w.register_post_accumulate_grad_hook([](const kt::Var<float>& p) {
///       std::cout << "gradient ready: " << p.grad() << "\n";
///       kt::autograd::queue_callback([] { std::cout << "backward done\n"; });
///     });
///     loss.backward();
///     handle.remove();

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/impl/hooks.hpp"
#include "kt/autograd/impl/node.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>

namespace kt {

/// Removes a hook it was returned for (`RemovableHandle`). Holds no reference to the variable:
/// removing after the variable died does nothing.
class HookHandle {
public:
  HookHandle() = default;
  HookHandle(std::weak_ptr<impl::VarImplBase> var, std::uint64_t id) : var_(std::move(var)), id_(id) {}
  void remove() {
    if (auto var = var_.lock()) var->hooks.remove(id_);
    var_.reset();
  }

private:
  std::weak_ptr<impl::VarImplBase> var_;
  std::uint64_t id_ = 0;
};

namespace autograd {

/// Runs `callback` after the backward running on this thread has finished its sweep (all
/// gradients delivered, all hooks run); throws kt::Error when no backward is running. Not run
/// when the backward throws.
inline void queue_callback(std::function<void()> callback) { impl::BackwardCallbacks::queue(std::move(callback)); }

}  // namespace autograd
}  // namespace kt

#include "kt/core/impl/public_end.hpp"
