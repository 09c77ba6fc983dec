#pragma once
// The base of kt's own layers: a Module that can rebuild itself from its options() on any
// enabled device (Linear, LayerNorm, Dropout, the activations, ...). User modules derive from
// kt::nn::Module directly and need none of this.

#include "kt/core/impl/internal.hpp"

#include "kt/nn/impl/rebind.hpp"
#include "kt/nn/module.hpp"

#include <memory>
#include <type_traits>

namespace kt::impl {

template <class Derived, class T, class D>
class Layer : public nn::Module<T, D> {
public:
  /// A copy on device D2: parameters, buffers and mode copied; this layer is untouched. On
  /// the layer's own device, an independent copy (clone()): generic code can write
  /// `layer.to<kt::DefaultDevice>()` whether that is the host or a GPU.
  template <class D2>
  rebind_device_t<Derived, D2> to() const {
    return rebuilt_on<D2>(self(), self().options());
  }
  /// An independent deep copy on the same device.
  Derived clone() const { return rebuilt_on<D>(self(), self().options()); }

  AnyDeviceModule<T, D> rebuild_on(const ModuleDevice<D>& device) const override {
    return rebuild_for<T, D>(device, [&](auto tag) {
      return rebuilt_on<typename decltype(tag)::type>(self(), self().options());
    });
  }

private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace kt::impl
