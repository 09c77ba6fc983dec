#pragma once
// The checks shared by the class-index losses (cross_entropy, nll_loss).

#include "kt/core/impl/internal.hpp"

#include "kt/autograd/var.hpp"
#include "kt/core/error.hpp"
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

/// Scores (N, C) against targets (N): shapes only. The values (in [0, C) or ignore_index) are
/// checked on the device by the loss's reduction (kt/tensor/impl/class_loss_reduce.hpp).
template <class T, class D>
void check_class_targets(const char* op, const Var<T, D>& scores, const Tensor<std::int64_t, D>& target) {
  KT_REQUIRE(scores.defined(), op, ": the input Var is undefined");
  KT_REQUIRE(scores.rank() == 2, op, ": expected scores of shape (N, C), got ", scores.shape().str());
  KT_REQUIRE(target.defined() && target.shape() == Shape{scores.size(0)}, op, ": expected targets of shape (",
             scores.size(0), ") for scores ", scores.shape().str(), ", got ",
             target.defined() ? target.shape().str() : std::string("undefined"));
}

}  // namespace kt::impl
