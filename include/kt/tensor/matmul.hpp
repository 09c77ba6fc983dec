#pragma once
/// \file kt/tensor/matmul.hpp
/// Matrix products (`torch.matmul`): (M, K) x (K, N) -> (M, N); batched (B, M, K) x (B, K, N)
/// -> (B, M, N); and a 2-D operand or a batch of 1 broadcast against the other's batch, e.g.
/// (B, M, K) x (K, N) -> (B, M, N). Both tensors must be on one device and of one dtype —
/// mixing does not compile, and the message says to call `.to<...>()`. kt::half and
/// kt::bfloat16 multiply in fp32 and round once (mixed-precision GEMM); double accumulates in
/// double; integer dtypes accumulate in int64 and wrap to T.
///
///     auto x = kt::randn<float>({64, 784}, /*seed=*/0);
///     auto w = kt::randn<float>({784, 10}, /*seed=*/1);
///     auto y = kt::matmul(x, w);                       // (64, 10)
///     kt::OpenMP exec;                                 // or a Cuda stream's instance
///     auto z = kt::matmul(exec, x.to<kt::OpenMP>(), w.to<kt::OpenMP>());
///     auto l = kt::matmul(x, w2, kt::MatmulOptions().transpose_b(true));   // x · w2ᵀ
///
/// Floating dtypes run through kt's GEMM dispatch (kt/backend/gemm.hpp): OpenBLAS or Eigen on
/// the host, cuBLAS on Cuda, the portable Kokkos kernel anywhere.

#include "kt/core/impl/public_begin.hpp"

#include "kt/tensor/impl/matmul_impl.hpp"
#include "kt/tensor/matmul_options.hpp"
#include "kt/tensor/impl/same_device.hpp"
#include "kt/tensor/tensor.hpp"

#include <type_traits>

namespace kt {

/// `matmul(a, b)` ordered on the execution-space instance `exec` (a CUDA stream on GPUs);
/// fence `exec` before reading the result from elsewhere.
template <class Exec, class T1, class D1, class T2, class D2>
Tensor<T1, D1> matmul(const Exec& exec, const Tensor<T1, D1>& a, const Tensor<T2, D2>& b,
                      const MatmulOptions& options = {}) {
  impl::require_same_device<D1, D2>();
  impl::require_same_dtype<T1, T2>();
  impl::require_instance_of<Exec, D1>();
  KT_PROFILE_REGION("kt::matmul");
  if constexpr (std::is_same_v<D1, D2> && std::is_same_v<T1, T2> && std::is_same_v<Exec, D1>)
    return impl::matmul(exec, a, b, options);
  else
    return {};  // unreachable: a static_assert above has failed
}

/// The product op(a) · op(b) (options: transposes, alpha) on the device's default instance.
template <class T1, class D1, class T2, class D2>
Tensor<T1, D1> matmul(const Tensor<T1, D1>& a, const Tensor<T2, D2>& b, const MatmulOptions& options = {}) {
  return matmul(D1(), a, b, options);
}

/// In place: out = beta * out + alpha * op(a) · op(b) (`torch.addmm_`, `baddbmm_`), ordered on
/// `exec`; out must have the product's shape. With beta(1) it accumulates, e.g. weight
/// gradients. out may be fp32 for kt::half / kt::bfloat16 operands (`torch.mm(..., out_dtype=
/// torch.float32)`): the fp32 accumulation is kept without rounding to 16 bits — an fp32 master
/// weight's gradient straight from 16-bit activations.
template <class Exec, class T1, class D1, class T2, class D2, class T3, class D3>
const Tensor<T1, D1>& addmm_(const Exec& exec, const Tensor<T1, D1>& out, const Tensor<T2, D2>& a,
                             const Tensor<T3, D3>& b, const MatmulOptions& options = {}) {
  impl::require_same_device<D1, D2>();
  impl::require_same_device<D1, D3>();
  impl::require_same_dtype<T2, T3>();
  impl::require_product_output<T1, T2>();
  impl::require_instance_of<Exec, D1>();
  if constexpr (std::is_same_v<D1, D2> && std::is_same_v<D1, D3> && gemm_output_ok_v<T2, T1> &&
                std::is_same_v<T2, T3> && std::is_same_v<Exec, D1>) {
    KT_PROFILE_REGION("kt::addmm_");
    KT_REQUIRE(out.defined() && a.defined() && b.defined(), "kt::addmm_: an operand is undefined");
    const auto plan = impl::matmul_plan<T2, T1>(a.shape(), b.shape(), options);
    KT_REQUIRE(out.shape() == plan.out, "kt::addmm_: out has shape ", out.shape().str(),
               " but the product of ", a.shape().str(), " and ", b.shape().str(), " has shape ", plan.out.str());
    impl::matmul_into(exec, a, b, out, plan, options.gemm());
  }
  return out;
}

/// addmm_ on the device's default instance.
template <class T1, class D1, class T2, class D2, class T3, class D3>
const Tensor<T1, D1>& addmm_(const Tensor<T1, D1>& out, const Tensor<T2, D2>& a, const Tensor<T3, D3>& b,
                             const MatmulOptions& options = {}) {
  return addmm_(D1(), out, a, b, options);
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
