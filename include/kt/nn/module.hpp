#pragma once
/// \file kt/nn/module.hpp
/// `kt::nn::Module<T, Device>`: the base of every layer (`torch.nn.Module`) — named
/// parameters (kt::Var leaves), buffers (plain tensors) and child modules, with hierarchical
/// names that match PyTorch's `state_dict` keys (`0.weight`, `encoder.1.bias`), train/eval
/// mode, zero_grad, parameter counts, `to<OtherDevice>()`, and PyTorch-style printing.
///
///     kt::nn::Sequential<float> model;
///     model.push_back(kt::nn::Linear<float>(784, 10));
///     for (auto& [name, p] : model.named_parameters()) std::cout << name << " " << p.shape() << "\n";
///     auto on_host = model.to<kt::Host>();            // a copy on another device
///     std::cout << model;                              // Sequential(\n  (0): Linear(...)\n)

#include "kt/autograd/var.hpp"
#include "kt/nn/impl/device_conversion.hpp"
#include "kt/tensor/tensor.hpp"
#include "kt/tensor/transfer.hpp"

#include <cstdint>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace kt::nn {

template <class T, class D = DefaultDevice>
class Module : public impl::ConvertibleBase<T> {
public:
  using value_type = T;
  using device_type = D;

  Module() = default;
  // Movable (Var handles and their registry move together); not copyable, as a copy would
  // silently share parameters — use to<D>() for an independent copy.
  Module(Module&&) noexcept = default;
  Module& operator=(Module&&) noexcept = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  /// The layer's computation.
  virtual Var<T, D> forward(const Var<T, D>& input) = 0;
  /// `model(x)`; a Tensor converts to a constant Var.
  Var<T, D> operator()(const Var<T, D>& input) { return forward(input); }

  /// The class name in printouts ("Linear").
  virtual std::string name() const = 0;
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

  /// A copy of this module on another device (parameters and buffers copied, mode kept).
  template <class D2>
  std::shared_ptr<Module<T, D2>> to() const {
    return this->to_device(impl::DeviceTag<D2>{});
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

  /// Copies parameter values, requires_grad, buffers and the mode from `src` (same
  /// structure, another device) into this module; what to<D2>() uses.
  template <class D2>
  void copy_state_from(const Module<T, D2>& src) {
    auto dst_params = named_parameters();
    auto src_params = src.named_parameters();
    KT_REQUIRE(dst_params.size() == src_params.size(), "kt::nn::Module::to: ", name(),
               " has a different structure on the target device");
    for (std::size_t i = 0; i < dst_params.size(); ++i) {
      const auto& from = src_params[i].second;
      auto& state = *dst_params[i].second.impl();
      state.value = copy_to_device(from.data());
      state.requires_grad = from.requires_grad();
    }
    auto dst_buffers = named_buffers();
    auto src_buffers = src.named_buffers();
    for (std::size_t i = 0; i < dst_buffers.size() && i < src_buffers.size(); ++i)
      kt::copy(dst_buffers[i].second, src_buffers[i].second);
    train(src.is_training());
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
  /// Adds a child module under `name`.
  template <class M>
  std::shared_ptr<M> register_module(const std::string& name, std::shared_ptr<M> child) {
    check_name(name);
    KT_REQUIRE(child != nullptr, "kt::nn::Module::register_module: module '", name, "' is null");
    children_.emplace_back(name, child);
    return child;
  }

private:
  template <class, class>
  friend class Module;

  template <class T2, class D2>
  static Tensor<T, D> copy_to_device(const Tensor<T2, D2>& t) {
    Tensor<T, D> out(t.shape());
    kt::copy(out, t);  // always a copy: the modules must not share parameters
    return out;
  }

  void check_name(const std::string& name) const {
    KT_REQUIRE(!name.empty() && name.find('.') == std::string::npos, "kt::nn::Module: invalid name '",
               name, "' (names must be non-empty and contain no '.')");
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
};

template <class T, class D>
std::ostream& operator<<(std::ostream& os, const Module<T, D>& m) {
  m.print(os);
  return os;
}

namespace impl {
/// CRTP base of concrete modules: implements the per-device conversions by rebuilding the
/// module from its options on the target device and copying the state over. A module
/// without options (Sequential) provides its own `template <class D2> to() const`.
template <template <class, class> class M, class T, class D>
class Convertible : public Module<T, D> {
public:
  template <class D2>
  std::shared_ptr<M<T, D2>> to() const {
    const auto& self = static_cast<const M<T, D>&>(*this);
    auto copy = std::make_shared<M<T, D2>>(self.options());
    copy->copy_state_from(self);
    return copy;
  }

#define KT_NN_DEFINE_TO(Dev)                                                               \
  std::shared_ptr<Module<T, Dev>> to_device(DeviceTag<Dev>) const override {               \
    return static_cast<const M<T, D>&>(*this).template to<Dev>();                          \
  }
  KT_NN_FOR_EACH_DEVICE(KT_NN_DEFINE_TO)
#undef KT_NN_DEFINE_TO
};
}  // namespace impl

}  // namespace kt::nn
