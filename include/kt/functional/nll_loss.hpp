#pragma once
/// \file kt/functional/nll_loss.hpp
/// Negative log-likelihood of log-probabilities (N, C) at class indices (N) (`F.nll_loss`):
/// −x[i, t_i], reduced by mean (over the counted targets), sum or none; targets equal to
/// ignore_index contribute nothing. With a mean over no counted target the loss is NaN.
///
///     auto loss = kt::nll_loss(kt::log_softmax(logits, 1), labels);
///     auto per_sample = kt::nll_loss(logp, labels, kt::NLLLossOptions().reduction(kt::Reduction::None));

#include "kt/autograd/impl/operand.hpp"
#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/functional/impl/loss_checks.hpp"
#include "kt/functional/impl/nll_loss_kernels.hpp"
#include "kt/functional/reduction.hpp"
#include "kt/tensor/reduce.hpp"

#include <cstdint>
#include <limits>
#include <vector>

namespace kt {

/// Options of kt::nll_loss.
class NLLLossOptions {
public:
  NLLLossOptions& reduction(Reduction r) { reduction_ = r; return *this; }
  NLLLossOptions& ignore_index(std::int64_t index) { ignore_ = index; return *this; }
  Reduction reduction() const { return reduction_; }
  std::int64_t ignore_index() const { return ignore_; }

private:
  Reduction reduction_ = Reduction::Mean;
  std::int64_t ignore_ = default_ignore_index;
};

template <class L, class T2, class D2, impl::var_operands_t<L> = 0>
auto nll_loss(const L& log_probs_, const Tensor<T2, D2>& target, const NLLLossOptions& options = {}) {
  using V = impl::var_of_t<L>;
  using T = typename V::value_type;
  using D = typename V::device_type;
  impl::require_targets<V, T2, D2>();
  KT_PROFILE_REGION("kt::nll_loss");
  const V log_probs = impl::as_var<V>(log_probs_);
  const std::int64_t counted = impl::check_class_targets("kt::nll_loss", log_probs, target, options.ignore_index());
  const Reduction reduction = options.reduction();
  const double scale = reduction == Reduction::Mean ? 1.0 / static_cast<double>(counted) : 1.0;
  Tensor<T, D> rows(Shape{log_probs.size(0)});
  impl::nll_loss_forward(log_probs.data(), target, options.ignore_index(), scale, rows);
  Tensor<T, D> out = reduction == Reduction::None ? rows : sum(rows);
  if (reduction == Reduction::Mean && counted == 0) out.fill_(std::numeric_limits<T>::quiet_NaN());
  return impl::record("kt::nll_loss", out, {log_probs},
                      [target, shape = log_probs.shape(), ignore = options.ignore_index(), scale](
                          const Tensor<T, D>& g, const impl::Needs&) {
                        return std::vector<Tensor<T, D>>{impl::nll_loss_backward(g, shape, target, ignore, scale)};
                      });
}

}  // namespace kt
