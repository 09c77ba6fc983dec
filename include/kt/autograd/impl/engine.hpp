#pragma once
// Reverse-mode sweep over a recorded graph: order the nodes reachable from the root so that
// every node runs after all nodes that consume its output, then propagate gradients.

#include "kt/autograd/grad_mode.hpp"
#include "kt/autograd/impl/node.hpp"
#include "kt/core/profiling.hpp"
#include "kt/tensor/elementwise.hpp"

#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace kt::impl {

/// The non-leaf variables reachable from `root` through grad_fn, consumers before producers.
template <class T, class D>
std::vector<VarImpl<T, D>*> backward_order(VarImpl<T, D>* root) {
  std::vector<VarImpl<T, D>*> post_order;
  std::unordered_set<VarImpl<T, D>*> visited{root};
  // Iterative depth-first search (deep graphs must not overflow the stack).
  std::vector<std::pair<VarImpl<T, D>*, std::size_t>> stack{{root, 0}};
  while (!stack.empty()) {
    auto& [var, next] = stack.back();
    const auto& inputs = var->grad_fn->inputs;
    if (next < inputs.size()) {
      VarImpl<T, D>* input = inputs[next++].get();
      if (input->grad_fn && input->requires_grad && visited.insert(input).second)
        stack.emplace_back(input, 0);
    } else {
      post_order.push_back(var);
      stack.pop_back();
    }
  }
  return {post_order.rbegin(), post_order.rend()};
}

/// Adds `grad` to a leaf's .grad. The first gradient is adopted when nothing else refers to
/// its storage, otherwise copied: .grad is later accumulated in place and must not alias.
template <class T, class D>
void accumulate_leaf_grad(VarImpl<T, D>& leaf, Tensor<T, D> grad) {
  if (!leaf.grad.defined()) {
    leaf.grad = (grad.storage() && grad.storage().use_count() == 1 && grad.storage_offset() == 0 &&
                 grad.numel() > 0)
                    ? std::move(grad)
                    : grad.clone();
  } else {
    leaf.grad += grad;
  }
}

/// Runs backward from `root` seeded with `seed` (same shape as root's value).
template <class T, class D>
void run_backward(const std::shared_ptr<VarImpl<T, D>>& root, const Tensor<T, D>& seed) {
  KT_PROFILE_REGION("kt::autograd::backward");
  KT_REQUIRE(root->requires_grad, "kt::Var::backward: the tensor does not require grad and has "
                                  "no grad_fn (was it computed under kt::NoGradGuard, or from "
                                  "inputs that do not require grad?)");
  KT_REQUIRE(seed.shape() == root->value.shape(), "kt::Var::backward: the gradient has shape ",
             seed.shape().str(), " but the tensor has shape ", root->value.shape().str());
  if (!root->grad_fn) {  // backward() on a leaf: its gradient is the seed
    accumulate_leaf_grad(*root, seed);
    return;
  }
  // Gradient computations are not themselves recorded (no double backward).
  AutoGradMode no_grad(false);
  std::unordered_map<VarImpl<T, D>*, Tensor<T, D>> pending{{root.get(), seed}};
  for (VarImpl<T, D>* var : backward_order(root.get())) {
    auto found = pending.find(var);
    if (found == pending.end()) continue;  // no gradient flowed here
    const Tensor<T, D> grad = std::move(found->second);
    pending.erase(found);
    Node<T, D>& node = *var->grad_fn;
    KT_REQUIRE(!node.released(), "kt::Var::backward: the graph through ", node.name,
               " was already freed by an earlier backward(); run the forward pass again (kt "
               "does not keep graphs for a second backward)");
    std::vector<bool> needs;
    for (const auto& input : node.inputs) needs.push_back(input->requires_grad);
    std::vector<Tensor<T, D>> grads = node.apply(grad, Needs(needs));
    KT_REQUIRE(grads.size() == node.inputs.size(), "kt::Var::backward: ", node.name, " returned ",
               grads.size(), " gradients for ", node.inputs.size(), " inputs");
    for (std::size_t i = 0; i < grads.size(); ++i) {
      VarImpl<T, D>& input = *node.inputs[i];
      if (!input.requires_grad || !grads[i].defined()) continue;
      KT_REQUIRE(grads[i].shape() == input.value.shape(), "kt::Var::backward: ", node.name,
                 " returned a gradient of shape ", grads[i].shape().str(), " for input ", i,
                 " of shape ", input.value.shape().str());
      if (!input.grad_fn) {
        accumulate_leaf_grad(input, std::move(grads[i]));
      } else {
        auto slot = pending.find(&input);
        if (slot == pending.end()) pending.emplace(&input, std::move(grads[i]));
        else slot->second = slot->second + grads[i];
      }
    }
    node.release();
  }
}

}  // namespace kt::impl
