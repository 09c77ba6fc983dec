#pragma once
/// \file kt/autograd/var.hpp
/// `kt::Var<T, Device>`: a tensor that takes part in automatic differentiation — its value
/// (a `kt::Tensor`), whether it requires grad, the op that produced it, and its accumulated
/// gradient. Differentiable ops (`kt/autograd/ops.hpp`, the layers of `kt::nn`) take and
/// return Vars and record a define-by-run graph; `backward()` walks it in reverse. Like
/// Flashlight's `fl::Variable`, the autograd type wraps the plain tensor, so tensor code that
/// needs no gradients pays nothing for them. Copies share state (as torch.Tensor handles do).
///
///     kt::Var<float> w(kt::randn<float>({3, 2}, /*seed=*/0), /*requires_grad=*/true);
///     kt::Var<float> x(kt::ones<float>({4, 3}));      // a constant: no gradient
///     auto loss = kt::sum(kt::matmul(x, w) * 2.0f);
///     loss.backward();                                 // w.grad() == 2 * xᵀ · ones
///     std::cout << w.grad();

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/grad_mode.hpp"
#include "kt/autograd/impl/mixed_node.hpp"
#include "kt/autograd/impl/engine.hpp"
#include "kt/autograd/impl/node.hpp"
#include "kt/autograd/hooks.hpp"
#include "kt/autograd/impl/var_access.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/tensor/factories.hpp"
#include "kt/tensor/print.hpp"
#include "kt/tensor/tensor.hpp"

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <utility>

namespace kt {

template <class T, class D = DefaultDevice>
class Var {
  static_assert(is_floating_dtype_v<T>, "kt::Var<T, Device>: autograd needs a floating dtype "
                                        "(float, double, kt::half, kt::bfloat16)");

public:
  using value_type = T;
  using device_type = D;
  using tensor_type = Tensor<T, D>;

  /// An undefined Var.
  Var() = default;
  /// Wraps a tensor: a constant, or a leaf whose gradient backward() accumulates when
  /// `requires_grad` (`torch.tensor(..., requires_grad=True)`). Shares the tensor's storage.
  Var(Tensor<T, D> value, bool requires_grad = false)  // NOLINT: implicit, like torch
      : value_(std::move(value)), impl_(std::make_shared<impl::VarImpl<T, D>>()) {
    KT_REQUIRE(value_.defined(), "kt::Var: the tensor is undefined");
    impl_->shape = value_.shape();
    impl_->requires_grad = requires_grad;
  }

  bool defined() const { return impl_ != nullptr; }
  /// The value (shares storage; operations on it are not recorded — `tensor.data`).
  const Tensor<T, D>& data() const {
    state("data");
    return value_;
  }
  const Shape& shape() const { return data().shape(); }
  int rank() const { return data().rank(); }
  std::int64_t size(int dim) const { return data().size(dim); }
  std::int64_t numel() const { return data().numel(); }
  /// The only element, on the host (`loss.item()`): the 16-bit dtypes give a float, so it
  /// prints and formats like a number.
  compute_t<T> item() const { return static_cast<compute_t<T>>(data().item()); }

  bool requires_grad() const { return state("requires_grad").requires_grad; }
  /// Makes a leaf require grad (or not); an op's output cannot change (as in PyTorch).
  Var& requires_grad_(bool on = true) {
    KT_REQUIRE(is_leaf(), "kt::Var::requires_grad_: only leaves can change requires_grad; this "
                          "Var was produced by ", impl_->grad_fn->name, " (use detach() first)");
    impl_->requires_grad = on;
    return *this;
  }
  /// True for user-created Vars, false for the outputs of recorded ops.
  bool is_leaf() const { return !state("is_leaf").grad_fn; }
  /// The name of the op that produced this Var ("" for leaves), e.g. "kt::matmul".
  std::string grad_fn_name() const { return is_leaf() ? std::string() : impl_->grad_fn->name; }

  /// The accumulated gradient of a leaf (undefined until a backward pass reaches it). The
  /// tensor is a handle: `p.grad() *= s` scales the gradient in place, as in PyTorch.
  const Tensor<T, D>& grad() const { return state("grad").grad; }
  /// Replaces the gradient (undefined clears it); its shape must match the value's.
  void set_grad(Tensor<T, D> grad) const {
    KT_REQUIRE(!grad.defined() || grad.shape() == shape(), "kt::Var::set_grad: the gradient has "
               "shape ", grad.shape().str(), " but the value has shape ", shape().str());
    state("set_grad").grad = std::move(grad);
  }
  /// Clears the gradient: undefined (set_to_none, PyTorch's default) or zero-filled.
  void zero_grad(bool set_to_none = true) const {
    auto& g = state("zero_grad").grad;
    if (set_to_none || !g.defined()) g = Tensor<T, D>();
    else g.fill_(T(0));
  }

  /// Calls `hook(*this)` in every backward that reaches this leaf, once the gradients of that
  /// backward are all accumulated into grad() (`register_post_accumulate_grad_hook`). The hook
  /// runs on the thread calling backward(), with grad mode off. Leaves that require grad only.
  HookHandle register_post_accumulate_grad_hook(std::function<void(const Var&)> hook) const {
    KT_REQUIRE(is_leaf() && requires_grad(), "kt::Var::register_post_accumulate_grad_hook: only "
               "leaves that require grad accumulate gradients (this Var ",
               is_leaf() ? "does not require grad" : "is the output of " + impl_->grad_fn->name, ")");
    // The hook lives in the state and must not own it: it rebuilds the Var from a weak handle.
    std::weak_ptr<impl::VarImpl<T, D>> weak = impl_;
    Tensor<T, D> value = value_;
    const std::uint64_t id = impl_->hooks.add([weak, value, hook = std::move(hook)] {
      if (auto state = weak.lock()) hook(impl::VarAccess::make<T, D>(value, std::move(state)));
    });
    return HookHandle(impl_, id);
  }

  /// Back-propagates from a one-element Var (a loss): every leaf it depends on that requires
  /// grad gets d(this)/d(leaf) added to its .grad(). Frees the graph.
  void backward() const {
    KT_REQUIRE(numel() == 1, "kt::Var::backward: grad can be implicitly created only for a "
               "one-element tensor, but this one has shape ", shape().str(),
               "; pass the gradient: backward(grad)");
    impl::run_backward(impl_, ones<T, D>(shape()));
  }
  /// Back-propagates `grad` (of this Var's shape): vector-Jacobian product.
  void backward(const Tensor<T, D>& grad) const {
    KT_REQUIRE(grad.defined(), "kt::Var::backward: the gradient is undefined");
    state("backward");
    impl::run_backward(impl_, grad);
  }

  /// The same value, cut from the graph (`tensor.detach()`): a constant sharing storage.
  Var detach() const { return Var(data(), false); }

  /// The values in floating dtype U (`x.to(torch.bfloat16)`, `x.float()`), differentiable: the
  /// gradient flows back converted to T, so fp32 master weights can run a 16-bit forward.
  /// For U == T, this Var itself (as PyTorch).
  template <class U>
  Var<U, D> to() const {
    static_assert(is_floating_dtype_v<U>, "kt::Var::to<U>: U must be a floating dtype (float, double, kt::half, "
                                          "kt::bfloat16); use data().to<U>() for a plain tensor of another dtype");
    if constexpr (std::is_same_v<U, T>) return *this;
    else return impl::cast_var<U>(*this);
  }

  /// True when both handles refer to the same variable (`a is b` in Python).
  bool is_same(const Var& other) const { return impl_ == other.impl_; }

private:
  friend struct impl::VarAccess;

  impl::VarImpl<T, D>& state(const char* what) const {
    KT_REQUIRE(impl_ != nullptr, "kt::Var::", what, ": the Var is undefined (default-constructed)");
    return *impl_;
  }

  Tensor<T, D> value_;                         // copies share storage, as they share impl_
  std::shared_ptr<impl::VarImpl<T, D>> impl_;  // gradient and producer; the graph holds this only
  // kt::amp::autocast: the 16-bit Var (a Var<half or bfloat16, D>) that an op under autocast
  // computed, of which value_ is the exact widening; ops later in the region continue from it
  // in 16 bits (kt/autograd/impl/autocast_twin.hpp). Held by the handle, not by the state the
  // graph keeps, so a 16-bit intermediate dies with the last handle too.
  std::shared_ptr<const impl::AutocastTwinBase> twin_;
};

/// Prints the value, then `grad_fn=<name>` or `requires_grad=true` like PyTorch.
template <class T, class D>
std::ostream& operator<<(std::ostream& os, const Var<T, D>& v) {
  if (!v.defined()) return os << "Var(undefined)";
  os << v.data();
  if (!v.is_leaf()) os << " grad_fn=<" << v.grad_fn_name() << ">";
  else if (v.requires_grad()) os << " requires_grad=true";
  return os;
}

}  // namespace kt

// kt_compiled (kt/core/impl/compiled.hpp): the differentiable casts that autocast inserts,
// between fp32 and each 16-bit dtype.
#define KT_ETI_CAST_VAR(U, T, D, KW) KW kt::Var<U, D> kt::impl::cast_var<U, T, D>(const kt::Var<T, D>&);
#define KT_ETI_AUTOCAST_CASTS(D, KW)                                              \
  KT_ETI_CAST_VAR(float, kt::half, D, KW) KT_ETI_CAST_VAR(kt::half, float, D, KW) \
  KT_ETI_CAST_VAR(float, kt::bfloat16, D, KW) KT_ETI_CAST_VAR(kt::bfloat16, float, D, KW)
#define KT_ETI_VAR(KW) KT_ETI_EACH_DEVICE(KT_ETI_AUTOCAST_CASTS, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_AUTOGRAD)
KT_ETI_VAR(extern template)
#endif

#include "kt/core/impl/public_end.hpp"
