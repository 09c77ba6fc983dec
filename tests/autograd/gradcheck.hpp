#pragma once
// gradcheck: compares the gradients autograd computes with central finite differences, in
// double precision, for every element of every input.

#include "kt_test.hpp"

#include <kt/autograd/ops.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace kt_test {

/// Reduces a Var of any shape to a scalar with fixed pseudo-random weights, so every output
/// element's gradient path is exercised (a plain sum would hide sign errors that cancel).
template <class D>
kt::Var<double, D> weighted_sum(const kt::Var<double, D>& out) {
  if (out.numel() == 1) return kt::sum(out);
  const auto weights = kt::rand<double, D>(out.shape(), /*seed=*/12345, 0.5, 1.5);
  return kt::sum(out * kt::Var<double, D>(weights));
}

/// Checks d f / d inputs[i] for every i against (f(x + eps) - f(x - eps)) / (2 eps).
template <class D>
bool gradcheck(const std::function<kt::Var<double, D>(const std::vector<kt::Var<double, D>>&)>& f,
               const std::vector<kt::Tensor<double, D>>& inputs, double eps = 1e-6, double atol = 1e-7,
               double rtol = 1e-5) {
  std::vector<kt::Var<double, D>> vars;
  for (const auto& t : inputs) vars.emplace_back(t.clone(), true);
  weighted_sum(f(vars)).backward();
  auto loss_at = [&](std::size_t which, std::size_t element, double delta) {
    kt::NoGradGuard no_grad;
    std::vector<kt::Var<double, D>> moved;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (i != which) {
        moved.emplace_back(inputs[i]);
        continue;
      }
      auto values = inputs[i].to_vector();
      values[element] += delta;
      moved.emplace_back(kt::from_host<double, D>(values, inputs[i].shape()));
    }
    return weighted_sum(f(moved)).item();
  };
  bool ok = true;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto& grad = vars[i].grad();
    if (!grad.defined()) {
      MESSAGE("input ", i, ": no gradient was computed");
      return false;
    }
    const auto analytic = grad.to_vector();
    for (std::size_t e = 0; e < analytic.size(); ++e) {
      const double numeric = (loss_at(i, e, eps) - loss_at(i, e, -eps)) / (2 * eps);
      if (!(std::abs(analytic[e] - numeric) <= atol + rtol * std::abs(numeric))) {
        MESSAGE("input ", i, " element ", e, ": autograd ", analytic[e], ", finite difference ", numeric);
        ok = false;
      }
    }
  }
  return ok;
}

}  // namespace kt_test
