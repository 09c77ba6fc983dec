#pragma once
// Naming a module class on another device, and rebuilding a module on a device chosen at run
// time among the enabled ones (kt/nn/to_device.hpp).

#include "kt/core/device.hpp"
#include "kt/core/impl/device_list.hpp"
#include "kt/nn/module.hpp"

#include <memory>
#include <type_traits>
#include <typeinfo>
#include <utility>

namespace kt::impl {

/// M with every template argument that is a device replaced by D2 (Linear<float, Serial> ->
/// Linear<float, Cuda>; Net<Serial> -> Net<Cuda>).
template <class M, class D2>
struct rebind_device {
  static_assert(sizeof(M) == 0,
                "kt::nn::to<D2>(module, ...): the module's class must be a template over its device "
                "(template <class D> struct Net : kt::nn::Module<float, D>) so kt can name it on D2");
};
template <template <class...> class Tmpl, class... Args, class D2>
struct rebind_device<Tmpl<Args...>, D2> {
  using type = Tmpl<std::conditional_t<is_device_v<Args>, D2, Args>...>;
};
template <class M, class D2>
using rebind_device_t = typename rebind_device<M, D2>::type;

/// M's class on D2 built with `args`, with `module`'s state copied.
template <class D2, class M, class... Args>
rebind_device_t<M, D2> rebuilt_on(const M& module, Args&&... args) {
  rebind_device_t<M, D2> copy(std::forward<Args>(args)...);
  copy.copy_state_from(module);
  return copy;
}

/// Whether M copies itself (built-in layers and Sequential: clone() and to<D2>() members).
template <class M, class = void>
struct has_clone : std::false_type {};
template <class M>
struct has_clone<M, std::void_t<decltype(std::declval<const M&>().clone())>> : std::true_type {};
template <class M>
constexpr bool has_clone_v = has_clone<M>::value;

/// The body of Module::rebuild_on: `make(DeviceTag<D2>{})` returns the rebuilt module (any
/// Module<T, D2>-derived value) for the enabled device D2 whose typeid is `device`.
template <class T, class F>
std::shared_ptr<void> rebuild_for(const std::type_info& device, F&& make) {
  return for_device<std::shared_ptr<void>>(device, enabled_devices{}, [&](auto tag) -> std::shared_ptr<void> {
    using D2 = typename decltype(tag)::type;
    using M2 = decltype(make(tag));
    return std::shared_ptr<nn::Module<T, D2>>(std::make_shared<M2>(make(tag)));
  });
}

}  // namespace kt::impl
