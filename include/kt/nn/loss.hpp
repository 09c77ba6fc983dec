#pragma once
/// \file kt/nn/loss.hpp
/// Loss functions (`torch.nn.functional`): `mse_loss`, `cross_entropy` (class-index targets,
/// fused log-softmax, optional label smoothing and ignore_index) and `nll_loss`, each with
/// `Reduction::Mean` (default), `Sum` or `None` (per-sample losses).
///
///     auto loss = kt::nn::cross_entropy(model(x), labels);     // labels: Tensor<int64_t, D> (N)
///     auto smooth = kt::nn::cross_entropy(logits, labels, kt::nn::CrossEntropyOptions().label_smoothing(0.1));
///     auto mse = kt::nn::mse_loss(prediction, target);

#include "kt/autograd/elementwise.hpp"
#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/reduce.hpp"
#include "kt/autograd/var.hpp"
#include "kt/nn/impl/cross_entropy_impl.hpp"
#include "kt/tensor/reduce.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kt::nn {

enum class Reduction { None, Mean, Sum };

/// Options of cross_entropy.
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
  std::int64_t ignore_ = -100;
};

/// Cross-entropy between logits (N, C) and class indices (N), through a numerically stable
/// fused log-softmax: one pass forward, one pass backward.
template <class T, class D>
Var<T, D> cross_entropy(const Var<T, D>& logits, const Tensor<std::int64_t, D>& target,
                        const CrossEntropyOptions& options = {}) {
  KT_PROFILE_REGION("kt::nn::cross_entropy");
  kt::impl::require_defined("kt::nn::cross_entropy", {logits});
  KT_REQUIRE(logits.rank() == 2, "kt::nn::cross_entropy: expected logits of shape (N, C), got ",
             logits.shape().str());
  KT_REQUIRE(target.defined() && target.shape() == Shape{logits.size(0)},
             "kt::nn::cross_entropy: expected targets of shape (", logits.size(0), ") for logits ",
             logits.shape().str(), ", got ", target.defined() ? target.shape().str() : std::string("undefined"));
  KT_REQUIRE(options.label_smoothing() >= 0 && options.label_smoothing() <= 1,
             "kt::nn::cross_entropy: label_smoothing must be in [0, 1], got ", options.label_smoothing());
  const std::int64_t classes = logits.size(1);
  std::int64_t first_bad = -1;
  const auto [bad, ignored] = impl::check_targets(target, classes, options.ignore_index(), first_bad);
  KT_REQUIRE(bad == 0, "kt::nn::cross_entropy: ", bad, " targets are outside [0, ", classes, "), the first at index ",
             first_bad, " (value ", first_bad >= 0 ? target.to_vector()[static_cast<std::size_t>(first_bad)] : 0, ")");
  const std::int64_t counted = logits.size(0) - ignored;
  const Reduction reduction = options.reduction();
  // The mean's 1/count is folded into the per-row losses (NaN for no counted rows, as in PyTorch).
  const double scale = reduction == Reduction::Mean ? 1.0 / static_cast<double>(counted) : 1.0;
  Tensor<T, D> rows(Shape{logits.size(0)});
  Tensor<compute_t<T>, D> lse(Shape{logits.size(0)});
  impl::cross_entropy_forward(logits.data(), target, options.label_smoothing(), options.ignore_index(), scale, rows, lse);
  Tensor<T, D> out = reduction == Reduction::None ? rows : sum(rows);
  return kt::impl::record("kt::nn::cross_entropy", out, {logits},
                          [x = logits.data(), target, lse, options, scale](const Tensor<T, D>& g, const kt::impl::Needs&) {
                            return std::vector<Tensor<T, D>>{impl::cross_entropy_backward(
                                g, x, target, lse, options.label_smoothing(), options.ignore_index(), scale)};
                          });
}

/// Negative log-likelihood of log-probabilities (N, C) at class indices (N): −x[i, t_i].
template <class T, class D>
Var<T, D> nll_loss(const Var<T, D>& log_probs, const Tensor<std::int64_t, D>& target,
                   Reduction reduction = Reduction::Mean) {
  KT_PROFILE_REGION("kt::nn::nll_loss");
  kt::impl::require_defined("kt::nn::nll_loss", {log_probs});
  KT_REQUIRE(log_probs.rank() == 2 && target.defined() && target.shape() == Shape{log_probs.size(0)},
             "kt::nn::nll_loss: expected log-probabilities (N, C) and targets (N), got ", log_probs.shape().str(),
             " and ", target.defined() ? target.shape().str() : std::string("undefined"));
  const std::int64_t n = log_probs.size(0), classes = log_probs.size(1);
  std::int64_t first_bad = -1;
  const auto [bad, ignored] = impl::check_targets(target, classes, -100, first_bad);
  KT_REQUIRE(bad == 0, "kt::nn::nll_loss: ", bad, " targets are outside [0, ", classes, "), the first at index ", first_bad);
  const double scale = reduction == Reduction::Mean ? 1.0 / static_cast<double>(n - ignored) : 1.0;
  Tensor<T, D> rows(Shape{n});
  {
    const auto x = log_probs.data().view();
    const auto t = target.view();
    const auto l = rows.view();
    using C = compute_t<T>;
    const C sc = static_cast<C>(scale);
    kt::impl::parallel_for<D>("kt::nn::nll_loss::forward", n, KOKKOS_LAMBDA(std::int64_t i) {
      const std::int64_t c = t(i);
      l(i) = c == -100 ? T(0) : static_cast<T>(-sc * static_cast<C>(x(i * classes + c)));
    });
  }
  Tensor<T, D> out = reduction == Reduction::None ? rows : sum(rows);
  return kt::impl::record("kt::nn::nll_loss", out, {log_probs},
                          [target, shape = log_probs.shape(), scale](const Tensor<T, D>& grad, const kt::impl::Needs&) {
                            Tensor<T, D> dx = zeros<T, D>(shape);
                            const auto g = grad.view();
                            const auto t = target.view();
                            const auto out = dx.view();
                            const bool per_row = grad.rank() == 1;
                            const std::int64_t classes = shape[1];
                            using C = compute_t<T>;
                            const C sc = static_cast<C>(scale);
                            kt::impl::parallel_for<D>("kt::nn::nll_loss::backward", static_cast<std::int64_t>(t.extent(0)),
                                                 KOKKOS_LAMBDA(std::int64_t i) {
                                                   const std::int64_t c = t(i);
                                                   if (c != -100)
                                                     out(i * classes + c) = static_cast<T>(-sc * static_cast<C>(g(per_row ? i : 0)));
                                                 });
                            return std::vector<Tensor<T, D>>{dx};
                          });
}

/// Mean (or summed, or per-element) squared error; input and target of one shape.
template <class T, class D>
Var<T, D> mse_loss(const Var<T, D>& input, const Var<T, D>& target, Reduction reduction = Reduction::Mean) {
  KT_PROFILE_REGION("kt::nn::mse_loss");
  kt::impl::require_defined("kt::nn::mse_loss", {input, target});
  KT_REQUIRE(input.shape() == target.shape(), "kt::nn::mse_loss: input ", input.shape().str(), " and target ",
             target.shape().str(), " differ in shape");
  const Var<T, D> diff = input - target;
  const Var<T, D> squared = diff * diff;
  if (reduction == Reduction::None) return squared;
  return reduction == Reduction::Sum ? kt::sum(squared) : kt::mean(squared);
}

}  // namespace kt::nn
