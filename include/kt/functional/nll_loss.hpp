#pragma once
/// \file kt/functional/nll_loss.hpp
/// Negative log-likelihood of log-probabilities (N, C) at class indices (N) (`F.nll_loss`):
/// −x[i, t_i], reduced by mean (over the counted targets), sum or none; targets equal to
/// ignore_index contribute nothing. With a mean over no counted target the loss is NaN.
///
///     auto loss = kt::nll_loss(kt::log_softmax(logits, 1), labels);
///     auto per_sample = kt::nll_loss(logp, labels, kt::NLLLossOptions().reduction(kt::Reduction::None));

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/impl/operand.hpp"
#include "kt/autograd/impl/autocast_dispatch.hpp"
#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/functional/impl/loss_checks.hpp"
#include "kt/tensor/impl/nll_loss_impl.hpp"
#include "kt/functional/reduction.hpp"
#include "kt/tensor/reduce.hpp"

#include <cstdint>
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
auto nll_loss(const L& log_probs_, const Tensor<T2, D2>& target, const NLLLossOptions& options = {}) -> impl::var_of_t<L> {
  using V = impl::var_of_t<L>;
  using T = typename V::value_type;
  using D = typename V::device_type;
  impl::require_targets<V, T2, D2>();
  KT_PROFILE_REGION("kt::nll_loss");
  const V log_probs = impl::as_var<V>(log_probs_);
  if (V result; impl::autocast_dispatch<impl::op_tag::Loss, T, D>(
          result, [&](const V& l) { return nll_loss(l, target, options); }, log_probs))
    return result;
  impl::check_class_targets("kt::nll_loss", log_probs, target);
  const Reduction reduction = options.reduction();
  Tensor<T, D> rows(Shape{log_probs.size(0)});
  impl::nll_loss_forward(log_probs.data(), target, options.ignore_index(), rows);
  // Reduced on the device (targets checked there too): no host wait.
  static const std::int64_t op = impl::DeviceErrorOps::id("kt::nll_loss");
  auto reduced = impl::reduce_class_loss(rows, target, log_probs.size(1), options.ignore_index(),
                                         reduction == Reduction::Mean, op);
  Tensor<T, D> out = reduction == Reduction::None ? rows : reduced.loss;
  Tensor<compute_t<T>, D> factor = reduction == Reduction::None ? Tensor<compute_t<T>, D>() : reduced.factor;
  return impl::record("kt::nll_loss", out, {log_probs},
                      [target, shape = log_probs.shape(), ignore = options.ignore_index(), factor](
                          const Tensor<T, D>& g, const impl::Needs&) {
                        return std::vector<Tensor<T, D>>{impl::nll_loss_backward(g, shape, target, ignore, factor)};
                      });
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
