#pragma once
// The nodes whose inputs have their own dtypes, other than the output's: a dtype cast
// (`x.to(bf16)`, PyTorch's ToCopyBackward), and the Linear of an autocast region, whose 16-bit
// product hands the fp32 master weight and bias their gradients in fp32. The inputs are a fixed
// list, each a Var of its own dtype; the ops of one dtype with any number of inputs record
// through kt/autograd/impl/record.hpp.

#include "kt/core/impl/internal.hpp"

#include "kt/autograd/grad_mode.hpp"
#include "kt/autograd/impl/node.hpp"
#include "kt/autograd/impl/var_access.hpp"

#include <cstddef>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

namespace kt::impl {

/// A node with inputs of dtypes Ts... and an output of dtype U: `backward(grad_output, needs)`
/// returns a std::tuple of one gradient per input, each in its input's dtype (undefined where
/// not needed). An input whose state is null (an undefined Var: no bias) takes no part.
template <class U, class D, class Backward, class... Ts>
struct MixedFunctionNode final : NodeBase {
  MixedFunctionNode(Backward backward, std::shared_ptr<VarImpl<Ts, D>>... inputs)
      : backward_(std::move(backward)), inputs_(std::move(inputs)...) {}

  void propagate(VarImplBase& output) override {
    auto& out = static_cast<VarImpl<U, D>&>(output);
    const Tensor<U, D> grad = std::move(out.pending);
    out.pending = Tensor<U, D>();
    const auto needs = std::apply([](const auto&... in) { return Needs({(in && in->requires_grad)...}); }, inputs_);
    deliver_each((*backward_)(grad, needs), std::index_sequence_for<Ts...>());
  }
  void release() override {
    backward_.reset();
    released_ = true;
  }

protected:
  void list_inputs(std::vector<VarImplBase*>& out) const override {
    out.reserve(sizeof...(Ts));
    std::apply([&](const auto&... in) { ((in ? out.push_back(in.get()) : void()), ...); }, inputs_);
  }

private:
  template <class Grads, std::size_t... I>
  void deliver_each(Grads grads, std::index_sequence<I...>) {
    ((std::get<I>(inputs_) ? deliver(*std::get<I>(inputs_), std::move(std::get<I>(grads)), name, I) : void()), ...);
  }

  std::optional<Backward> backward_;
  std::tuple<std::shared_ptr<VarImpl<Ts, D>>...> inputs_;
};

/// Whether an op on `inputs` records a node: grad mode is on and a defined input requires grad.
template <class D, class... Ts>
bool should_record_any(const Var<Ts, D>&... inputs) {
  return GradMode::is_enabled() && ((VarAccess::state(inputs) && VarAccess::state(inputs)->requires_grad) || ...);
}

/// Wraps `out` as the op's result; records a MixedFunctionNode calling `backward` when
/// should_record_any(inputs...). Undefined inputs take no part.
template <class U, class D, class Backward, class... Ts>
Var<U, D> record_mixed(const char* name, Tensor<U, D> out, Backward backward, const Var<Ts, D>&... inputs) {
  auto state = std::make_shared<VarImpl<U, D>>();
  state->shape = out.shape();
  if (should_record_any(inputs...)) {
    auto node = std::make_shared<MixedFunctionNode<U, D, Backward, Ts...>>(std::move(backward), VarAccess::state(inputs)...);
    node->name = name;
    node->output_shape = out.shape();
    state->requires_grad = true;
    state->grad_fn = std::move(node);
  }
  return VarAccess::make(std::move(out), std::move(state));
}

/// `x` converted to dtype U, differentiable: the gradient flows back converted to T, so fp32
/// master weights cast to 16 bits for the forward receive fp32 gradients.
template <class U, class T, class D>
Var<U, D> cast_var(const Var<T, D>& x) {
  KT_REQUIRE(VarAccess::state(x) != nullptr, "kt::Var::to: the Var is undefined (default-constructed)");
  return record_mixed(
      "kt::Var::to", x.data().template to<U>(D()),
      [](const Tensor<U, D>& grad, const Needs&) { return std::make_tuple(grad.template to<T>(D())); }, x);
}

}  // namespace kt::impl
