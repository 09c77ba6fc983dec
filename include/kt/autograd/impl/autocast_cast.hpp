#pragma once
// What an autocast op does to its fp32 operands: the operand's 16-bit twin when an earlier op
// of the region made it (kt/autograd/impl/autocast_twin.hpp), else a differentiable cast to the
// region's 16-bit dtype, cached for parameters (leaves that require grad) until the outermost
// region ends, as PyTorch caches them. A cached cast is cast again once a backward() has run
// through it or through any op that read its value (autocast_cast_value): a region around a
// whole training loop then sees the weights the optimizer updated.

#include "kt/core/impl/internal.hpp"

#include "kt/autograd/impl/autocast_twin.hpp"
#include "kt/autograd/impl/var_access.hpp"
#include "kt/autograd/var.hpp"
#include "kt/core/impl/autocast_state.hpp"

#include <memory>
#include <optional>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace kt::impl {

/// A parameter's cached cast. `read_by_backward` is shared with the nodes that read the value
/// without going through the cast's graph (kt::linear under autocast hands the fp32 gradient
/// to the parameter directly); such a node sets it when a backward has run it. (A weak
/// reference to the node would not do: its graph may be gone by the next forward pass.)
template <class H, class D>
struct CachedCast {
  Var<H, D> cast;
  std::shared_ptr<bool> read_by_backward = std::make_shared<bool>(false);

  /// Whether a backward has consumed the cast (its own node, or a reader's, has run).
  bool stale() const {
    const auto& node = VarAccess::state(cast)->grad_fn;
    return (node && node->released()) || *read_by_backward;
  }
};

/// Whether `v` is a parameter: a leaf that requires grad (what autocast caches).
template <class D>
bool is_parameter(const Var<float, D>& v) {
  const auto& state = VarAccess::state(v);
  return state->requires_grad && !state->grad_fn;
}

/// A parameter's casts, one per 16-bit dtype (nested regions of both kinds cast it to each),
/// and the parameter's state, kept alive so that its address, the cache's key, is not reused.
template <class D>
struct CastCacheEntry {
  std::shared_ptr<const VarImpl<float, D>> source;
  std::optional<CachedCast<half, D>> to_half;
  std::optional<CachedCast<bfloat16, D>> to_bfloat16;

  template <class H>
  std::optional<CachedCast<H, D>>& cast() {
    if constexpr (std::is_same_v<H, half>) return to_half;
    else return to_bfloat16;
  }
};

/// This thread's casts of parameters for device D; the outermost autocast region empties it
/// when it ends (kt/amp/autocast.hpp).
template <class D>
std::unordered_map<const VarImpl<float, D>*, CastCacheEntry<D>>& autocast_cast_cache() {
  thread_local std::unordered_map<const VarImpl<float, D>*, CastCacheEntry<D>> cache;
  return cache;
}

/// The cache entry of parameter v: found, renewed when stale, or made.
template <class H, class D>
CachedCast<H, D>& cached_cast(const Var<float, D>& v) {
  const auto& source = VarAccess::state(v);
  CastCacheEntry<D>& entry = autocast_cast_cache<D>()[source.get()];
  entry.source = source;
  std::optional<CachedCast<H, D>>& cast = entry.template cast<H>();
  if (!cast || cast->stale()) cast = CachedCast<H, D>{v.template to<H>()};
  return *cast;
}

template <class H, class D>
Var<H, D> autocast_cast(const Var<float, D>& v) {
  if (Var<H, D> twin = twin_of<H>(v); twin.defined()) return twin;
  if (!is_parameter(v)) return v.template to<H>();
  return cached_cast<H>(v).cast;
}

/// The 16-bit value autocast_cast would give, for an op that computes the gradient of v
/// itself: cached for parameters. A recording op passes `read_flags` and sets each flag added
/// there once a backward has run it, so that the cache then renews the cast.
template <class H, class D>
Tensor<H, D> autocast_cast_value(const Var<float, D>& v, std::vector<std::shared_ptr<bool>>* read_flags) {
  if (Var<H, D> twin = twin_of<H>(v); twin.defined()) return twin.data();
  if (!is_parameter(v)) return v.data().template to<H>(D());
  auto& entry = cached_cast<H>(v);
  if (read_flags) read_flags->push_back(entry.read_by_backward);
  return entry.cast.data();
}

}  // namespace kt::impl
