#pragma once
// The one place kt::amp::autocast acts on an op. Every differentiable op starts with
//
//     if (V result; impl::autocast_dispatch<Op, T, D>(result, f, operands...)) return result;
//
// where Op is its functor (kt/tensor/impl/ops.hpp) or its tag below and f runs the op itself
// on transformed operands. The dispatch reads the policy Op declares (kt/core/impl/autocast_policy.hpp)
// and, inside a region, either produces the result (true) or lets the op run as written in fp32
// (false). An op whose Op declares no policy does not compile; tests/amp/test_autocast.cpp
// checks every public op's dtype against PyTorch's lists, and scripts/check_autocast_ops.py
// that no public op is missing from that test.

#include "kt/core/impl/internal.hpp"

#include "kt/autograd/impl/autocast_cast.hpp"
#include "kt/autograd/impl/autocast_twin.hpp"
#include "kt/autograd/impl/operand.hpp"
#include "kt/autograd/impl/var_access.hpp"
#include "kt/autograd/var.hpp"
#include "kt/core/impl/autocast_policy.hpp"

#include <type_traits>

namespace kt::impl {

/// The policies of the ops that have no functor, one line each.
namespace op_tag {
/// A tag's policy and its two optional flags: `casts_own_operands` (a LowerPrecision op that is
/// handed the fp32 operands and the 16-bit dtype), `composite` (an Fp32 op built of other ops,
/// which must not see its operands' twins: the dispatch runs it once more without them).
template <AutocastPolicy P, bool CastsOwnOperands = false, bool Composite = false>
struct Declares {
  static constexpr AutocastPolicy autocast = P;
  static constexpr bool casts_own_operands = CastsOwnOperands, composite = Composite;
};
struct Matmul : Declares<AutocastPolicy::LowerPrecision> {};
/// Casts its own operands: its node hands the fp32 master weight its gradient straight from a
/// GEMM with fp32 output, unrounded (kt/functional/impl/linear_node.hpp).
struct Linear : Declares<AutocastPolicy::LowerPrecision, /*CastsOwnOperands=*/true> {};
struct Reshape : Declares<AutocastPolicy::Promote> {};
struct Flatten : Declares<AutocastPolicy::Promote> {};
struct Slice : Declares<AutocastPolicy::Promote> {};
struct Select : Declares<AutocastPolicy::Promote> {};
struct Permute : Declares<AutocastPolicy::Promote> {};
struct Transpose : Declares<AutocastPolicy::Promote> {};
struct Dropout : Declares<AutocastPolicy::Promote> {};
/// max and min reductions give fp32 where PyTorch keeps the input's dtype (the same values).
struct Reduction : Declares<AutocastPolicy::Fp32> {};
struct Softmax : Declares<AutocastPolicy::Fp32> {};
struct LayerNorm : Declares<AutocastPolicy::Fp32> {};
struct Loss : Declares<AutocastPolicy::Fp32> {};
/// (input − target)² reduced, written with sub, mul and mean.
struct MseLoss : Declares<AutocastPolicy::Fp32, false, /*Composite=*/true> {};
}  // namespace op_tag

/// Op's flags: a tag's (op_tag::Declares), none for a functor of kt/tensor/impl/ops.hpp.
template <class Op, class = void>
struct autocast_flags : op_tag::Declares<AutocastPolicy::Promote> {};
template <class Op>
struct autocast_flags<Op, std::void_t<decltype(Op::composite)>> : Op {};

/// x with its twin dropped (a Var<float>), or x itself.
template <class X>
X without_twin(const X& x) {
  if constexpr (is_var_v<X>) {
    X out = x;
    VarAccess::set_twin(out, nullptr);
    return out;
  } else {
    return x;
  }
}

/// Whether x is a Var that carries a twin.
template <class X>
bool has_any_twin(const X& x) {
  if constexpr (is_var_v<X>) return x.defined() && VarAccess::twin(x) != nullptr;
  else return false;
}

/// x cast to the region's 16-bit dtype H when it is a Var<float, D> (cached for parameters:
/// kt/autograd/impl/autocast_cast.hpp), else x itself.
template <class H, class D, class X>
auto lowered(const X& x) {
  if constexpr (std::is_same_v<X, Var<float, D>>) return autocast_cast<H>(x);
  else return x;
}

/// Applies Op's autocast policy to the op `f` on `xs` (see the top of this file). T and D are
/// the op's dtype and device; only float ops are affected.
template <class Op, class T, class D, class Result, class F, class... Xs>
bool autocast_dispatch(Result& result, const F& f, const Xs&... xs) {
  static_assert(has_autocast_policy<Op>::value,
                "kt: this op declares no autocast policy: give its functor or tag a member "
                "`static constexpr kt::impl::AutocastPolicy autocast` (kt/core/impl/autocast_policy.hpp)");
  constexpr AutocastPolicy policy = Op::autocast;
  if constexpr (policy == AutocastPolicy::Promote) {
    return run_on_twins<T, D>(result, f, xs...);
  } else if constexpr (policy == AutocastPolicy::Fp32) {
    // The op reads the fp32 values as written; only a composite op must not let its inner ops
    // continue from the operands' twins, so it runs once more without them.
    if constexpr (!autocast_flags<Op>::composite) {
      return false;
    } else {
      return in_autocast_region<T, D>([&](auto) {
        if (!(has_any_twin(xs) || ...)) return false;
        result = f(without_twin(xs)...);
        return true;
      });
    }
  } else {
    return in_autocast_region<T, D>([&](auto tag) {
      using H = decltype(tag);
      if constexpr (autocast_flags<Op>::casts_own_operands) result = f(tag, xs...);
      else result = widen_with_twin(f(lowered<H, D>(xs)...));
      return true;
    });
  }
}

}  // namespace kt::impl
