#pragma once
/// \file kt/nn/sequential.hpp
/// `kt::nn::Sequential` (`torch.nn.Sequential`): modules composed at run time, applied in
/// order; children are named "0", "1", ... so parameter names match PyTorch's.
///
///     kt::nn::Sequential<float> model;
///     model.push_back(kt::nn::Linear<float>(kt::nn::LinearOptions(784, 256).activation(kt::Activation::ReLU)));
///     model.push_back(kt::nn::Linear<float>(256, 10));
///     auto logits = model(x);
///     auto gpu = model.to<kt::Cuda>();      // std::shared_ptr<Sequential<float, kt::Cuda>>

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
  template <class M, class = std::enable_if_t<std::is_base_of_v<Module<T, D>, M>>>
  Sequential& push_back(std::shared_ptr<M> module) {
    KT_REQUIRE(module != nullptr, "kt::nn::Sequential::push_back: the module is null");
    this->register_module(std::to_string(modules_.size()), module);
    modules_.push_back(std::move(module));
    return *this;
  }
  /// Appends a module given by value (moved into the Sequential).
  template <class M, class = std::enable_if_t<std::is_base_of_v<Module<T, D>, std::decay_t<M>> &&
                                              !std::is_lvalue_reference_v<M>>>
  Sequential& push_back(M&& module) {
    return push_back(std::make_shared<std::decay_t<M>>(std::move(module)));
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
  std::string name() const override { return "Sequential"; }

  /// A copy of the whole stack on device D2.
  template <class D2>
  std::shared_ptr<Sequential<T, D2>> to() const {
    auto copy = std::make_shared<Sequential<T, D2>>();
    for (auto& m : modules_) copy->push_back(m->template to<D2>());
    copy->train(this->is_training());
    return copy;
  }

private:
#define KT_NN_DEFINE_TO(Dev) \
  std::shared_ptr<Module<T, Dev>> to_device(impl::DeviceTag<Dev>) const override { return to<Dev>(); }
  KT_NN_FOR_EACH_DEVICE(KT_NN_DEFINE_TO)
#undef KT_NN_DEFINE_TO

  std::vector<std::shared_ptr<Module<T, D>>> modules_;
};

}  // namespace kt::nn
