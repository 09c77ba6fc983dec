#pragma once
/// \file kt/optim/clip_grad.hpp
/// Gradient clipping by total norm (`torch.nn.utils.clip_grad_norm_`): the norm of all
/// gradients taken together as one vector, and every gradient scaled down in place when that
/// norm exceeds `max_norm`.
///
///     loss.backward();
///     double total = kt::clip_grad_norm_(opt.params(), /*max_norm=*/1.0);   // 2-norm
///     kt::clip_grad_norm_(opt.params(), 0.5, kt::inf_norm);                 // max |g|
///     opt.step();
///
/// As in PyTorch: parameters without a gradient are skipped (none at all: the norm is 0);
/// coef = max_norm / (total + 1e-6) and the gradients are multiplied by coef when coef < 1
/// (or is NaN, which makes them NaN, as PyTorch's clamped coefficient does); a non-finite
/// total is an error only with `error_if_nonfinite`. The norm is accumulated in double
/// (PyTorch uses the gradients' dtype) by kt's deterministic reduction: the same on every
/// device and thread count. Scaling computes in kt::compute_t<T>.

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/var.hpp"
#include "kt/core/error.hpp"
#include "kt/core/profiling.hpp"
#include "kt/optim/impl/clip_grad_impl.hpp"

#include <cmath>
#include <limits>
#include <vector>

namespace kt {

/// The norm_type of the max-norm (`float('inf')` in PyTorch).
inline constexpr double inf_norm = std::numeric_limits<double>::infinity();

/// Clips the gradients of `params` to a total `norm_type`-norm (> 0, or kt::inf_norm) of at
/// most `max_norm` (>= 0) and returns the total norm before clipping. kt::Error for invalid
/// arguments, or for a NaN/infinite total when `error_if_nonfinite`.
template <class T, class D>
double clip_grad_norm_(const std::vector<Var<T, D>>& params, double max_norm, double norm_type = 2.0,
                       bool error_if_nonfinite = false) {
  KT_PROFILE_REGION("kt::clip_grad_norm_");
  KT_REQUIRE(max_norm >= 0, "kt::clip_grad_norm_: max_norm is ", max_norm, " (expected >= 0)");
  KT_REQUIRE(norm_type > 0, "kt::clip_grad_norm_: norm_type is ", norm_type,
             " (expected > 0, or kt::inf_norm)");
  const bool inf = std::isinf(norm_type);
  double acc = 0;
  bool any = false;
  for (const auto& p : params) {
    KT_REQUIRE(p.defined(), "kt::clip_grad_norm_: a parameter is undefined");
    const auto& g = p.grad();
    if (!g.defined()) continue;
    any = true;
    const double part = impl::grad_norm_part(g, norm_type, inf);
    if (!inf) acc += part;
    else if (!std::isnan(acc) && (std::isnan(part) || part > acc)) acc = part;  // NaN wins
  }
  if (!any) return 0.0;
  const double total = inf || norm_type == 1.0 ? acc
                       : norm_type == 2.0       ? std::sqrt(acc)
                                                : std::pow(acc, 1.0 / norm_type);
  KT_REQUIRE(!error_if_nonfinite || std::isfinite(total), "kt::clip_grad_norm_: the total norm of "
             "order ", norm_type, " of the gradients is ", total, ", so they cannot be clipped; "
             "pass error_if_nonfinite = false to skip this check");
  const double coef = max_norm / (total + 1e-6);
  if (!(coef >= 1.0)) {
    for (const auto& p : params)
      if (p.grad().defined()) impl::scale_grad(p.grad(), coef);
  }
  return total;
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
