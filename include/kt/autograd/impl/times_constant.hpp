#pragma once
// x × c for a tensor c that is not differentiated (dropout's mask, the GradScaler's scale):
// one node whose backward is g × c. No autocast dispatch: the caller has chosen the dtype.

#include "kt/core/impl/internal.hpp"

#include "kt/autograd/impl/node.hpp"
#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/tensor/elementwise.hpp"

#include <vector>

namespace kt::impl {

/// x × c, c broadcast to x's shape; records a node named `name` when x requires grad.
template <class T, class D>
Var<T, D> times_constant(const char* name, const Var<T, D>& x, const Tensor<T, D>& c) {
  return record(name, x.data() * c, {x}, [c](const Tensor<T, D>& g, const Needs&) {
    return std::vector<Tensor<T, D>>{g * c};
  });
}

}  // namespace kt::impl
