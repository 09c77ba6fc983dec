#pragma once
/// \file kt/functional/cross_entropy.hpp
/// Cross-entropy between logits (N, C) and class indices (N) (`F.cross_entropy`), through a
/// numerically stable fused log-softmax: one pass forward, one pass backward, nothing of size
/// (N, C) kept but the logits. Options: reduction (mean, sum, none), label smoothing,
/// ignore_index. With a mean over no counted target the loss is NaN, as in PyTorch.
///
///     auto loss = kt::cross_entropy(model(x), labels);     // labels: Tensor<int64_t, D> (N)
///     auto smooth = kt::cross_entropy(logits, labels, kt::CrossEntropyOptions().label_smoothing(0.1));

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/impl/operand.hpp"
#include "kt/autograd/impl/autocast_dispatch.hpp"
#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/tensor/impl/cross_entropy_impl.hpp"
#include "kt/functional/impl/loss_checks.hpp"
#include "kt/functional/reduction.hpp"
#include "kt/tensor/reduce.hpp"

#include <cstdint>
#include <vector>

namespace kt {

/// Options of kt::cross_entropy.
class CrossEntropyOptions {
public:
  CrossEntropyOptions& reduction(Reduction r) { reduction_ = r; return *this; }
  /// ε in [0, 1]: the target is (1 − ε) one-hot + ε / C uniform (Szegedy et al. 2016).
  CrossEntropyOptions& label_smoothing(double eps) { smoothing_ = eps; return *this; }
  /// Targets equal to this contribute nothing (and are not counted by the mean).
  CrossEntropyOptions& ignore_index(std::int64_t index) { ignore_ = index; return *this; }
  Reduction reduction() const { return reduction_; }
  double label_smoothing() const { return smoothing_; }
  std::int64_t ignore_index() const { return ignore_; }

private:
  Reduction reduction_ = Reduction::Mean;
  double smoothing_ = 0;
  std::int64_t ignore_ = default_ignore_index;
};

/// The loss of logits (a Var, or a Tensor for evaluation) against class indices.
template <class L, class T2, class D2, impl::var_operands_t<L> = 0>
auto cross_entropy(const L& logits_, const Tensor<T2, D2>& target, const CrossEntropyOptions& options = {})
    -> impl::var_of_t<L> {
  using V = impl::var_of_t<L>;
  using T = typename V::value_type;
  using D = typename V::device_type;
  impl::require_targets<V, T2, D2>();
  KT_PROFILE_REGION("kt::cross_entropy");
  const V logits = impl::as_var<V>(logits_);
  if (V result; impl::autocast_dispatch<impl::op_tag::Loss, T, D>(
          result, [&](const V& l) { return cross_entropy(l, target, options); }, logits))
    return result;
  KT_REQUIRE(options.label_smoothing() >= 0 && options.label_smoothing() <= 1,
             "kt::cross_entropy: label_smoothing must be in [0, 1], got ", options.label_smoothing());
  impl::check_class_targets("kt::cross_entropy", logits, target);
  const Reduction reduction = options.reduction();
  Tensor<T, D> rows(Shape{logits.size(0)});
  Tensor<compute_t<T>, D> lse(Shape{logits.size(0)});
  impl::cross_entropy_forward(logits.data(), target, options.label_smoothing(), options.ignore_index(), rows, lse);
  // Reduced on the device (targets checked there too): no host wait.
  static const std::int64_t op = impl::DeviceErrorOps::id("kt::cross_entropy");
  auto reduced = impl::reduce_class_loss(rows, target, logits.size(1), options.ignore_index(),
                                         reduction == Reduction::Mean, op);
  Tensor<T, D> out = reduction == Reduction::None ? rows : reduced.loss;
  Tensor<compute_t<T>, D> factor = reduction == Reduction::None ? Tensor<compute_t<T>, D>() : reduced.factor;
  return impl::record("kt::cross_entropy", out, {logits},
                      [x = logits.data(), target, lse, options, factor](const Tensor<T, D>& g, const impl::Needs&) {
                        return std::vector<Tensor<T, D>>{impl::cross_entropy_backward(
                            g, x, target, lse, options.label_smoothing(), options.ignore_index(), factor)};
                      });
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
