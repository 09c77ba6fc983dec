#pragma once
// How a differentiable op records itself: the output Var gets a node holding the inputs and
// the op's backward callable, unless grad mode is off or no input requires grad.

#include "kt/core/impl/internal.hpp"

#include "kt/autograd/grad_mode.hpp"
#include "kt/autograd/impl/node.hpp"
#include "kt/autograd/impl/var_access.hpp"
#include "kt/autograd/var.hpp"

#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

namespace kt::impl {

/// Whether an op on the inputs [first, last) records a node.
template <class T, class D>
bool should_record(const Var<T, D>* first, const Var<T, D>* last) {
  if (!GradMode::is_enabled()) return false;
  for (; first != last; ++first)
    if (first->requires_grad()) return true;
  return false;
}

/// Wraps `out` as the op's result; records a node calling `backward(grad_out, needs)` (which
/// returns one gradient per input, undefined where not needed) when any of the inputs
/// [first, last) requires grad.
template <class T, class D, class Backward>
Var<T, D> record(const char* name, Tensor<T, D> out, const Var<T, D>* first, const Var<T, D>* last,
                 Backward&& backward) {
  for (auto v = first; v != last; ++v) KT_REQUIRE(v->defined(), name, ": an input Var is undefined");
  if (!should_record(first, last)) return Var<T, D>(std::move(out));
  auto node = std::make_shared<FunctionNode<T, D, std::decay_t<Backward>>>(std::forward<Backward>(backward));
  node->name = name;
  node->output_shape = out.shape();
  for (auto v = first; v != last; ++v) node->inputs.push_back(VarAccess::state(*v));
  auto state = std::make_shared<VarImpl<T, D>>();
  state->shape = out.shape();
  state->requires_grad = true;
  state->grad_fn = std::move(node);
  return VarAccess::make(std::move(out), std::move(state));
}

/// record() for the inputs in a vector.
template <class T, class D, class Backward>
Var<T, D> record(const char* name, Tensor<T, D> out, const std::vector<Var<T, D>>& inputs, Backward&& backward) {
  return record(name, std::move(out), inputs.data(), inputs.data() + inputs.size(),
                std::forward<Backward>(backward));
}

/// record() for a fixed list of inputs: `record(name, out, {a, b}, backward)`.
template <class T, class D, class Backward>
Var<T, D> record(const char* name, Tensor<T, D> out, std::initializer_list<Var<T, D>> inputs,
                 Backward&& backward) {
  return record(name, std::move(out), inputs.begin(), inputs.end(), std::forward<Backward>(backward));
}

/// Checks that all Vars are defined (ops call it before touching values).
template <class T, class D>
void require_defined(const char* name, std::initializer_list<Var<T, D>> inputs) {
  for (const auto& v : inputs) KT_REQUIRE(v.defined(), name, ": an input Var is undefined");
}

}  // namespace kt::impl
