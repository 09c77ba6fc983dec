#pragma once
/// \file kt/optim/adam.hpp
/// Adam: Kingma & Ba, "Adam: A Method for Stochastic Optimization", ICLR 2015
/// (`torch.optim.Adam`), with optional AMSGrad (Reddi, Kale & Kumar, ICLR 2018) and L2 weight
/// decay added to the gradient. For decoupled weight decay use kt::optim::AdamW.
///
///     kt::optim::Adam<float> opt(model.parameters(),
///                                kt::optim::AdamOptions(1e-3).betas(0.9, 0.999).amsgrad(true));
///     opt.zero_grad();
///     loss.backward();
///     opt.step();
///     opt.state(0).step;                  // t
///     opt.state(0).at("exp_avg_sq");      // v
///
/// The update is PyTorch's single-tensor algorithm, per element of each parameter p with
/// gradient g, at step t of that parameter (λ = weight_decay, γ = lr):
///
///     g ← −g if maximize;   g ← g + λ·p
///     m ← β1·m + (1 − β1)·g;   v ← β2·v + (1 − β2)·g²;   v̂ ← max(v̂, v) if amsgrad
///     p ← p − (γ / (1 − β1^t)) · m / (sqrt(v̂ or v) / sqrt(1 − β2^t) + ε)
///
/// in fused kernels — by default (`foreach`) one launch per group of parameter tensors, with
/// foreach(false) one per tensor — computed in kt::compute_t<T> (fp32 for kt::half
/// and kt::bfloat16; the moments are kept in that type too — see kt/optim/state.hpp).

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/impl/compiled.hpp"
#include "kt/optim/impl/adam_family.hpp"

#include <utility>
#include <vector>

namespace kt::optim {

/// Hyperparameters of kt::optim::Adam: lr (required), betas (0.9, 0.999), eps 1e-8,
/// weight_decay 0, amsgrad false, maximize false — PyTorch's defaults.
class AdamOptions : public kt::impl::AdamOptionsBase<AdamOptions> {
public:
  AdamOptions(double lr = 1e-3) : AdamOptionsBase(lr, 0.0) {}  // NOLINT: implicit, `Adam(params, 1e-3)`
};

/// Adam over `Var<T, D>` parameters (see the file comment for the update).
template <class T, class D = DefaultDevice>
class Adam final : public kt::impl::AdamFamily<T, D, AdamOptions, false> {
public:
  /// kt::Error when an option is out of range (lr, eps, weight_decay < 0; betas outside
  /// [0, 1)) or the parameter list is empty or repeats a parameter.
  Adam(Params<T, D> params, const AdamOptions& options = AdamOptions())
      : kt::impl::AdamFamily<T, D, AdamOptions, false>(std::move(params), options, "kt::optim::Adam") {}
  const char* name() const override { return "kt::optim::Adam"; }
};

/// `Adam opt(model.parameters(), options)` deduces T and D from the parameters.
template <class T, class D>
Adam(std::vector<Var<T, D>>, const AdamOptions&) -> Adam<T, D>;

}  // namespace kt::optim

// kt_compiled (kt/core/impl/compiled.hpp): Adam with its bases.
#define KT_ETI_ADAM_ONE(T, D, KW) \
  KT_ETI_ADAM_FAMILY(T, D, kt::optim::AdamOptions, false, kt::optim::Adam, KW)
#define KT_ETI_ADAM(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_ADAM_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_OPTIM)
KT_ETI_ADAM(extern template)
#endif

#include "kt/core/impl/public_end.hpp"
