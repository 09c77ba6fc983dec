#pragma once
// The one door to a kt::Var's state for kt's own code (the graph recorder, the engine, the
// optimizers, modules): Var keeps its state private and befriends this struct only.

#include "kt/core/impl/internal.hpp"

#include <memory>
#include <utility>

namespace kt {
template <class T, class D>
class Var;
}

namespace kt::impl {

template <class T, class D>
struct VarImpl;
struct AutocastTwinBase;  // kt/autograd/impl/autocast_twin.hpp

struct VarAccess {
  /// The autograd state (what the graph refers to).
  template <class T, class D>
  static const std::shared_ptr<VarImpl<T, D>>& state(const Var<T, D>& v) {
    return v.impl_;
  }
  /// The 16-bit twin a Var carries under autocast (type-erased; kt/autograd/impl/autocast_twin.hpp).
  template <class T, class D>
  static const std::shared_ptr<const AutocastTwinBase>& twin(const Var<T, D>& v) {
    return v.twin_;
  }
  template <class T, class D>
  static void set_twin(Var<T, D>& v, std::shared_ptr<const AutocastTwinBase> twin) {
    v.twin_ = std::move(twin);
  }
  /// A Var of `value` with the autograd state `state` (an op's output).
  template <class T, class D, class Value>
  static Var<T, D> make(Value value, std::shared_ptr<VarImpl<T, D>> state) {
    Var<T, D> v;
    v.value_ = std::move(value);
    v.impl_ = std::move(state);
    return v;
  }
};

}  // namespace kt::impl
