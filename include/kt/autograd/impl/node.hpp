#pragma once
// The graph that differentiable ops record: each op's output holds a Node; a Node holds the
// op's inputs and a backward function that owns whatever the op saved for it. The graph lives
// on the host; the tensors it saves and the gradients it computes live on the device.

#include "kt/core/error.hpp"
#include "kt/tensor/tensor.hpp"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kt::impl {

template <class T, class D>
struct Node;

/// The state behind a kt::Var: its value, its accumulated gradient, and the node that made it
/// (none for leaves).
template <class T, class D>
struct VarImpl {
  Tensor<T, D> value;
  Tensor<T, D> grad;
  bool requires_grad = false;
  std::shared_ptr<Node<T, D>> grad_fn;
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

/// One recorded op: its inputs, and how to map the output's gradient to theirs.
template <class T, class D>
struct Node {
  virtual ~Node() = default;
  /// The gradient of each input (undefined where not needed) from the output's gradient.
  virtual std::vector<Tensor<T, D>> apply(const Tensor<T, D>& grad_output, const Needs& needs) = 0;
  /// Frees what the op saved; after this the node can no longer run.
  virtual void release() = 0;
  bool released() const { return released_; }

  std::string name;
  Shape output_shape;
  std::vector<std::shared_ptr<VarImpl<T, D>>> inputs;

protected:
  bool released_ = false;
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
