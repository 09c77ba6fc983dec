#pragma once
/// \file kt/nn/loss.hpp
/// Loss modules (`torch.nn.MSELoss`, `CrossEntropyLoss`, `NLLLoss`): the functions of
/// kt/functional/ as objects holding their options, called like PyTorch's.
///
///     kt::nn::CrossEntropyLoss criterion(kt::CrossEntropyOptions().label_smoothing(0.1));
///     auto loss = criterion(model(x), labels);
///     kt::nn::MSELoss mse;
///     auto l2 = mse(prediction, target);

#include "kt/core/impl/public_begin.hpp"

#include "kt/functional/cross_entropy.hpp"
#include "kt/functional/mse_loss.hpp"
#include "kt/functional/nll_loss.hpp"

namespace kt::nn {

/// mean((input − target)²) (or sum / none, from its options).
class MSELoss {
public:
  explicit MSELoss(const MSELossOptions& options = {}) : options_(options) {}
  template <class I, class G>
  auto operator()(const I& input, const G& target) const { return kt::mse_loss(input, target, options_); }
  const MSELossOptions& options() const { return options_; }

private:
  MSELossOptions options_;
};

/// Cross-entropy of logits against class indices.
class CrossEntropyLoss {
public:
  explicit CrossEntropyLoss(const CrossEntropyOptions& options = {}) : options_(options) {}
  template <class L, class Y>
  auto operator()(const L& logits, const Y& target) const { return kt::cross_entropy(logits, target, options_); }
  const CrossEntropyOptions& options() const { return options_; }

private:
  CrossEntropyOptions options_;
};

/// Negative log-likelihood of log-probabilities against class indices.
class NLLLoss {
public:
  explicit NLLLoss(const NLLLossOptions& options = {}) : options_(options) {}
  template <class L, class Y>
  auto operator()(const L& log_probs, const Y& target) const { return kt::nll_loss(log_probs, target, options_); }
  const NLLLossOptions& options() const { return options_; }

private:
  NLLLossOptions options_;
};

}  // namespace kt::nn

#include "kt/core/impl/public_end.hpp"
