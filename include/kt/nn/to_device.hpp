#pragma once
/// \file kt/nn/to_device.hpp
/// Moving a module to another device (`model.to(device)`). In kt the device is part of a
/// module's type, so a move builds a new module of the same class on the other device and
/// copies the state (parameters, requires_grad, buffers, train/eval mode); the original is
/// untouched, and an optimizer must be built for the new one.
///
///     auto net = kt::nn::make_module<Net<kt::Host>>(784, 10);   // std::make_shared<Net>(784, 10)
///     auto gpu = kt::nn::to<kt::DefaultDevice>(net);              // shared_ptr<Net<DefaultDevice>>
///     kt::optim::Adam<float, kt::DefaultDevice> opt(gpu->parameters());   // after the move
///
/// Built-in layers and Sequential know how to rebuild themselves. A module of your own (a class
/// template over its device, built from registered parts) needs nothing more than its
/// constructor and forward: kt::nn::make_module records the constructor arguments, so the
/// module, and a Sequential holding it, moves with no arguments. C++ cannot recover the
/// arguments of a module constructed directly (`Net<kt::Host> net(784, 10)`): move that one
/// with `kt::nn::to<D2>(net, 784, 10)`, or give its class a default constructor.

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/device.hpp"
#include "kt/core/impl/device_list.hpp"
#include "kt/nn/impl/rebind.hpp"
#include "kt/nn/module.hpp"

#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

namespace kt::nn {

/// An M built from `args` that remembers them, so that it (and a Sequential holding it) can
/// move to another device with no arguments: kt's `std::make_shared<M>(args...)`.
template <class M, class... Args>
std::shared_ptr<M> make_module(Args&&... args) {
  static_assert(std::is_base_of_v<Module<typename M::value_type, typename M::device_type>, M>,
                "kt::nn::make_module<M>: M must be a kt::nn::Module");
  return kt::impl::make_recorded<M>(std::tuple<std::decay_t<Args>...>(std::forward<Args>(args)...));
}

/// A copy of `module` on device D2 — also when D2 is its own device, so generic code can write
/// `kt::nn::to<kt::DefaultDevice>(model)` whether the default device is the host or a GPU.
/// Without `args`: built-in layers, Sequential, modules made by make_module and modules with a
/// default constructor; a Sequential or a make_module module moves so to its own device or
/// kt::DefaultDevice, and from a host device to kt::Host (Module::clone_to). With `args` (its
/// constructor arguments): any module of your own, to any device.
template <class D2, class M, class... Args>
auto to(const M& module, Args&&... args) {
  static_assert(is_device_v<D2>, "kt::nn::to<D2>: D2 must be a device (kt::Serial, kt::OpenMP, kt::Cuda, ...)");
  if constexpr (sizeof...(Args) == 0 && kt::impl::has_clone_v<M>) {
    return module.template to<D2>();  // a copy also on the module's own device
  } else if constexpr (sizeof...(Args) == 0) {
    return kt::impl::recorded_to<D2>(module);
  } else {
    return kt::impl::rebuilt_on<D2>(module, std::forward<Args>(args)...);
  }
}

/// The same for a module held by shared_ptr (as make_module and Sequential hold them): a
/// shared_ptr to the copy on D2, of the module's own class.
template <class D2, class M>
std::shared_ptr<kt::impl::rebind_device_t<M, D2>> to(const std::shared_ptr<M>& module) {
  static_assert(is_device_v<D2>, "kt::nn::to<D2>: D2 must be a device (kt::Serial, kt::OpenMP, kt::Cuda, ...)");
  KT_REQUIRE(module != nullptr, "kt::nn::to<", D2::name(), ">: the module is null");
  using M2 = kt::impl::rebind_device_t<M, D2>;
  if constexpr (std::is_default_constructible_v<M2> && !kt::impl::has_clone_v<M>) {
    return std::make_shared<M2>(kt::impl::recorded_to<D2>(*module));
  } else {
    auto copy = std::dynamic_pointer_cast<M2>(module->template clone_to<D2>());
    KT_REQUIRE(copy != nullptr, "kt::nn::to<", D2::name(), ">: ", module->name(), " was rebuilt as another class");
    return copy;
  }
}

}  // namespace kt::nn

#include "kt/core/impl/public_end.hpp"
