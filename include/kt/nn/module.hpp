#pragma once
/// \file kt/nn/module.hpp
/// `kt::nn::Module<T, Device>`: the base of every layer (`torch.nn.Module`) — named
/// parameters (kt::Var leaves), buffers (plain tensors) and child modules, with hierarchical
/// names that match PyTorch's `state_dict` keys (`0.weight`, `encoder.1.bias`), train/eval
/// mode, zero_grad, parameter counts and PyTorch-style printing. Write your own the PyTorch
/// way: derive, register in the constructor, define forward.
///
///     template <class D>
///     struct Residual : kt::nn::Module<float, D> {
///       std::shared_ptr<kt::nn::Linear<float, D>> fc1, fc2;
///       Residual(int n, int hidden) {
///         fc1 = this->register_module("fc1", kt::nn::Linear<float, D>(n, hidden));
///         fc2 = this->register_module("fc2", kt::nn::Linear<float, D>(hidden, n));
///       }
///       kt::Var<float, D> forward(const kt::Var<float, D>& x) override {
///         return x + (*fc2)(kt::relu((*fc1)(x)));
///       }
///     };
///     auto net = kt::nn::make_module<Residual<kt::Host>>(16, 32);   // std::make_shared<Residual>(16, 32)
///     std::cout << *net;                                 // Residual(\n  (fc1): Linear(...)...
///     auto gpu = kt::nn::to<kt::DefaultDevice>(net);     // a copy on another device
///
/// The device is part of the type, so moving a module makes a new one on the other device and
/// copies the state (kt/nn/to_device.hpp, docs/training.md). An optimizer holds the parameters
/// of the module it was given — build it after moving.

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/impl/operand.hpp"
#include "kt/autograd/impl/var_access.hpp"
#include "kt/autograd/var.hpp"
#include "kt/core/impl/compiled.hpp"
#include "kt/nn/impl/module_impl.hpp"
#include "kt/nn/impl/type_name.hpp"
#include "kt/tensor/generator.hpp"
#include "kt/tensor/tensor.hpp"
#include "kt/tensor/transfer.hpp"

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <typeinfo>
#include <utility>
#include <variant>
#include <vector>

namespace kt::nn {

template <class T, class D = DefaultDevice>
class Module {
public:
  using value_type = T;
  using device_type = D;

  Module() = default;
  virtual ~Module() = default;
  // Movable (Var handles and their registry move together); not copyable, as a copy would
  // silently share parameters — use to<D2>() / clone() for an independent copy.
  Module(Module&&) noexcept = default;
  Module& operator=(Module&&) noexcept = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  /// The layer's computation: define it in your module.
  virtual Var<T, D> forward(const Var<T, D>& input) = 0;

  /// `model(x)` for a Var or a Tensor (a constant) of the module's device and dtype.
  template <class X>
  Var<T, D> operator()(const X& input) {
    static_assert(std::is_same_v<X, Var<T, D>> || std::is_same_v<X, Tensor<T, D>>,
                  "kt::nn::Module: the input is not a Var<T, D> or Tensor<T, D> of the module's dtype "
                  "and device (X, T and D in the instantiation above); move it with x.to<D>() or "
                  "convert it with x.to<T>() first");
    if constexpr (std::is_same_v<X, Var<T, D>> || std::is_same_v<X, Tensor<T, D>>) return forward(input);
    else return {};
  }

  /// The class name in printouts ("Linear"); by default the C++ class name.
  virtual std::string name() const { return impl::short_type_name(typeid(*this)); }
  /// The arguments shown in the printout ("in_features=784, out_features=10, bias=True").
  virtual std::string extra_repr() const { return ""; }

  /// Parameters of this module and (recurse) its descendants, in registration order.
  std::vector<std::pair<std::string, Var<T, D>>> named_parameters(bool recurse = true) const {
    std::vector<std::pair<std::string, Var<T, D>>> out;
    collect_parameters("", recurse, out);
    return out;
  }
  std::vector<Var<T, D>> parameters(bool recurse = true) const {
    std::vector<Var<T, D>> out;
    for (auto& [name, p] : named_parameters(recurse)) out.push_back(p);
    return out;
  }
  /// Buffers (state that is not trained, e.g. running statistics), named like parameters.
  std::vector<std::pair<std::string, Tensor<T, D>>> named_buffers(bool recurse = true) const {
    std::vector<std::pair<std::string, Tensor<T, D>>> out;
    collect_buffers("", recurse, out);
    return out;
  }
  const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& named_children() const { return children_; }

  /// Parameters then buffers by name: the keys and values of PyTorch's `state_dict()`.
  std::vector<std::pair<std::string, Tensor<T, D>>> state_dict() const {
    std::vector<std::pair<std::string, Tensor<T, D>>> out;
    for (auto& [name, p] : named_parameters()) out.emplace_back(name, p.data());
    for (auto& [name, b] : named_buffers()) out.emplace_back(name, b);
    return out;
  }

  /// The random generator this module itself draws from in forward (Dropout's), or null.
  /// Not part of state_dict (as in PyTorch); a checkpoint saves it so that a resumed run draws
  /// the same masks.
  virtual const Generator* own_generator() const { return nullptr; }
  /// The generators of this module and its descendants that have one, named like parameters
  /// ("2" for a Dropout that is child 2 of a Sequential; "" for this module itself).
  std::vector<std::pair<std::string, const Generator*>> named_generators() const {
    std::vector<std::pair<std::string, const Generator*>> out;
    collect_generators("", out);
    return out;
  }
  /// The same, to restore them (the module is not const, so neither are its generators).
  std::vector<std::pair<std::string, Generator*>> named_generators() {
    std::vector<std::pair<std::string, Generator*>> out;
    for (auto& [name, g] : std::as_const(*this).named_generators()) out.emplace_back(name, const_cast<Generator*>(g));
    return out;
  }

  /// Total number of parameter elements (`sum(p.numel() for p in model.parameters())`).
  std::int64_t parameter_count() const {
    std::int64_t n = 0;
    for (auto& p : parameters()) n += p.numel();
    return n;
  }

  /// Training mode for this module and its descendants (affects Dropout).
  void train(bool on = true) {
    training_ = on;
    for (auto& [name, child] : children_) child->train(on);
  }
  void eval() { train(false); }
  bool is_training() const { return training_; }

  /// Clears every parameter's gradient (undefined, or zero-filled when !set_to_none).
  void zero_grad(bool set_to_none = true) {
    for (auto& p : parameters()) p.zero_grad(set_to_none);
  }

  /// Prints the module tree like PyTorch's repr.
  void print(std::ostream& os, int indent = 0) const {
    os << name() << "(" << extra_repr();
    if (!children_.empty()) {
      os << "\n";
      for (auto& [child_name, child] : children_) {
        os << std::string(static_cast<std::size_t>(indent + 2), ' ') << "(" << child_name << "): ";
        child->print(os, indent + 2);
        os << "\n";
      }
      os << std::string(static_cast<std::size_t>(indent), ' ');
    }
    os << ")";
  }

  /// Copies parameter values, requires_grad, buffers and the mode from `src`, a module of the
  /// same structure on any device (names and shapes are checked first; nothing changes on a
  /// mismatch). The parameters stay the same Vars: optimizers holding them see the new values.
  template <class D2>
  void copy_state_from(const Module<T, D2>& src) {
    const auto dst_params = named_parameters();
    const auto src_params = src.named_parameters();
    const auto dst_buffers = named_buffers();
    const auto src_buffers = src.named_buffers();
    impl::require_same_structure(name(), dst_params, src_params, "parameter");
    impl::require_same_structure(name(), dst_buffers, src_buffers, "buffer");
    for (std::size_t i = 0; i < dst_params.size(); ++i) {
      kt::copy(dst_params[i].second.data(), src_params[i].second.data());
      impl::VarAccess::state(dst_params[i].second)->requires_grad = src_params[i].second.requires_grad();
    }
    for (std::size_t i = 0; i < dst_buffers.size(); ++i) kt::copy(dst_buffers[i].second, src_buffers[i].second);
    train(src.is_training());
  }

  /// A copy of this module (its concrete class, state copied) on device D2, through the
  /// virtual rebuild_on(); what Sequential uses for its children. Built-in layers and modules
  /// made by kt::nn::make_module can; any other module throws kt::Error saying so. D2 is the
  /// module's own device or kt::DefaultDevice, and for a module on a host device kt::Host
  /// (impl::module_devices says why).
  template <class D2>
  std::shared_ptr<Module<T, D2>> clone_to() const {
    static_assert(impl::in_device_list<D2, impl::enabled_devices>::value,
                  "kt::nn::Module::clone_to<D2>: D2 is not a device of this Kokkos build");
    static_assert(impl::in_device_list<D2, impl::module_devices<D>>::value,
                  "kt::nn: a module moves at run time (clone_to, Sequential::to, kt::nn::to) to its own "
                  "device or kt::DefaultDevice only, a host module also to kt::Host; for another device D2, "
                  "build the model there and copy the state in: model_on_d2.copy_state_from(model) (a "
                  "built-in layer also has layer.to<D2>())");
    if constexpr (!impl::in_device_list<D2, impl::module_devices<D>>::value) {
      return nullptr;  // not compiled: the static_assert above says why
    } else {
      const impl::AnyDeviceModule<T, D> rebuilt = rebuild_on(DeviceTag<D2>{});
      const auto* typed = std::get_if<std::shared_ptr<Module<T, D2>>>(&rebuilt);
      std::shared_ptr<Module<T, D2>> copy = typed ? *typed : nullptr;
      KT_REQUIRE(copy != nullptr, "kt::nn::Module: ", name(), " cannot rebuild itself on device ", D2::name(),
                 recipe_ ? ": its constructor does not take the arguments it was made with on that device"
                         : ": C++ cannot recover the arguments it was constructed with; make it with "
                           "kt::nn::make_module<Class>(arguments...) (which records them), or move it with "
                           "kt::nn::to<D2>(module, arguments...)");
      return copy;
    }
  }

  /// Rebuilds this module on `device` (one of impl::module_devices<D>, chosen at run time: a
  /// std::variant of DeviceTag<D2>), as the pointer to a Module<T, thatDevice>; a null pointer
  /// when it cannot. By default through the recipe that kt::nn::make_module recorded; built-in
  /// layers rebuild from their options().
  virtual impl::AnyDeviceModule<T, D> rebuild_on(const impl::ModuleDevice<D>& device) const {
    return recipe_ ? recipe_->rebuild(*this, device) : impl::AnyDeviceModule<T, D>();
  }

protected:
  /// Adds a parameter (a Var leaf that requires grad) under `name`; returns it.
  Var<T, D> register_parameter(const std::string& name, Tensor<T, D> value, bool requires_grad = true) {
    check_name(name);
    params_.emplace_back(name, Var<T, D>(std::move(value), requires_grad));
    return params_.back().second;
  }
  /// Adds a buffer (saved in state_dict, not trained).
  Tensor<T, D> register_buffer(const std::string& name, Tensor<T, D> value) {
    check_name(name);
    buffers_.emplace_back(name, std::move(value));
    return buffers_.back().second;
  }
  /// Adds a child module under `name`; returns it (shared with the caller).
  template <class M>
  std::shared_ptr<M> register_module(const std::string& name, std::shared_ptr<M> child) {
    static_assert(std::is_base_of_v<Module, M>,
                  "kt::nn::Module::register_module: the child must be a kt::nn::Module<T, D> of the same "
                  "dtype and device");
    check_name(name);
    KT_REQUIRE(child != nullptr, "kt::nn::Module::register_module: module '", name, "' is null");
    children_.emplace_back(name, child);
    return child;
  }
  /// Adds a child module given by value (moved into shared ownership); returns it.
  template <class M, impl::module_value_t<M> = 0>
  std::shared_ptr<std::decay_t<M>> register_module(const std::string& name, M&& child) {
    return register_module(name, std::make_shared<std::decay_t<M>>(std::forward<M>(child)));
  }

private:
  template <class, class>
  friend class Module;
  friend struct impl::ModuleRecipeAccess;

  void check_name(const std::string& name) const {
    KT_REQUIRE(!name.empty() && name.find('.') == std::string::npos, "kt::nn::Module: invalid name '", name,
               "' (names must be non-empty and contain no '.')");
    auto taken = [&](const auto& list) {
      for (auto& entry : list)
        if (entry.first == name) return true;
      return false;
    };
    KT_REQUIRE(!taken(params_) && !taken(buffers_) && !taken(children_), "kt::nn::Module: '", name,
               "' is already registered in ", this->name());
  }

  void collect_parameters(const std::string& prefix, bool recurse,
                          std::vector<std::pair<std::string, Var<T, D>>>& out) const {
    for (auto& [name, p] : params_) out.emplace_back(prefix + name, p);
    if (recurse)
      for (auto& [name, child] : children_) child->collect_parameters(prefix + name + ".", true, out);
  }
  void collect_generators(const std::string& prefix, std::vector<std::pair<std::string, const Generator*>>& out) const {
    if (const Generator* g = own_generator()) out.emplace_back(prefix.empty() ? prefix : prefix.substr(0, prefix.size() - 1), g);
    for (auto& [name, child] : children_) child->collect_generators(prefix + name + ".", out);
  }
  void collect_buffers(const std::string& prefix, bool recurse,
                       std::vector<std::pair<std::string, Tensor<T, D>>>& out) const {
    for (auto& [name, b] : buffers_) out.emplace_back(prefix + name, b);
    if (recurse)
      for (auto& [name, child] : children_) child->collect_buffers(prefix + name + ".", true, out);
  }

  std::vector<std::pair<std::string, Var<T, D>>> params_;
  std::vector<std::pair<std::string, Tensor<T, D>>> buffers_;
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> children_;
  bool training_ = true;
  std::shared_ptr<const impl::ModuleRecipe<T, D>> recipe_;  // set by kt::nn::make_module
};

template <class T, class D>
std::ostream& operator<<(std::ostream& os, const Module<T, D>& m) {
  m.print(os);
  return os;
}

}  // namespace kt::nn

// kt_compiled (kt/core/impl/compiled.hpp): the base of every module.
#define KT_ETI_MODULE_ONE(T, D, KW) KW class kt::nn::Module<T, D>;
#define KT_ETI_MODULE(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_MODULE_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_NN)
KT_ETI_MODULE(extern template)
#endif

#include "kt/core/impl/public_end.hpp"
