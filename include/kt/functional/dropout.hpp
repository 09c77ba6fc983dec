#pragma once
/// \file kt/functional/dropout.hpp
/// Inverted dropout (`torch.nn.functional.dropout`): in training, each element is zeroed with
/// probability p and the survivors are scaled by 1 / (1 − p); in evaluation it is the
/// identity. The mask comes from kt's counter-based Philox generator (fp32 uniforms), so a seed
/// gives the same mask on every device and thread count and in every dtype; the Generator
/// advances once per call.
///
///     kt::Generator gen(/*seed=*/0);
///     auto y = kt::dropout(x, 0.1, /*training=*/true, gen);

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/impl/autocast_dispatch.hpp"
#include "kt/autograd/impl/times_constant.hpp"
#include "kt/autograd/var.hpp"
#include "kt/tensor/impl/dropout_impl.hpp"

namespace kt {

template <class T, class D>
Var<T, D> dropout(const Var<T, D>& x, double p, bool training, Generator& gen = default_generator()) {
  KT_PROFILE_REGION("kt::dropout");
  impl::require_defined("kt::dropout", {x});
  KT_REQUIRE(p >= 0 && p <= 1, "kt::dropout: probability has to be between 0 and 1, but got ", p);
  if (!training || p == 0) return x;
  // Under kt::amp::autocast, in the 16-bit dtype of x's twin (kt/autograd/impl/autocast_twin.hpp).
  if (Var<T, D> result; impl::autocast_dispatch<impl::op_tag::Dropout, T, D>(result, [&](const auto& t) { return dropout(t, p, training, gen); }, x))
    return result;
  return impl::times_constant("kt::dropout", x, impl::dropout_mask<T>(D(), x.shape(), p, gen));
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
