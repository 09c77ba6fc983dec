#pragma once
// Helpers of kt::nn::Module (kt/nn/module.hpp): the structure check of copy_state_from, and
// the interface of the recipe a module made by kt::nn::make_module carries (rebind.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/core/device.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/device_list.hpp"

#include <cstddef>
#include <memory>
#include <type_traits>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace kt::nn {
template <class T, class D>
class Module;
}  // namespace kt::nn

namespace kt::impl {

/// The devices a module on D rebuilds itself on at run time (Module::clone_to, and through it
/// Sequential::to, kt::nn::to and make_module's recipe): D and kt::DefaultDevice, between
/// which programs move models (built on the host, trained on the default device), and for a
/// module on a host device kt::Host too. Each device listed instantiates the forward and
/// backward of every layer class there, in every program that builds one: all enabled devices
/// would put a Serial copy of each layer into every OpenMP program (a quarter of a one-Linear
/// program's compile time), and kt::Host a host copy into every module of a GPU program (a
/// quarter of a one-Linear program's nvcc time, docs/performance.md). A GPU model reaches the
/// host by copy_state_from into one built there; checkpoints need no move.
template <class D>
using module_devices = unique_device_list_t<D, DefaultDevice, std::conditional_t<is_host_accessible_v<D>, Host, D>>;

/// One of module_devices<D>, chosen at run time: std::variant<DeviceTag<D2>...>.
template <class D>
using ModuleDevice = typename any_device_of<module_devices<D>>::type;

/// A module of dtype T on one of module_devices<D>, the device chosen at run time: what
/// Module::rebuild_on returns, std::variant<std::shared_ptr<nn::Module<T, D2>>...>.
template <class T, class List>
struct any_device_module;
template <class T, class... Ds>
struct any_device_module<T, DeviceList<Ds...>> {
  using type = std::variant<std::shared_ptr<nn::Module<T, Ds>>...>;
};
template <class T, class D>
using AnyDeviceModule = typename any_device_module<T, module_devices<D>>::type;

/// How a module rebuilds itself on another device when its class cannot say so: kept by a
/// module that kt::nn::make_module built, shared by its copies on other devices.
template <class T, class D>
struct ModuleRecipe {
  virtual ~ModuleRecipe() = default;
  /// `module` rebuilt on `device`, its state copied; a null pointer where that is not possible.
  virtual AnyDeviceModule<T, D> rebuild(const nn::Module<T, D>& module, const ModuleDevice<D>& device) const = 0;
};
/// Reads and sets a module's recipe (rebind.hpp).
struct ModuleRecipeAccess;

template <class X>
struct is_shared_ptr : std::false_type {};
template <class X>
struct is_shared_ptr<std::shared_ptr<X>> : std::true_type {};

/// Enables the by-value overloads of register_module / push_back (an rvalue module, not a
/// shared_ptr).
template <class M>
using module_value_t = std::enable_if_t<!std::is_lvalue_reference_v<M> && !is_shared_ptr<std::decay_t<M>>::value, int>;

/// Same names, in the same order, with the same shapes; kt::Error naming the first difference.
template <class A, class B>
void require_same_structure(const std::string& module, const std::vector<std::pair<std::string, A>>& dst,
                            const std::vector<std::pair<std::string, B>>& src, const char* what) {
  KT_REQUIRE(dst.size() == src.size(), "kt::nn::Module::copy_state_from: ", module, " has ", dst.size(), " ",
             what, "s but the source has ", src.size());
  for (std::size_t i = 0; i < dst.size(); ++i) {
    KT_REQUIRE(dst[i].first == src[i].first, "kt::nn::Module::copy_state_from: ", what, " ", i, " of ", module,
               " is '", dst[i].first, "' but the source's is '", src[i].first, "'");
    KT_REQUIRE(dst[i].second.shape() == src[i].second.shape(), "kt::nn::Module::copy_state_from: ", what, " '",
               dst[i].first, "' of ", module, " has shape ", dst[i].second.shape().str(),
               " but the source's has shape ", src[i].second.shape().str());
  }
}

}  // namespace kt::impl
