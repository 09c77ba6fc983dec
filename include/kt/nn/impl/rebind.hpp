#pragma once
// Naming a module class on another device, rebuilding a module on a device chosen at run time
// among the enabled ones, and the constructor-argument recipe of kt::nn::make_module
// (kt/nn/to_device.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/core/device.hpp"
#include "kt/core/impl/device_list.hpp"
#include "kt/nn/module.hpp"

#include <memory>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <variant>

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

/// The body of Module<T, D>::rebuild_on: `make(DeviceTag<D2>{})` returns the rebuilt module
/// (any Module<T, D2>-derived value) for the device D2 that `device` holds.
template <class T, class D, class F>
AnyDeviceModule<T, D> rebuild_for(const ModuleDevice<D>& device, F&& make) {
  return std::visit(
      [&](auto tag) -> AnyDeviceModule<T, D> {
        using D2 = typename decltype(tag)::type;
        using M2 = decltype(make(tag));
        return std::shared_ptr<nn::Module<T, D2>>(std::make_shared<M2>(make(tag)));
      },
      device);
}

struct ModuleRecipeAccess {
  template <class T, class D>
  static void set(nn::Module<T, D>& module, std::shared_ptr<const ModuleRecipe<T, D>> recipe) {
    module.recipe_ = std::move(recipe);
  }
  template <class T, class D>
  static bool has(const nn::Module<T, D>& module) {
    return module.recipe_ != nullptr;
  }
};

/// The recipe of a module of class M built from `args`: on another device D2, M's class on
/// D2 built from the same arguments (a constructor taking device-typed arguments, such as a
/// Tensor<T, D>, cannot be: rebuild() returns null and clone_to() says why).
template <class M, class... Args>
class ConstructorRecipe final : public ModuleRecipe<typename M::value_type, typename M::device_type> {
public:
  using T = typename M::value_type;
  using D = typename M::device_type;
  explicit ConstructorRecipe(std::tuple<Args...> args) : args_(std::move(args)) {}

  AnyDeviceModule<T, D> rebuild(const nn::Module<T, D>& module, const ModuleDevice<D>& device) const override;

private:
  std::tuple<Args...> args_;
};

/// An M built from `args`, remembering them: what kt::nn::make_module returns.
template <class M, class... Args>
std::shared_ptr<M> make_recorded(std::tuple<Args...> args) {
  auto module = std::apply([](const auto&... a) { return std::make_shared<M>(a...); }, args);
  ModuleRecipeAccess::set<typename M::value_type, typename M::device_type>(
      *module, std::make_shared<const ConstructorRecipe<M, Args...>>(std::move(args)));
  return module;
}

template <class M, class... Args>
AnyDeviceModule<typename M::value_type, typename M::device_type> ConstructorRecipe<M, Args...>::rebuild(
    const nn::Module<T, D>& module, const ModuleDevice<D>& device) const {
  return std::visit(
      [&](auto tag) -> AnyDeviceModule<T, D> {
        using D2 = typename decltype(tag)::type;
        using M2 = rebind_device_t<M, D2>;
        if constexpr (std::is_constructible_v<M2, const Args&...>) {
          auto copy = make_recorded<M2>(args_);
          copy->copy_state_from(module);
          return std::shared_ptr<nn::Module<T, D2>>(std::move(copy));
        } else {
          return std::shared_ptr<nn::Module<T, D2>>();
        }
      },
      device);
}

/// `module` as a new module of its class on D2 with its state, without constructor arguments:
/// through the recipe of kt::nn::make_module, else (a class with a default constructor) built
/// there and its state copied; otherwise kt::Error (clone_to's message says what to do).
template <class D2, class M>
rebind_device_t<M, D2> recorded_to(const M& module) {
  using M2 = rebind_device_t<M, D2>;
  if constexpr (std::is_default_constructible_v<M2>) {
    if (!ModuleRecipeAccess::has(module)) return rebuilt_on<D2>(module);
  }
  auto copy = module.template clone_to<D2>();
  auto* typed = dynamic_cast<M2*>(copy.get());
  KT_REQUIRE(typed != nullptr && typeid(*typed) == typeid(M2), "kt::nn::to<", D2::name(), ">: the module is a ",
             module.name(), ", of a class derived from the one it is passed as; pass it as a shared_ptr "
             "(kt::nn::to<D2>(pointer)) to keep its class");
  return std::move(*typed);
}

}  // namespace kt::impl
