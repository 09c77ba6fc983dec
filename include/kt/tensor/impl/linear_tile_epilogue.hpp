#pragma once
// The Linear forward's output y = act(x · wᵀ + b) in one GEMM where kt's small path runs the
// product: the bias and the activation are applied to each tile of y as it leaves the
// registers (kt/backend/impl/gemm_host_small.hpp), so y is written once and never read back,
// and a small MLP's hidden layers make no element pass of their own after their forward
// products (docs/performance.md, "Bias and ReLU in the small path's tile store").

#include "kt/core/impl/internal.hpp"

#include "kt/backend/impl/gemm_dispatch.hpp"
#include "kt/tensor/impl/linear_impl.hpp"
#include "kt/tensor/impl/matmul_impl.hpp"
#include "kt/tensor/impl/ops.hpp"
#include "kt/tensor/tensor.hpp"

#include <cstdint>
#include <type_traits>

namespace kt::impl {

/// act(acc + bias[j]) as the small path stores element j of a panel: linear_epilogue_row's
/// arithmetic on fp32, the same bits. Whether there is a bias is a run-time choice that the
/// compiler hoists out of the store.
template <class Act, class T>
struct LinearTileEpilogue {
  const T* bias;  // the panel's first column's bias; null without one

  /// The W-wide panel of y's columns j0 .. j0 + nv: its bias in place when the panel is full,
  /// else copied into `pad`, zero-padded — a partial panel's padding columns are computed in
  /// registers (and never stored), and must not read past the bias.
  template <int W>
  LinearTileEpilogue panel(std::int64_t j0, int nv, T* pad) const {
    if (bias == nullptr) return *this;
    if (nv == W) return {bias + j0};
    for (int j = 0; j < W; ++j) pad[j] = j < nv ? bias[j0 + j] : T(0);
    return {pad};
  }
  KOKKOS_FORCEINLINE_FUNCTION T operator()(T acc, int j) const {
    return Act{}(bias != nullptr ? acc + bias[j] : acc);
  }
};

/// The activations applied in the tile store: one vector instruction each. GELU keeps its
/// input for the backward pass; tanh and sigmoid cost more than the pass they would save.
template <class Act>
inline constexpr bool applies_in_tile_store_v = std::is_same_v<Act, op::Identity> || std::is_same_v<Act, op::Relu>;

/// y = act(x · wᵀ + b) (b optional), without keeping the pre-activation: in one GEMM with the
/// tile-store epilogue where kt's small path runs the fp32 product on the host and the
/// activation applies there (gemm_dispatch_small_fused), else a GEMM and linear_epilogue's pass.
template <class Act, class T, class D>
Tensor<T, D> linear_output(const D& exec, const Tensor<T, D>& x, const Tensor<T, D>& w, const Tensor<T, D>& b) {
  MatmulPlan<T> plan = matmul_plan<T>(x.shape(), w.shape(), MatmulOptions().transpose_b(true));
  plan.gemm.beta = 0;
  Tensor<T, D> y(plan.out, exec);
  if constexpr (linear_runs_on_host_v<D> && std::is_same_v<T, float> && applies_in_tile_store_v<Act>) {
    GemmProblem<T> p = plan.gemm;
    p.a = x.data();
    p.b = w.data();
    p.c = y.data();
    if (gemm_dispatch_small_fused(exec, p, LinearTileEpilogue<Act, T>{b.defined() ? b.data() : nullptr})) return y;
  }
  matmul_into(exec, x, w, y, plan, GemmOptions());
  linear_epilogue<Act>(exec, y, b, Tensor<T, D>());
  return y;
}

}  // namespace kt::impl
