#pragma once
// The checks shared by the class-index losses (cross_entropy, nll_loss).

#include "kt/autograd/var.hpp"
#include "kt/core/error.hpp"
#include "kt/functional/impl/cross_entropy_kernels.hpp"
#include "kt/tensor/impl/same_device.hpp"
#include "kt/tensor/tensor.hpp"

#include <cstdint>
#include <string>
#include <type_traits>

namespace kt::impl {

/// Targets are int64 class indices on the scores' device.
template <class V, class T2, class D2>
constexpr void require_targets() {
  require_same_device<typename V::device_type, D2>();
  static_assert(std::is_same_v<T2, std::int64_t>,
                "kt: class-index targets must be a Tensor<std::int64_t, D> (convert with .to<std::int64_t>())");
}

/// Scores (N, C) against targets (N) in [0, C) or ignore_index; returns the number of counted
/// (not ignored) targets. kt::Error naming the first bad target otherwise.
template <class T, class D>
std::int64_t check_class_targets(const char* op, const Var<T, D>& scores, const Tensor<std::int64_t, D>& target,
                                 std::int64_t ignore_index) {
  KT_REQUIRE(scores.defined(), op, ": the input Var is undefined");
  KT_REQUIRE(scores.rank() == 2, op, ": expected scores of shape (N, C), got ", scores.shape().str());
  KT_REQUIRE(target.defined() && target.shape() == Shape{scores.size(0)}, op, ": expected targets of shape (",
             scores.size(0), ") for scores ", scores.shape().str(), ", got ",
             target.defined() ? target.shape().str() : std::string("undefined"));
  const std::int64_t classes = scores.size(1);
  std::int64_t first_bad = -1;
  const auto [bad, ignored] = count_targets(target, classes, ignore_index, first_bad);
  KT_REQUIRE(bad == 0, op, ": ", bad, " targets are outside [0, ", classes, "), the first at index ", first_bad,
             " (value ", first_bad >= 0 ? target.to_vector()[static_cast<std::size_t>(first_bad)] : 0, ")");
  return scores.size(0) - ignored;
}

}  // namespace kt::impl
