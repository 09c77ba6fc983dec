#pragma once
/// \file kt/optim/params.hpp
/// `kt::optim::Params<T, D>`: the parameter list an optimizer takes — `model.parameters()`, a
/// `std::vector<kt::Var<T, D>>` or a braced list `{w, b}`. Parameters of another device or
/// dtype than the optimizer's do not compile, with a message saying how to fix it.
///
///     kt::optim::SGD<float, kt::Cuda> opt(gpu_model.parameters(), 0.01);

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/var.hpp"

#include <initializer_list>
#include <type_traits>
#include <utility>
#include <vector>

namespace kt::optim {

template <class T, class D>
class Params {
public:
  Params() = default;
  Params(std::vector<Var<T, D>> params) : params_(std::move(params)) {}  // NOLINT: implicit
  Params(std::initializer_list<Var<T, D>> params) : params_(params) {}    // NOLINT: implicit
  /// Parameters of another dtype or device: a compile error naming the fix.
  template <class T2, class D2, std::enable_if_t<!std::is_same_v<T2, T> || !std::is_same_v<D2, D>, int> = 0>
  Params(const std::vector<Var<T2, D2>>&) {  // NOLINT: implicit
    static_assert(std::is_same_v<D2, D>,
                  "kt::optim: the parameters are on another device than the optimizer (D2 and D in the "
                  "instantiation above): build the optimizer for the model's device, e.g. "
                  "kt::optim::Adam<float, kt::Cuda>(model.parameters()), after moving the model");
    static_assert(std::is_same_v<T2, T>,
                  "kt::optim: the parameters have another dtype than the optimizer (T2 and T in the "
                  "instantiation above): use the model's dtype, e.g. kt::optim::SGD<float, D>");
  }

  std::vector<Var<T, D>>&& take() && { return std::move(params_); }

private:
  std::vector<Var<T, D>> params_;
};

}  // namespace kt::optim

#include "kt/core/impl/public_end.hpp"
