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

#include "kt/autograd/impl/autocast_twin.hpp"
#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/core/impl/parallel_for.hpp"
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
  // Under kt::amp::autocast, in the 16-bit dtype of x's twin (kt/autograd/impl/autocast_twin.hpp).
  if (Var<T, D> result; impl::run_on_twins<T, D>(result, [&](const auto& t) { return dropout(t, p, training, gen); }, x))
    return result;
  const D exec;
  // Drawn as fp32 uniforms whatever T, so a seed drops the same elements in every dtype; the
  // survivors' scale 1 / (1 − p) in T's compute type.
  const Tensor<float, D> u = rand<float>(exec, x.shape(), gen);
  const Tensor<T, D> mask(x.shape(), exec);
  impl::parallel_for(exec, "kt::dropout_mask", mask.numel(),
                     impl::DropoutMask<T, typename Tensor<T, D>::memory_space>{
                         mask.view(), u.view(), float(p), p < 1 ? compute_t<T>(1.0 / (1.0 - p)) : compute_t<T>(0)});
  return impl::record("kt::dropout", x.data() * mask, {x}, [mask](const Tensor<T, D>& g, const impl::Needs&) {
    return std::vector<Tensor<T, D>>{g * mask};
  });
}

}  // namespace kt
