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

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/impl/compiled.hpp"
#include "kt/tensor/impl/reduce_impl.hpp"
#include "kt/tensor/tensor.hpp"

#include <cstdint>

namespace kt {

/// Sum of all elements (`torch.sum(t)`): a rank-0 tensor; int64 for integer dtypes.
template <class T, class D>
Tensor<impl::sum_result_t<T>, D> sum(const D& exec, const Tensor<T, D>& t) {
  KT_PROFILE_REGION("kt::sum");
  using R = impl::sum_result_t<T>;
  return impl::reduce_all<R, false>(exec, "kt::sum", t, impl::SumReducer<T>{}, impl::FinishValue<R>{});
}

/// Sum along `dim` (`torch.sum(t, dim, keepdim)`).
template <class T, class D>
Tensor<impl::sum_result_t<T>, D> sum(const D& exec, const Tensor<T, D>& t, int dim, bool keepdim = false) {
  KT_PROFILE_REGION("kt::sum");
  using R = impl::sum_result_t<T>;
  return impl::reduce_dim<R, false>(exec, "kt::sum", t, dim, keepdim, impl::SumReducer<T>{}, impl::FinishValue<R>{});
}

/// Mean of all elements (`torch.mean(t)`); NaN for an empty tensor.
template <class T, class D>
Tensor<T, D> mean(const D& exec, const Tensor<T, D>& t) {
  static_assert(is_floating_dtype_v<T>, "kt::mean: needs a floating dtype; convert with .to<float>() first");
  KT_PROFILE_REGION("kt::mean");
  return impl::reduce_all<T, false>(exec, "kt::mean", t, impl::SumReducer<T>{},
                                    impl::FinishMean<T, impl::sum_acc_t<T>>{});
}

/// Mean along `dim` (`torch.mean(t, dim, keepdim)`).
template <class T, class D>
Tensor<T, D> mean(const D& exec, const Tensor<T, D>& t, int dim, bool keepdim = false) {
  static_assert(is_floating_dtype_v<T>, "kt::mean: needs a floating dtype; convert with .to<float>() first");
  KT_PROFILE_REGION("kt::mean");
  return impl::reduce_dim<T, false>(exec, "kt::mean", t, dim, keepdim, impl::SumReducer<T>{},
                                    impl::FinishMean<T, impl::sum_acc_t<T>>{});
}

/// The largest element (`torch.max(t)`), or the largest along dim (the values of
/// `torch.max(t, dim)`; their positions are `kt::argmax`). Likewise min, argmax, argmin:
/// positions are int64, of the first extreme.
template <class T, class D>
Tensor<T, D> max(const D& exec, const Tensor<T, D>& t) { return impl::extreme<T, true, false>(exec, "kt::max", t); }
template <class T, class D>
Tensor<T, D> min(const D& exec, const Tensor<T, D>& t) { return impl::extreme<T, false, false>(exec, "kt::min", t); }
template <class T, class D>
Tensor<std::int64_t, D> argmax(const D& exec, const Tensor<T, D>& t) { return impl::extreme<std::int64_t, true, true>(exec, "kt::argmax", t); }
template <class T, class D>
Tensor<std::int64_t, D> argmin(const D& exec, const Tensor<T, D>& t) { return impl::extreme<std::int64_t, false, true>(exec, "kt::argmin", t); }
template <class T, class D>
Tensor<T, D> max(const D& exec, const Tensor<T, D>& t, int dim, bool keepdim = false) {
  return impl::extreme<T, true, false>(exec, "kt::max", t, dim, keepdim);
}
template <class T, class D>
Tensor<T, D> min(const D& exec, const Tensor<T, D>& t, int dim, bool keepdim = false) {
  return impl::extreme<T, false, false>(exec, "kt::min", t, dim, keepdim);
}
template <class T, class D>
Tensor<std::int64_t, D> argmax(const D& exec, const Tensor<T, D>& t, int dim, bool keepdim = false) {
  return impl::extreme<std::int64_t, true, true>(exec, "kt::argmax", t, dim, keepdim);
}
template <class T, class D>
Tensor<std::int64_t, D> argmin(const D& exec, const Tensor<T, D>& t, int dim, bool keepdim = false) {
  return impl::extreme<std::int64_t, false, true>(exec, "kt::argmin", t, dim, keepdim);
}

// The same on the device's default instance.
template <class T, class D>
Tensor<impl::sum_result_t<T>, D> sum(const Tensor<T, D>& t) { return sum(D(), t); }
template <class T, class D>
Tensor<impl::sum_result_t<T>, D> sum(const Tensor<T, D>& t, int dim, bool keepdim = false) { return sum(D(), t, dim, keepdim); }
template <class T, class D>
Tensor<T, D> mean(const Tensor<T, D>& t) { return mean(D(), t); }
template <class T, class D>
Tensor<T, D> mean(const Tensor<T, D>& t, int dim, bool keepdim = false) { return mean(D(), t, dim, keepdim); }
template <class T, class D>
Tensor<T, D> max(const Tensor<T, D>& t) { return max(D(), t); }
template <class T, class D>
Tensor<T, D> min(const Tensor<T, D>& t) { return min(D(), t); }
template <class T, class D>
Tensor<std::int64_t, D> argmax(const Tensor<T, D>& t) { return argmax(D(), t); }
template <class T, class D>
Tensor<std::int64_t, D> argmin(const Tensor<T, D>& t) { return argmin(D(), t); }
template <class T, class D>
Tensor<T, D> max(const Tensor<T, D>& t, int dim, bool keepdim = false) { return max(D(), t, dim, keepdim); }
template <class T, class D>
Tensor<T, D> min(const Tensor<T, D>& t, int dim, bool keepdim = false) { return min(D(), t, dim, keepdim); }
template <class T, class D>
Tensor<std::int64_t, D> argmax(const Tensor<T, D>& t, int dim, bool keepdim = false) { return argmax(D(), t, dim, keepdim); }
template <class T, class D>
Tensor<std::int64_t, D> argmin(const Tensor<T, D>& t, int dim, bool keepdim = false) { return argmin(D(), t, dim, keepdim); }

}  // namespace kt

// kt_compiled (kt/core/impl/compiled.hpp): every reduction of a floating tensor, and the sums
// of integer tensors (counts, such as the correct predictions of a batch).
#define KT_ETI_REDUCE_SUM_ONE(T, D, KW)                                                                     \
  KW kt::Tensor<kt::impl::sum_result_t<T>, D> kt::sum<T, D>(const D&, const kt::Tensor<T, D>&);             \
  KW kt::Tensor<kt::impl::sum_result_t<T>, D> kt::sum<T, D>(const D&, const kt::Tensor<T, D>&, int, bool);
#define KT_ETI_REDUCE_ONE(T, D, KW)                                                                         \
  KT_ETI_REDUCE_SUM_ONE(T, D, KW)                                                                           \
  KW kt::Tensor<T, D> kt::mean<T, D>(const D&, const kt::Tensor<T, D>&);                                    \
  KW kt::Tensor<T, D> kt::mean<T, D>(const D&, const kt::Tensor<T, D>&, int, bool);                         \
  KW kt::Tensor<T, D> kt::max<T, D>(const D&, const kt::Tensor<T, D>&);                                     \
  KW kt::Tensor<T, D> kt::min<T, D>(const D&, const kt::Tensor<T, D>&);                                     \
  KW kt::Tensor<std::int64_t, D> kt::argmax<T, D>(const D&, const kt::Tensor<T, D>&);                       \
  KW kt::Tensor<std::int64_t, D> kt::argmin<T, D>(const D&, const kt::Tensor<T, D>&);                       \
  KW kt::Tensor<T, D> kt::max<T, D>(const D&, const kt::Tensor<T, D>&, int, bool);                          \
  KW kt::Tensor<T, D> kt::min<T, D>(const D&, const kt::Tensor<T, D>&, int, bool);                          \
  KW kt::Tensor<std::int64_t, D> kt::argmax<T, D>(const D&, const kt::Tensor<T, D>&, int, bool);            \
  KW kt::Tensor<std::int64_t, D> kt::argmin<T, D>(const D&, const kt::Tensor<T, D>&, int, bool);
#define KT_ETI_REDUCE_INTEGER_SUMS(D, KW)                                                                   \
  KT_ETI_REDUCE_SUM_ONE(std::int32_t, D, KW) KT_ETI_REDUCE_SUM_ONE(std::int64_t, D, KW)                     \
  KT_ETI_REDUCE_SUM_ONE(std::uint8_t, D, KW)
#define KT_ETI_REDUCE(KW) \
  KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_REDUCE_ONE, KW) KT_ETI_EACH_DEVICE(KT_ETI_REDUCE_INTEGER_SUMS, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_REDUCE)
KT_ETI_REDUCE(extern template)
#endif

#include "kt/core/impl/public_end.hpp"
