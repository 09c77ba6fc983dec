#pragma once
/// \file kt/optim/adamw.hpp
/// AdamW: Loshchilov & Hutter, "Decoupled Weight Decay Regularization", ICLR 2019
/// (`torch.optim.AdamW`): Adam whose weight decay shrinks the parameter directly instead of
/// entering the gradient, so it is not rescaled by the adaptive denominator.
///
///     kt::optim::AdamW<float> opt(model.parameters(),
///                                 kt::optim::AdamWOptions(1e-3).weight_decay(0.05));
///     opt.zero_grad();
///     loss.backward();
///     opt.step();
///
/// The update is PyTorch's single-tensor algorithm, per element of each parameter p with
/// gradient g, at step t of that parameter (λ = weight_decay, γ = lr):
///
///     g ← −g if maximize;   p ← (1 − γ·λ)·p
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

/// Hyperparameters of kt::optim::AdamW: lr (required), betas (0.9, 0.999), eps 1e-8,
/// weight_decay 0.01, amsgrad false, maximize false — PyTorch's defaults.
class AdamWOptions : public kt::impl::AdamOptionsBase<AdamWOptions> {
public:
  AdamWOptions(double lr = 1e-3) : AdamOptionsBase(lr, 0.01) {}  // NOLINT: implicit
};

/// AdamW over `Var<T, D>` parameters (see the file comment for the update).
template <class T, class D = DefaultDevice>
class AdamW final : public kt::impl::AdamFamily<T, D, AdamWOptions, true> {
public:
  /// kt::Error when an option is out of range (lr, eps, weight_decay < 0; betas outside
  /// [0, 1)) or the parameter list is empty or repeats a parameter.
  AdamW(Params<T, D> params, const AdamWOptions& options = AdamWOptions())
      : kt::impl::AdamFamily<T, D, AdamWOptions, true>(std::move(params), options, "kt::optim::AdamW") {}
  const char* name() const override { return "kt::optim::AdamW"; }
};

/// `AdamW opt(model.parameters(), options)` deduces T and D from the parameters.
template <class T, class D>
AdamW(std::vector<Var<T, D>>, const AdamWOptions&) -> AdamW<T, D>;

}  // namespace kt::optim

// kt_compiled (kt/core/impl/compiled.hpp): AdamW with its bases.
#define KT_ETI_ADAMW_ONE(T, D, KW) \
  KT_ETI_ADAM_FAMILY(T, D, kt::optim::AdamWOptions, true, kt::optim::AdamW, KW)
#define KT_ETI_ADAMW(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_ADAMW_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_OPTIM)
KT_ETI_ADAMW(extern template)
#endif

#include "kt/core/impl/public_end.hpp"
