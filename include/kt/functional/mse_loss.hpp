#pragma once
/// \file kt/functional/mse_loss.hpp
/// Mean squared error (`F.mse_loss`): (input − target)², reduced by mean, sum or none. Input
/// and target have one shape; either may be a Tensor (a constant), e.g. labels.
///
///     auto loss = kt::mse_loss(model(x), y);     // y: a Tensor
///     auto total = kt::mse_loss(pred, y, kt::MSELossOptions().reduction(kt::Reduction::Sum));

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/elementwise.hpp"
#include "kt/autograd/impl/autocast_dispatch.hpp"
#include "kt/autograd/impl/operand.hpp"
#include "kt/autograd/reduce.hpp"
#include "kt/autograd/var.hpp"
#include "kt/functional/reduction.hpp"

namespace kt {

/// Options of kt::mse_loss.
class MSELossOptions {
public:
  MSELossOptions& reduction(Reduction r) { reduction_ = r; return *this; }
  Reduction reduction() const { return reduction_; }

private:
  Reduction reduction_ = Reduction::Mean;
};

template <class I, class G, impl::var_operands_t<I, G> = 0>
auto mse_loss(const I& input_, const G& target_, const MSELossOptions& options = {}) -> impl::var_of_t<I, G> {
  using V = impl::var_of_t<I, G>;
  impl::require_compatible<V, I>();
  impl::require_compatible<V, G>();
  KT_PROFILE_REGION("kt::mse_loss");
  const V input = impl::as_var<V>(input_), target = impl::as_var<V>(target_);
  impl::require_defined("kt::mse_loss", {input, target});
  KT_REQUIRE(input.shape() == target.shape(), "kt::mse_loss: input ", input.shape().str(), " and target ",
             target.shape().str(), " differ in shape");
  using T = typename V::value_type;
  using D = typename V::device_type;
  // On PyTorch's fp32 list: the inner ops must not continue from 16-bit twins.
  if (V result; impl::autocast_dispatch<impl::op_tag::MseLoss, T, D>(
          result, [&](const V& i, const V& t) { return mse_loss(i, t, options); }, input, target))
    return result;
  const V diff = input - target;
  const V squared = diff * diff;
  if (options.reduction() == Reduction::None) return squared;
  return options.reduction() == Reduction::Sum ? kt::sum(squared) : kt::mean(squared);
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
