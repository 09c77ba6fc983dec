#pragma once
/// \file kt/nn/to_device.hpp
/// Moving a module to another device. In kt the device is part of a module's type, so a move
/// builds a new module there and copies the state (parameters, buffers, mode); the original
/// is untouched. Built-in layers do it themselves (`linear.to<kt::Cuda>()`); for a module of
/// your own that is a class template over its device, pass the constructor arguments:
///
///     Net<kt::Host> net(784, 10);
///     auto gpu = kt::nn::to<kt::DefaultDevice>(net, 784, 10);    // Net<kt::DefaultDevice>
///     kt::optim::Adam<float, kt::DefaultDevice> opt(gpu.parameters());   // after the move
///
/// To let a Sequential containing your module move it too, override rebuild_on:
///
///     std::shared_ptr<void> rebuild_on(const std::type_info& device) const override {
///       return kt::nn::rebuild_as(*this, device, 784, 10);
///     }

#include "kt/core/device.hpp"
#include "kt/core/impl/device_list.hpp"
#include "kt/nn/impl/rebind.hpp"
#include "kt/nn/module.hpp"

#include <memory>
#include <type_traits>
#include <typeinfo>
#include <utility>

namespace kt::nn {


/// `module` rebuilt with `args` on the device whose typeid is `device` (one of the enabled
/// devices), its state copied: the body of a rebuild_on override.
template <class M, class... Args>
std::shared_ptr<void> rebuild_as(const M& module, const std::type_info& device, const Args&... args) {
  return kt::impl::rebuild_for<typename M::value_type>(device, [&](auto tag) {
    return kt::impl::rebuilt_on<typename decltype(tag)::type>(module, args...);
  });
}

/// A copy of `module` on device D2 — also when D2 is its own device, so generic code can write
/// `kt::nn::to<kt::DefaultDevice>(model)` whether the default device is the host or a GPU.
/// Built-in layers and Sequential need no arguments; a module of your own is built there with
/// `args` (its constructor arguments), then the state is copied (parameters, requires_grad,
/// buffers, train/eval mode).
template <class D2, class M, class... Args>
auto to(const M& module, Args&&... args) {
  static_assert(is_device_v<D2>, "kt::nn::to<D2>: D2 must be a device (kt::Serial, kt::OpenMP, kt::Cuda, ...)");
  if constexpr (sizeof...(Args) == 0 && kt::impl::has_clone_v<M>) {
    return module.template to<D2>();  // a copy also on the module's own device
  } else {
    return kt::impl::rebuilt_on<D2>(module, std::forward<Args>(args)...);
  }
}

}  // namespace kt::nn
