#pragma once
// What an autocast op does to its fp32 operands: a differentiable cast to the region's 16-bit
// dtype, cached for parameters (leaves that require grad) until the outermost region ends, as
// PyTorch caches them. A cached cast whose graph a backward() has freed is cast again: a
// region around a whole training loop then sees the weights the optimizer updated.

#include "kt/autograd/impl/var_access.hpp"
#include "kt/autograd/var.hpp"
#include "kt/core/impl/autocast_state.hpp"

#include <memory>
#include <utility>

namespace kt::impl {

template <class H, class D>
Var<H, D> autocast_cast(const Var<float, D>& v) {
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

/// Calls f(tag) with tag's type the region's 16-bit dtype when autocast is on for D and the
/// op's dtype T is float; returns whether it did (the op then returns f's result).
template <class T, class D, class F>
bool with_autocast_dtype(F&& f) {
  if constexpr (!std::is_same_v<T, float>) {
    return false;
  } else {
    switch (autocast_state<D>().dtype) {
      case AutocastDtype::None: return false;
      case AutocastDtype::Half: f(half{}); return true;
      case AutocastDtype::BFloat16: f(bfloat16{}); return true;
    }
    return false;
  }
}

}  // namespace kt::impl
