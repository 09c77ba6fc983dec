#pragma once
// The one implementation of every differentiable binary elementwise op (kt/autograd/
// elementwise.hpp): the value is the tensor op's, the gradient a rule below — each operand's
// gradient as a tensor expression of (g, x, y, out), where x and y are tensors or scalars —
// summed back to the operand's shape. A rule saves for backward only what its formulas read.

#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/internal.hpp"

#include "kt/autograd/impl/autocast_dispatch.hpp"
#include "kt/autograd/impl/operand.hpp"
#include "kt/autograd/impl/record.hpp"
#include "kt/tensor/elementwise.hpp"
#include "kt/tensor/factories.hpp"
#include "kt/tensor/impl/broadcast_grad.hpp"
#include "kt/tensor/impl/map.hpp"
#include "kt/tensor/unary.hpp"

#include <cmath>
#include <type_traits>
#include <vector>

namespace kt::impl {

/// log of a tensor or a scalar (PowGrad's d/db).
template <class X>
auto log_of(const X& x) {
  if constexpr (is_tensor_v<X>) return kt::log(x);
  else return std::log(static_cast<double>(x));
}

struct AddGrad {
  using Op = op::Add;
  static constexpr bool saves_inputs = false, saves_output = false;
  template <class G, class X, class Y, class O> static G left(const G& g, const X&, const Y&, const O&) { return g; }
  template <class G, class X, class Y, class O> static G right(const G& g, const X&, const Y&, const O&) { return g; }
};
struct SubGrad {
  using Op = op::Sub;
  static constexpr bool saves_inputs = false, saves_output = false;
  template <class G, class X, class Y, class O> static G left(const G& g, const X&, const Y&, const O&) { return g; }
  template <class G, class X, class Y, class O> static G right(const G& g, const X&, const Y&, const O&) { return -g; }
};
struct MulGrad {
  using Op = op::Mul;
  static constexpr bool saves_inputs = true, saves_output = false;
  template <class G, class X, class Y, class O> static G left(const G& g, const X&, const Y& y, const O&) { return g * y; }
  template <class G, class X, class Y, class O> static G right(const G& g, const X& x, const Y&, const O&) { return g * x; }
};
struct DivGrad {
  using Op = op::Div;
  static constexpr bool saves_inputs = true, saves_output = true;
  template <class G, class X, class Y, class O> static G left(const G& g, const X&, const Y& y, const O&) { return g / y; }
  /// -g a / b² = -(g · out) / b
  template <class G, class X, class Y, class O> static G right(const G& g, const X&, const Y& y, const O& out) {
    return -(g * out) / y;
  }
};
struct PowGrad {
  using Op = op::Pow;
  static constexpr bool saves_inputs = true, saves_output = true;
  template <class G, class X, class Y, class O> static G left(const G& g, const X& x, const Y& y, const O&) {
    return g * y * kt::pow(x, y - 1);
  }
  template <class G, class X, class Y, class O> static G right(const G& g, const X& x, const Y&, const O& out) {
    return g * out * log_of(x);
  }
};

/// d max(a, b) / da: the gradient goes to the larger operand, split evenly on ties (PyTorch).
template <bool IsMax>
struct ExtremeGradLeft {
  template <class C>
  KOKKOS_INLINE_FUNCTION C operator()(C g, C a, C b) const {
    const bool wins = IsMax ? a > b : a < b;
    return wins ? g : (a == b ? g / C(2) : C(0));
  }
};
/// The gradient of maximum / minimum: a map over the operands broadcast to g's shape (a
/// scalar operand becomes a rank-0 tensor).
template <bool IsMax>
struct ExtremeGrad {
  using Op = std::conditional_t<IsMax, op::Maximum, op::Minimum>;
  static constexpr bool saves_inputs = true, saves_output = false;
  template <class G, class X>
  static G full_like_g(const G& g, const X& x) {
    using T = typename G::value_type;
    using D = typename G::device_type;
    if constexpr (is_tensor_v<X>) return expand_to(x, g.shape());
    else return full<T, D>(g.shape(), static_cast<T>(x));
  }
  template <class G, class X, class Y, class O> static G left(const G& g, const X& x, const Y& y, const O&) {
    return grad_map("kt::maximum/minimum backward", g, full_like_g(g, x), full_like_g(g, y), ExtremeGradLeft<IsMax>{});
  }
  template <class G, class X, class Y, class O> static G right(const G& g, const X& x, const Y& y, const O&) {
    return grad_map("kt::maximum/minimum backward", g, full_like_g(g, y), full_like_g(g, x), ExtremeGradLeft<IsMax>{});
  }
};
using MaximumGrad = ExtremeGrad<true>;
using MinimumGrad = ExtremeGrad<false>;

/// What a binary node keeps: an operand's value when the rule reads it (else an undefined
/// tensor, or the scalar), its shape, and the output when the rule reads it.
template <class X>
X saved_value(const X& x, bool keep) {
  if constexpr (is_tensor_v<X>) return keep ? x : X();
  else return x;
}

/// a op b for operands of which at least one is a Var (others: Tensors or scalars). The
/// return type is spelled out so that kt_compiled's copies can be declared extern below (a
/// deduced one would be instantiated anyway, to learn it).
template <class Rule, class A, class B>
var_of_t<A, B> var_binary(const char* name, const A& a, const B& b) {
  using V = var_of_t<A, B>;
  using T = typename V::value_type;
  using D = typename V::device_type;
  require_compatible<V, A>();
  require_compatible<V, B>();
  if constexpr (!compatible_v<V, A> || !compatible_v<V, B>) {
    return V();  // unreachable: a static_assert above has failed
  } else {
    if constexpr (is_var_v<A>) require_defined(name, {a});
    if constexpr (is_var_v<B>) require_defined(name, {b});
    if (V result; autocast_dispatch<typename Rule::Op, T, D>(
            result, [&](const auto& x, const auto& y) { return var_binary<Rule>(name, x, y); }, a, b))
      return result;
    const auto& x = value_of(a);
    const auto& y = value_of(b);
    Tensor<T, D> out = binary<typename Rule::Op>(name, D(), x, y);
    std::vector<V> inputs;
    if constexpr (is_var_v<A>) inputs.push_back(a);
    if constexpr (is_var_v<B>) inputs.push_back(b);
    using X = std::decay_t<decltype(x)>;
    using Y = std::decay_t<decltype(y)>;
    Shape sx, sy;
    if constexpr (is_tensor_v<X>) sx = x.shape();
    if constexpr (is_tensor_v<Y>) sy = y.shape();
    return record(name, out, inputs,
                  [xs = saved_value(x, Rule::saves_inputs), ys = saved_value(y, Rule::saves_inputs),
                   os = Rule::saves_output ? out : Tensor<T, D>(), sx, sy](const Tensor<T, D>& g, const Needs& needs) {
                    std::vector<Tensor<T, D>> grads;
                    if constexpr (is_var_v<A>)
                      grads.push_back(needs[0] ? sum_to(Rule::left(g, xs, ys, os), sx) : Tensor<T, D>());
                    if constexpr (is_var_v<B>)
                      grads.push_back(needs[grads.size()] ? sum_to(Rule::right(g, xs, ys, os), sy) : Tensor<T, D>());
                    return grads;
                  });
  }
}

}  // namespace kt::impl

// kt_compiled (kt/core/impl/compiled.hpp): the four arithmetic ops between two fp32 or fp64
// Vars (a loss scaled by GradScaler, a sum of losses), with their autocast twins.
#define KT_ETI_VAR_BINARY_ONE(RULE, T, D, KW) \
  KW kt::Var<T, D> kt::impl::var_binary<kt::impl::RULE>(const char*, const kt::Var<T, D>&, const kt::Var<T, D>&);
#define KT_ETI_VAR_ARITHMETIC(T, D, KW)                                                       \
  KT_ETI_VAR_BINARY_ONE(AddGrad, T, D, KW) KT_ETI_VAR_BINARY_ONE(SubGrad, T, D, KW)           \
  KT_ETI_VAR_BINARY_ONE(MulGrad, T, D, KW) KT_ETI_VAR_BINARY_ONE(DivGrad, T, D, KW)
#define KT_ETI_VAR_BINARY_DEVICE(D, KW) KT_ETI_VAR_ARITHMETIC(float, D, KW) KT_ETI_VAR_ARITHMETIC(double, D, KW)
#define KT_ETI_VAR_BINARY(KW) KT_ETI_EACH_DEVICE(KT_ETI_VAR_BINARY_DEVICE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_AUTOGRAD)
KT_ETI_VAR_BINARY(extern template)
#endif
