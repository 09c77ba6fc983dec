#pragma once
// The one node whose input has another dtype than its output: a dtype cast (`x.to(bf16)`).
// Its backward casts the gradient back to the input's dtype (PyTorch's ToCopyBackward): with
// fp32 master weights cast to 16 bits for the forward, the weights' gradients arrive in fp32.

#include "kt/core/impl/internal.hpp"

#include "kt/autograd/grad_mode.hpp"
#include "kt/autograd/impl/node.hpp"
#include "kt/autograd/impl/var_access.hpp"

#include <memory>
#include <vector>

namespace kt::impl {

template <class U, class T, class D>
struct CastNode final : NodeBase {
  std::vector<VarImplBase*> input_states() const override { return {input.get()}; }
  void propagate(VarImplBase& output) override {
    auto& out = static_cast<VarImpl<U, D>&>(output);
    const Tensor<U, D> grad = std::move(out.pending);
    out.pending = Tensor<U, D>();
    deliver(*input, grad.template to<T>(D()), name, 0);  // ordered on D's default instance
  }
  void release() override { released_ = true; }  // saves nothing

  std::shared_ptr<VarImpl<T, D>> input;
};

/// `x` converted to dtype U, differentiable: the gradient flows back converted to T.
template <class U, class T, class D>
Var<U, D> cast_var(const Var<T, D>& x) {
  const auto& in = VarAccess::state(x);
  KT_REQUIRE(in != nullptr, "kt::Var::to: the Var is undefined (default-constructed)");
  const Tensor<U, D> value = x.data().template to<U>(D());
  Var<U, D> out(value);
  if (GradMode::is_enabled() && in->requires_grad) {
    auto node = std::make_shared<CastNode<U, T, D>>();
    node->name = "kt::Var::to";
    node->output_shape = value.shape();
    node->input = in;
    const auto& state = VarAccess::state(out);
    state->requires_grad = true;
    state->grad_fn = std::move(node);
  }
  return out;
}

}  // namespace kt::impl
