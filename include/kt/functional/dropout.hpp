#pragma once
/// \file kt/functional/dropout.hpp
/// Inverted dropout (`torch.nn.functional.dropout`): in training, each element is zeroed with
/// probability p and the survivors are scaled by 1 / (1 − p); in evaluation it is the
/// identity. The mask comes from kt's counter-based Philox generator, so a seed gives the same
/// mask on every device and thread count; the Generator advances once per call.
///
///     kt::Generator gen(/*seed=*/0);
///     auto y = kt::dropout(x, 0.1, /*training=*/true, gen);

#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/functional/impl/dropout_mask.hpp"
#include "kt/tensor/elementwise.hpp"
#include "kt/tensor/impl/binary.hpp"
#include "kt/tensor/random.hpp"

#include <vector>

namespace kt {

template <class T, class D>
Var<T, D> dropout(const Var<T, D>& x, double p, bool training, Generator& gen = default_generator()) {
  KT_PROFILE_REGION("kt::dropout");
  impl::require_defined("kt::dropout", {x});
  KT_REQUIRE(p >= 0 && p <= 1, "kt::dropout: probability has to be between 0 and 1, but got ", p);
  if (!training || p == 0) return x;
  using C = compute_t<T>;
  const D exec;
  const Tensor<T, D> mask = impl::unary("kt::dropout_mask", exec, rand<T>(exec, x.shape(), gen),
                                        impl::DropoutMask<C>{C(p), p < 1 ? C(1.0 / (1.0 - p)) : C(0)});
  return impl::record("kt::dropout", x.data() * mask, {x}, [mask](const Tensor<T, D>& g, const impl::Needs&) {
    return std::vector<Tensor<T, D>>{g * mask};
  });
}

}  // namespace kt
