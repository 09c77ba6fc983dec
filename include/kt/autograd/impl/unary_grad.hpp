#pragma once
// The one implementation of every differentiable unary elementwise op: the value is the
// tensor functor's (kt/tensor/impl/ops.hpp), the gradient its grad(g, x, y) in one kernel.
// The input is kept for backward only when the derivative reads it (Op::uses_input).

#include "kt/core/impl/internal.hpp"

#include "kt/autograd/impl/autocast_dispatch.hpp"
#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/tensor/impl/binary.hpp"
#include "kt/tensor/impl/map.hpp"

#include <vector>

namespace kt::impl {

template <class Op, class T, class D>
Var<T, D> var_unary(const char* name, const Var<T, D>& a, Op f = Op{}) {
  require_defined(name, {a});
  if (Var<T, D> result; autocast_dispatch<Op, T, D>(result, [&](const auto& t) { return var_unary<Op>(name, t, f); }, a))
    return result;
  Tensor<T, D> out = unary(name, D(), a.data(), f);
  const Tensor<T, D> input = Op::uses_input ? a.data() : out;
  return record(name, out, {a}, [input, out, f, name](const Tensor<T, D>& g, const Needs&) {
    return std::vector<Tensor<T, D>>{grad_map(name, g, input, out, UnaryGrad<Op>{f})};
  });
}

}  // namespace kt::impl
