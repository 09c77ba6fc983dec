#pragma once
// The graph that differentiable ops record: each op's output holds a Node; a Node holds the
// op's inputs and a backward function that owns whatever the op saved for it. Nodes and
// variables have dtype-free bases (NodeBase, VarImplBase), so one graph may mix dtypes. The graph lives
// on the host; the tensors it saves and the gradients it computes live on the device.

#include "kt/core/impl/internal.hpp"

#include "kt/autograd/impl/hooks.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/tensor/elementwise.hpp"
#include "kt/tensor/tensor.hpp"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kt::impl {

struct NodeBase;

/// What the engine needs of a variable whatever its dtype: the graph may cross dtypes (a cast
/// records a node whose input has another dtype than its output), so the walk is over these.
struct VarImplBase {
  virtual ~VarImplBase() = default;
  /// The node that made this variable; null for leaves.
  virtual NodeBase* producer() const = 0;
  /// During a backward: whether a gradient has reached this (non-leaf) variable.
  virtual bool has_pending() const = 0;
  virtual void clear_pending() = 0;
  bool requires_grad = false;
  LeafHooks hooks;  // leaves only (Var::register_post_accumulate_grad_hook)
  /// Set while a backward sweep orders the graph and has reached this variable
  /// (kt/autograd/impl/engine.hpp, backward_order); false otherwise.
  bool visited = false;
};

/// Frees a variable's node without recursing. A node holds its inputs' states, whose nodes
/// hold theirs: freeing the end of a chain of 20,000 ops (an unrolled recurrence) would nest as
/// many destructors and overflow the stack. A node freed while a release is under way on this
/// thread is queued instead, and the outermost release frees the queue one node at a time. The
/// queue allocates only when a release frees nested nodes: a node shared with another variable,
/// or whose inputs are leaves, is freed directly.
inline void release_node(std::shared_ptr<NodeBase> node) noexcept {
  thread_local std::vector<std::shared_ptr<NodeBase>>* queue = nullptr;
  if (!node) return;
  if (queue) {
    queue->push_back(std::move(node));
    return;
  }
  std::vector<std::shared_ptr<NodeBase>> pending;
  queue = &pending;
  node.reset();  // queues the nodes of its inputs that it frees
  while (!pending.empty()) {
    std::shared_ptr<NodeBase> next = std::move(pending.back());
    pending.pop_back();
    next.reset();
  }
  queue = nullptr;
}

/// The autograd state behind a kt::Var: its accumulated gradient and the node that made it
/// (none for leaves). Not the value: a Var holds that beside this state, and nodes refer to
/// their inputs through this state only, so the graph keeps no value alive that no backward
/// function saved (an intermediate result dies with the last Var handle to it).
template <class T, class D>
struct VarImpl final : VarImplBase {
  Shape shape;  // of the value
  Tensor<T, D> grad;
  Tensor<T, D> pending;  // the gradient summed so far during a backward (non-leaves only)
  std::shared_ptr<NodeBase> grad_fn;

  ~VarImpl() override { release_node(std::move(grad_fn)); }
  NodeBase* producer() const override { return grad_fn.get(); }
  bool has_pending() const override { return pending.defined(); }
  void clear_pending() override { pending = Tensor<T, D>(); }
};

/// Which inputs of a node need a gradient: backward functions skip work for the others (the
/// first layer's input gradient, labels, constants).
class Needs {
public:
  explicit Needs(std::vector<bool> needs) : needs_(std::move(needs)) {}
  bool operator[](std::size_t i) const { return i < needs_.size() && needs_[i]; }

private:
  std::vector<bool> needs_;
};

/// One recorded op, whatever its dtypes.
struct NodeBase {
  virtual ~NodeBase() = default;
  /// The inputs (the engine orders the graph by them): listed on the first call and kept, as
  /// a recorded node's inputs never change and a backward sweep asks more than once.
  const std::vector<VarImplBase*>& input_states() const {
    if (!inputs_listed_) {
      list_inputs(input_list_);
      inputs_listed_ = true;
    }
    return input_list_;
  }
  /// Takes `output`'s pending gradient, computes the inputs' and hands each on (deliver()).
  virtual void propagate(VarImplBase& output) = 0;
  /// Frees what the op saved; after this the node can no longer run.
  virtual void release() = 0;
  bool released() const { return released_; }

  std::string name;
  Shape output_shape;

protected:
  /// Appends the inputs' states to `out`.
  virtual void list_inputs(std::vector<VarImplBase*>& out) const = 0;
  bool released_ = false;

private:
  mutable std::vector<VarImplBase*> input_list_;
  mutable bool inputs_listed_ = false;
};

/// Adds `grad` to a leaf's .grad. The first gradient is adopted when nothing else refers to
/// its storage, otherwise copied: .grad is later accumulated in place and must not alias.
template <class T, class D>
void accumulate_leaf_grad(VarImpl<T, D>& leaf, Tensor<T, D> grad) {
  leaf.hooks.reached = true;
  if (!leaf.grad.defined()) {
    leaf.grad = (grad.storage() && grad.storage().use_count() == 1 && grad.storage_offset() == 0 &&
                 grad.numel() > 0)
                    ? std::move(grad)
                    : grad.clone();
  } else {
    leaf.grad += grad;
  }
}

/// Hands input `i` of node `name` its gradient: into a leaf's .grad, or added to a non-leaf's
/// pending gradient (the engine runs its node once all consumers have delivered).
template <class T, class D>
void deliver(VarImpl<T, D>& input, Tensor<T, D> grad, const std::string& name, std::size_t i) {
  if (!input.requires_grad || !grad.defined()) return;
  KT_REQUIRE(grad.shape() == input.shape, "kt::Var::backward: ", name, " returned a gradient of shape ",
             grad.shape().str(), " for input ", i, " of shape ", input.shape.str());
  if (!input.grad_fn) accumulate_leaf_grad(input, std::move(grad));
  else if (!input.pending.defined()) input.pending = std::move(grad);
  else input.pending = input.pending + grad;
}

/// An op whose inputs and output share dtype T: its backward maps the output's gradient to
/// one gradient per input (undefined where not needed).
template <class T, class D>
struct Node : NodeBase {
  virtual std::vector<Tensor<T, D>> apply(const Tensor<T, D>& grad_output, const Needs& needs) = 0;

  void propagate(VarImplBase& output) override {
    auto& out = static_cast<VarImpl<T, D>&>(output);
    const Tensor<T, D> grad = std::move(out.pending);
    out.pending = Tensor<T, D>();
    std::vector<bool> needs;
    needs.reserve(inputs.size());
    for (const auto& input : inputs) needs.push_back(input->requires_grad);
    std::vector<Tensor<T, D>> grads = apply(grad, Needs(std::move(needs)));
    KT_REQUIRE(grads.size() == inputs.size(), "kt::Var::backward: ", name, " returned ", grads.size(),
               " gradients for ", inputs.size(), " inputs");
    for (std::size_t i = 0; i < grads.size(); ++i) deliver(*inputs[i], std::move(grads[i]), name, i);
  }

  std::vector<std::shared_ptr<VarImpl<T, D>>> inputs;

protected:
  void list_inputs(std::vector<VarImplBase*>& out) const override {
    out.reserve(inputs.size());
    for (const auto& in : inputs) out.push_back(in.get());
  }
};

/// A node whose backward is a callable `(grad_output, needs) -> gradients`; the callable
/// holds the saved tensors and is destroyed on release.
template <class T, class D, class Backward>
struct FunctionNode final : Node<T, D> {
  explicit FunctionNode(Backward backward) : backward_(std::move(backward)) {}
  std::vector<Tensor<T, D>> apply(const Tensor<T, D>& grad_output, const Needs& needs) override {
    return (*backward_)(grad_output, needs);
  }
  void release() override {
    backward_.reset();
    this->released_ = true;
  }

private:
  std::optional<Backward> backward_;
};

}  // namespace kt::impl

// kt_compiled (kt/core/impl/compiled.hpp): gradient delivery and the node base of every floating
// dtype (the base's members run for every op of a backward pass).
#define KT_ETI_AUTOGRAD_NODE_ONE(T, D, KW)                                                       \
  KW void kt::impl::accumulate_leaf_grad<T, D>(kt::impl::VarImpl<T, D>&, kt::Tensor<T, D>);      \
  KW void kt::impl::deliver<T, D>(kt::impl::VarImpl<T, D>&, kt::Tensor<T, D>, const std::string&, \
                                  std::size_t);                                                  \
  KW struct kt::impl::Node<T, D>;
#define KT_ETI_AUTOGRAD_NODE(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_AUTOGRAD_NODE_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_AUTOGRAD)
KT_ETI_AUTOGRAD_NODE(extern template)
#endif
