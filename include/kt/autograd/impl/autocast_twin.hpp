#pragma once
// How kt::amp::autocast keeps PyTorch's dtypes with kt's static types. In PyTorch, `linear`
// under autocast returns a bfloat16 tensor, and the ops after it (relu, add, dropout, ...) run
// in bfloat16 too, while those on its fp32 list (exp, log, pow, softmax, layer_norm, sum, the
// losses) run in fp32. A kt op keeps its dtype, so an autocast op returns a Var<float> — the
// exact widening of its 16-bit result — that carries the 16-bit Var as its *twin*. Ops later in
// the region whose PyTorch counterparts run in the input's dtype continue from the twins in 16
// bits (and save 16-bit values for backward); fp32-list ops read the fp32 value, as PyTorch
// widens. So a result's "autocast dtype" (kt::amp::autocast_dtype) is what PyTorch's .dtype
// would be, and the values are bit-identical to the same ops written out with Var::to<>().
//
// A twin assumes the fp32 value is not modified in place (kt's ops never do). Outside an
// autocast region twins are ignored: ops run in fp32.

#include "kt/core/impl/internal.hpp"

#include "kt/autograd/impl/var_access.hpp"
#include "kt/autograd/var.hpp"
#include "kt/core/bfloat16.hpp"
#include "kt/core/half.hpp"
#include "kt/core/impl/autocast_state.hpp"
#include "kt/tensor/impl/binary.hpp"

#include <memory>
#include <type_traits>

namespace kt::impl {

struct AutocastTwinBase {
  virtual ~AutocastTwinBase() = default;
  AutocastDtype dtype = AutocastDtype::None;
};

template <class H, class D>
struct AutocastTwin final : AutocastTwinBase {
  Var<H, D> var;
};

/// The AutocastDtype of a 16-bit dtype H.
template <class H>
inline constexpr AutocastDtype autocast_dtype_of_v =
    std::is_same_v<H, half> ? AutocastDtype::Half : std::is_same_v<H, bfloat16> ? AutocastDtype::BFloat16
                                                                               : AutocastDtype::None;

/// The 16-bit twin of dtype H that `v` carries, or an undefined Var.
template <class H, class T, class D>
Var<H, D> twin_of(const Var<T, D>& v) {
  const auto& twin = VarAccess::twin(v);
  if (!twin || twin->dtype != autocast_dtype_of_v<H>) return Var<H, D>();
  return static_cast<const AutocastTwin<H, D>&>(*twin).var;
}

/// What an autocast op returns for its 16-bit result `h`: h widened to fp32 (differentiably),
/// carrying h as its twin.
template <class H, class D>
Var<float, D> widen_with_twin(const Var<H, D>& h) {
  Var<float, D> out = h.template to<float>();
  auto twin = std::make_shared<AutocastTwin<H, D>>();
  twin->dtype = autocast_dtype_of_v<H>;
  twin->var = h;
  VarAccess::set_twin(out, std::move(twin));
  return out;
}

/// Calls f(tag) with tag's type the region's 16-bit dtype when autocast is on for device D and
/// the op's dtype T is float; returns f's answer (whether it ran the op), false otherwise. With
/// autocast not compiled in (KT_ENABLE_AUTOCAST undefined) f is never instantiated.
template <class T, class D, class F>
bool in_autocast_region(F&& f) {
  if constexpr (!std::is_same_v<T, float> || !autocast_compiled) {
    return false;
  } else {
    switch (autocast_state<D>().dtype) {
      case AutocastDtype::None: return false;
      case AutocastDtype::Half: return f(half{});
      case AutocastDtype::BFloat16: return f(bfloat16{});
    }
    return false;
  }
}

/// For ops that PyTorch runs in their inputs' dtype: inside an autocast region, when every Var
/// operand carries a twin of the region's dtype, `result = widen_with_twin(op(twins...))` and
/// true; otherwise false (the op runs in fp32: a plain fp32 operand, a Tensor included, is the
/// widest). `op` takes the operands with each Var replaced by its twin; scalars pass as they are.
template <class T, class D, class Result, class Op, class... Xs>
bool run_on_twins(Result& result, const Op& op, const Xs&... xs) {
  if constexpr ((is_tensor_v<Xs> || ...)) {
    return false;
  } else {
    return in_autocast_region<T, D>([&](auto tag) {
      using H = decltype(tag);
      const auto twin_or_self = [](const auto& x) {
        if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Var<float, D>>) return twin_of<H>(x);
        else return x;
      };
      const auto has_twin = [](const auto& x) {
        if constexpr (std::is_same_v<std::decay_t<decltype(x)>, Var<float, D>>) return twin_of<H>(x).defined();
        else return true;
      };
      if (!(has_twin(xs) && ...)) return false;
      result = widen_with_twin(op(twin_or_self(xs)...));
      return true;
    });
  }
}

}  // namespace kt::impl
