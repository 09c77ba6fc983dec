#pragma once
// Reverse-mode sweep over a recorded graph: order the nodes reachable from the root so that
// every node runs after all nodes that consume its output, then propagate gradients.

#include "kt/core/impl/internal.hpp"

#include "kt/autograd/grad_mode.hpp"
#include "kt/autograd/impl/node.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/core/profiling.hpp"
#include "kt/tensor/elementwise.hpp"

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kt::impl {

/// Clears the visited flags of `vars`.
inline void clear_visited(const std::vector<VarImplBase*>& vars) {
  for (VarImplBase* v : vars) v->visited = false;
}

/// The non-leaf variables reachable from `root` through their producers (of any dtype),
/// consumers before producers. The walk marks what it has reached with the variables' own
/// flags rather than a set of them (a hash set costs an allocation per variable, on every
/// step) and clears them before it returns or throws.
inline std::vector<VarImplBase*> backward_order(VarImplBase* root) {
  // Room for a small model's graph from the start, so that its walk does not grow these
  // vectors one element at a time.
  constexpr std::size_t room = 32;
  std::vector<VarImplBase*> post_order, path;
  post_order.reserve(room);
  path.reserve(room);
  path.push_back(root);
  root->visited = true;
  try {
    // Iterative depth-first search (deep graphs must not overflow the stack).
    std::vector<std::pair<const std::vector<VarImplBase*>*, std::size_t>> stack;
    stack.reserve(room);
    stack.emplace_back(&root->producer()->input_states(), 0);
    while (!stack.empty()) {
      auto& [inputs, next] = stack.back();
      if (next < inputs->size()) {
        VarImplBase* input = (*inputs)[next++];
        if (input->producer() && input->requires_grad && !input->visited) {
          input->visited = true;
          path.push_back(input);
          stack.emplace_back(&input->producer()->input_states(), 0);
        }
      } else {
        post_order.push_back(path.back());
        path.pop_back();
        stack.pop_back();
      }
    }
  } catch (...) {
    clear_visited(post_order);
    clear_visited(path);
    throw;
  }
  clear_visited(post_order);
  std::reverse(post_order.begin(), post_order.end());
  return post_order;
}

/// For each position in `order`, the hooked leaves whose last consumer is the node there:
/// after that node has run (or been skipped), no more gradient can reach them.
inline std::vector<std::vector<VarImplBase*>> hooked_leaves_done_after(const std::vector<VarImplBase*>& order) {
  std::unordered_map<VarImplBase*, std::size_t> last_consumer;
  for (std::size_t i = 0; i < order.size(); ++i)
    for (VarImplBase* input : order[i]->producer()->input_states())
      if (!input->producer() && input->requires_grad && !input->hooks.list.empty()) {
        last_consumer[input] = i;
        input->hooks.reached = false;
      }
  std::vector<std::vector<VarImplBase*>> done_after(last_consumer.empty() ? 0 : order.size());
  for (const auto& [leaf, i] : last_consumer) done_after[i].push_back(leaf);
  return done_after;
}

/// Runs backward from `root` seeded with `seed` (same shape as root's value).
template <class T, class D>
void run_backward(const std::shared_ptr<VarImpl<T, D>>& root, const Tensor<T, D>& seed) {
  KT_PROFILE_REGION("kt::autograd::backward");
  KT_REQUIRE(root->requires_grad, "kt::Var::backward: the tensor does not require grad and has "
                                  "no grad_fn (was it computed under kt::NoGradGuard, or from "
                                  "inputs that do not require grad?)");
  KT_REQUIRE(seed.shape() == root->shape, "kt::Var::backward: the gradient has shape ",
             seed.shape().str(), " but the tensor has shape ", root->shape.str());
  BackwardCallbacks callbacks;  // kt::autograd::queue_callback, run after the sweep
  if (!root->grad_fn) {  // backward() on a leaf: its gradient is the seed
    root->hooks.reached = false;
    accumulate_leaf_grad(*root, seed);
    root->hooks.fire();
    callbacks.run();
    return;
  }
  // Gradient computations are not themselves recorded (no double backward).
  AutoGradMode no_grad(false);
  const std::vector<VarImplBase*> order = backward_order(root.get());
  const auto leaves_done_after = hooked_leaves_done_after(order);
  // Pending gradients live in the variables during the sweep; cleared however it ends.
  struct ClearPending {
    const std::vector<VarImplBase*>& vars;
    ~ClearPending() {
      for (VarImplBase* v : vars) v->clear_pending();
    }
  } clear{order};
  root->pending = seed;
  for (std::size_t i = 0; i < order.size(); ++i) {
    VarImplBase* var = order[i];
    if (var->has_pending()) {  // else no gradient flowed here
      NodeBase& node = *var->producer();
      KT_REQUIRE(!node.released(), "kt::Var::backward: the graph through ", node.name,
                 " was already freed by an earlier backward(); run the forward pass again (kt "
                 "does not keep graphs for a second backward)");
      node.propagate(*var);
      node.release();
    }
    if (!leaves_done_after.empty())
      for (VarImplBase* leaf : leaves_done_after[i]) leaf->hooks.fire();
  }
  callbacks.run();
}

}  // namespace kt::impl

// kt_compiled (kt/core/impl/compiled.hpp): the backward sweep from a root of every floating dtype.
#define KT_ETI_AUTOGRAD_ENGINE_ONE(T, D, KW) \
  KW void kt::impl::run_backward<T, D>(const std::shared_ptr<kt::impl::VarImpl<T, D>>&, const kt::Tensor<T, D>&);
#define KT_ETI_AUTOGRAD_ENGINE(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_AUTOGRAD_ENGINE_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_AUTOGRAD)
KT_ETI_AUTOGRAD_ENGINE(extern template)
#endif
