#pragma once
// The run-time checks of kt::copy (kt/tensor/transfer.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"
#include "kt/tensor/tensor.hpp"

namespace kt::impl {

template <class T1, class D1, class T2, class D2>
void check_copy(const Tensor<T1, D1>& dst, const Tensor<T2, D2>& src, const char* op) {
  KT_REQUIRE(dst.defined() && src.defined(), op, ": ", dst.defined() ? "src" : "dst", " is an undefined tensor");
  KT_REQUIRE(dst.shape() == src.shape(), op, ": shapes differ: dst ", dst.shape().str(), ", src ", src.shape().str());
}

}  // namespace kt::impl
