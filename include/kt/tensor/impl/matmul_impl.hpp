#pragma once
// The portable matmul kernel behind kt/tensor/matmul.hpp: one thread per output element,
// a sequential loop over K in the accumulation type. Correct for every shape and dtype;
// the fast paths (tiled kernel, BLAS, cuBLAS) belong in kt/backend/.

#include "kt/core/dtype.hpp"
#include "kt/core/error.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kt::impl {

/// The type matmul accumulates in: the compute type for floating dtypes (fp32 for 16-bit
/// inputs, double for double), int64 for integers.
template <class T>
using matmul_acc_t = std::conditional_t<std::is_integral_v<T>, std::int64_t, compute_t<T>>;

/// The batch, rows, inner and column extents of a product and each operand's batch stride
/// (0 when a 2-D operand or a batch of 1 is broadcast).
struct MatmulDims {
  std::int64_t batch, m, k, n, stride_a, stride_b;
  Shape out;
};

inline MatmulDims matmul_dims(const Shape& a, const Shape& b) {
  KT_REQUIRE((a.rank() == 2 || a.rank() == 3) && (b.rank() == 2 || b.rank() == 3),
             "kt::matmul: expects 2-D or 3-D operands, got ranks ", a.rank(), " and ", b.rank(),
             ": ", a.str(), " x ", b.str());
  const std::int64_t m = a[-2], k = a[-1], n = b[-1];
  KT_REQUIRE(b[-2] == k, "kt::matmul: inner dimensions differ: ", a.str(), " x ", b.str());
  const std::int64_t ba = a.rank() == 3 ? a[0] : 1, bb = b.rank() == 3 ? b[0] : 1;
  KT_REQUIRE(ba == bb || ba == 1 || bb == 1, "kt::matmul: batch dimensions differ: ", a.str(),
             " x ", b.str());
  const std::int64_t batch = ba == 1 ? bb : ba;
  MatmulDims d{batch, m, k, n, ba == 1 ? 0 : m * k, bb == 1 ? 0 : k * n, Shape{m, n}};
  if (a.rank() == 3 || b.rank() == 3) d.out = Shape{batch, m, n};
  return d;
}

template <class ExecSpace, class T, class D>
Tensor<T, D> matmul(const ExecSpace& exec, const Tensor<T, D>& a, const Tensor<T, D>& b) {
  KT_REQUIRE(a.defined(), "kt::matmul: the left operand is an undefined tensor");
  KT_REQUIRE(b.defined(), "kt::matmul: the right operand is an undefined tensor");
  const MatmulDims d = matmul_dims(a.shape(), b.shape());
  Tensor<T, D> out(d.out);
  if (out.numel() == 0) return out;
  using A = matmul_acc_t<T>;
  const auto x = a.view();
  const auto y = b.view();
  const auto z = out.view();
  const std::int64_t m = d.m, k = d.k, n = d.n, sa = d.stride_a, sb = d.stride_b;
  using Policy = Kokkos::MDRangePolicy<D, Kokkos::Rank<3>, Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for(
      "kt::matmul", Policy(exec, {0, 0, 0}, {d.batch, m, n}),
      KOKKOS_LAMBDA(std::int64_t p, std::int64_t i, std::int64_t j) {
        const std::int64_t row = p * sa + i * k, col = p * sb + j;
        A acc = A(0);
        for (std::int64_t l = 0; l < k; ++l)
          acc += static_cast<A>(static_cast<compute_t<T>>(x(row + l))) *
                 static_cast<A>(static_cast<compute_t<T>>(y(col + l * n)));
        z((p * m + i) * n + j) = static_cast<T>(acc);
      });
  return out;
}

}  // namespace kt::impl
