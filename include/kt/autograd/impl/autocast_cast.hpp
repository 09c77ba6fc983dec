#pragma once
// What an autocast op does to its fp32 operands: the operand's 16-bit twin when an earlier op
// of the region made it (kt/autograd/impl/autocast_twin.hpp), else a differentiable cast to the
// region's 16-bit dtype, cached for parameters (leaves that require grad) until the outermost
// region ends, as PyTorch caches them. A cached cast whose graph a backward() has freed is cast
// again: a region around a whole training loop then sees the weights the optimizer updated.

#include "kt/autograd/impl/autocast_twin.hpp"
#include "kt/autograd/impl/var_access.hpp"
#include "kt/autograd/var.hpp"
#include "kt/core/impl/autocast_state.hpp"

#include <memory>
#include <utility>

namespace kt::impl {

template <class H, class D>
Var<H, D> autocast_cast(const Var<float, D>& v) {
  if (Var<H, D> twin = twin_of<H>(v); twin.defined()) return twin;
  const auto& source = VarAccess::state(v);
  const bool parameter = source->requires_grad && !source->grad_fn;
  if (!parameter) return v.template to<H>();
  auto& cache = autocast_state<D>().cache;
  const auto hit = cache.find(source.get());
  if (hit != cache.end()) {
    const auto& cached = *std::static_pointer_cast<Var<H, D>>(hit->second.second);
    const auto& node = VarAccess::state(cached)->grad_fn;
    if (!node || !node->released()) return cached;
    cache.erase(hit);
  }
  Var<H, D> cast = v.template to<H>();
  cache.emplace(source.get(), std::make_pair(std::shared_ptr<const void>(source), std::make_shared<Var<H, D>>(cast)));
  return cast;
}

}  // namespace kt::impl
