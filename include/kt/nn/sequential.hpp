#pragma once
/// \file kt/nn/sequential.hpp
/// `kt::nn::Sequential` (`torch.nn.Sequential`): modules composed at run time, applied in
/// order; children are named "0", "1", ... so parameter names match PyTorch's.
///
///     kt::nn::Sequential<float, kt::Host> model;
///     model.push_back(kt::nn::Linear<float, kt::Host>(
///         kt::nn::LinearOptions(784, 256).activation(kt::Activation::ReLU)));
///     model.push_back(kt::nn::Linear<float, kt::Host>(256, 10));
///     auto on_device = model.to<kt::DefaultDevice>();   // Sequential<float>, children copied
///     auto logits = on_device(x);

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/impl/compiled.hpp"
#include "kt/nn/impl/rebind.hpp"
#include "kt/nn/module.hpp"

#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace kt::nn {

template <class T, class D = DefaultDevice>
class Sequential : public Module<T, D> {
public:
  Sequential() = default;

  /// Appends a module held by shared_ptr (shared with the caller).
  template <class M>
  Sequential& push_back(std::shared_ptr<M> module) {
    static_assert(std::is_base_of_v<Module<T, D>, M>,
                  "kt::nn::Sequential::push_back: the module must be a kt::nn::Module<T, D> of the "
                  "Sequential's dtype and device (move it with .to<D>() first)");
    KT_REQUIRE(module != nullptr, "kt::nn::Sequential::push_back: the module is null");
    modules_.push_back(this->register_module(std::to_string(modules_.size()), std::move(module)));
    return *this;
  }
  /// Appends a module given by value (moved into the Sequential).
  template <class M, kt::impl::module_value_t<M> = 0>
  Sequential& push_back(M&& module) {
    return push_back(std::make_shared<std::decay_t<M>>(std::forward<M>(module)));
  }

  Var<T, D> forward(const Var<T, D>& x) override {
    KT_PROFILE_REGION("kt::nn::Sequential::forward");
    Var<T, D> y = x;
    for (auto& m : modules_) y = m->forward(y);
    return y;
  }

  std::size_t size() const { return modules_.size(); }
  bool empty() const { return modules_.empty(); }
  /// The i-th module.
  const std::shared_ptr<Module<T, D>>& operator[](std::size_t i) const {
    KT_REQUIRE(i < modules_.size(), "kt::nn::Sequential: index ", i, " is out of range for ", modules_.size(),
               " modules");
    return modules_[i];
  }

  /// A copy of the whole stack on device D2 (every child rebuilt there): its own device (an
  /// independent copy, clone()) or kt::DefaultDevice, and from a host device kt::Host;
  /// elsewhere, build the stack there and copy_state_from() this one.
  template <class D2>
  Sequential<T, D2> to() const {
    return rebuilt<D2>();
  }
  /// An independent deep copy on the same device.
  Sequential clone() const { return rebuilt<D>(); }

  kt::impl::AnyDeviceModule<T, D> rebuild_on(const kt::impl::ModuleDevice<D>& device) const override {
    return kt::impl::rebuild_for<T, D>(device, [&](auto tag) { return rebuilt<typename decltype(tag)::type>(); });
  }

private:
  template <class D2>
  Sequential<T, D2> rebuilt() const {
    Sequential<T, D2> copy;
    for (auto& m : modules_) copy.push_back(m->template clone_to<D2>());
    copy.train(this->is_training());
    return copy;
  }

  std::vector<std::shared_ptr<Module<T, D>>> modules_;
};

}  // namespace kt::nn

// kt_compiled (kt/core/impl/compiled.hpp): the container.
#define KT_ETI_SEQUENTIAL_ONE(T, D, KW) KW class kt::nn::Sequential<T, D>;
#define KT_ETI_SEQUENTIAL(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_SEQUENTIAL_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_NN)
KT_ETI_SEQUENTIAL(extern template)
#endif

#include "kt/core/impl/public_end.hpp"
