#pragma once
/// \file kt/tensor/reduce.hpp
/// Reductions (`torch.sum/mean/max/min/argmax/argmin`) over all elements, giving a rank-0
/// tensor, or along one dimension (negative dims count from the back), dropping it unless
/// `keepdim`. Results are bit-identical on every host device at every thread count: the
/// order of the additions depends on the shape alone (see kt/tensor/impl/reduce_impl.hpp).
///
///     auto x = kt::randn<float>({64, 10}, /*seed=*/0);
///     float total = kt::sum(x).item();              // all elements, accumulated in double
///     auto rows = kt::mean(x, /*dim=*/1);           // shape (64)
///     auto cols = kt::max(x, 0, /*keepdim=*/true);  // shape (1, 10)
///     auto label = kt::argmax(x, -1);               // Tensor<std::int64_t>, shape (64)
///
/// Dtypes: `sum` of an integer tensor is int64 (as in PyTorch), of a floating tensor the same
/// dtype; `mean` needs a floating dtype; `max`/`min` keep the dtype; `argmax`/`argmin` give
/// int64 positions of the first occurrence. NaN propagates through sum, mean, max and min and
/// counts as the extreme for argmax and argmin. The sum of no elements is 0 and their mean NaN;
/// `max`, `min`, `argmax` and `argmin` of no elements throw kt::Error.

#include "kt/tensor/impl/reduce_impl.hpp"
#include "kt/tensor/tensor.hpp"

#include <cstdint>

namespace kt {

/// Sum of all elements (`torch.sum(t)`): a rank-0 tensor; int64 for integer dtypes.
template <class T, class D>
Tensor<impl::sum_result_t<T>, D> sum(const Tensor<T, D>& t) {
  KT_PROFILE_REGION("kt::sum");
  using R = impl::sum_result_t<T>;
  return impl::reduce_all<R, false>("kt::sum", t, impl::SumReducer<T>{}, impl::FinishValue<R>{});
}

/// Sum along `dim` (`torch.sum(t, dim, keepdim)`).
template <class T, class D>
Tensor<impl::sum_result_t<T>, D> sum(const Tensor<T, D>& t, int dim, bool keepdim = false) {
  KT_PROFILE_REGION("kt::sum");
  using R = impl::sum_result_t<T>;
  return impl::reduce_dim<R, false>("kt::sum", t, dim, keepdim, impl::SumReducer<T>{},
                                    impl::FinishValue<R>{});
}

/// Mean of all elements (`torch.mean(t)`); NaN for an empty tensor.
template <class T, class D>
Tensor<T, D> mean(const Tensor<T, D>& t) {
  static_assert(is_floating_dtype_v<T>,
                "kt::mean: needs a floating dtype; convert with .to<float>() first");
  KT_PROFILE_REGION("kt::mean");
  return impl::reduce_all<T, false>("kt::mean", t, impl::SumReducer<T>{},
                                    impl::FinishMean<T, impl::sum_acc_t<T>>{});
}

/// Mean along `dim` (`torch.mean(t, dim, keepdim)`).
template <class T, class D>
Tensor<T, D> mean(const Tensor<T, D>& t, int dim, bool keepdim = false) {
  static_assert(is_floating_dtype_v<T>,
                "kt::mean: needs a floating dtype; convert with .to<float>() first");
  KT_PROFILE_REGION("kt::mean");
  return impl::reduce_dim<T, false>("kt::mean", t, dim, keepdim, impl::SumReducer<T>{},
                                    impl::FinishMean<T, impl::sum_acc_t<T>>{});
}

// max, min, argmax, argmin share one reducer: the extreme value and its first position.
#define KT_DEFINE_EXTREME(name, opname, IsMax, R, Finish)                                     \
  template <class T, class D>                                                                  \
  Tensor<R, D> name(const Tensor<T, D>& t) {                                                   \
    KT_PROFILE_REGION(opname);                                                                 \
    return impl::reduce_all<R, true>(opname, t, impl::ExtremeReducer<T, IsMax>{}, Finish{});   \
  }                                                                                            \
  template <class T, class D>                                                                  \
  Tensor<R, D> name(const Tensor<T, D>& t, int dim, bool keepdim = false) {                    \
    KT_PROFILE_REGION(opname);                                                                 \
    return impl::reduce_dim<R, true>(opname, t, dim, keepdim, impl::ExtremeReducer<T, IsMax>{}, \
                                     Finish{});                                                \
  }

/// `kt::max(t)`: the largest element (`torch.max(t)`); `kt::max(t, dim, keepdim)`: the largest
/// along dim (the values of `torch.max(t, dim)`; their positions are `kt::argmax`).
KT_DEFINE_EXTREME(max, "kt::max", true, T, impl::FinishValue<T>)
/// The smallest element, over all or along dim (`torch.min`).
KT_DEFINE_EXTREME(min, "kt::min", false, T, impl::FinishValue<T>)
/// Flat position of the first largest element, or positions along dim (`torch.argmax`).
KT_DEFINE_EXTREME(argmax, "kt::argmax", true, std::int64_t, impl::FinishIndex)
/// Flat position of the first smallest element, or positions along dim (`torch.argmin`).
KT_DEFINE_EXTREME(argmin, "kt::argmin", false, std::int64_t, impl::FinishIndex)
#undef KT_DEFINE_EXTREME

}  // namespace kt
