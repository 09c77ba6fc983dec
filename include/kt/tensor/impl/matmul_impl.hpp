#pragma once
// kt/tensor/matmul.hpp's shapes, turned into a GEMM problem for kt/backend/gemm.hpp (floating
// dtypes) or run by a simple kernel (integer dtypes).

#include "kt/core/dtype.hpp"
#include "kt/core/error.hpp"
#include "kt/tensor/matmul_options.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kt::impl {

/// The type matmul accumulates in: the compute type for floating dtypes (fp32 for 16-bit
/// inputs, double for double), int64 for integers.
template <class T>
using matmul_acc_t = std::conditional_t<std::is_integral_v<T>, std::int64_t, compute_t<T>>;

/// The batch, rows, inner and column extents of op(a) x op(b) and each operand's batch
/// stride (0 when a 2-D operand or a batch of 1 is broadcast).
struct MatmulDims {
  std::int64_t batch, m, k, n, stride_a, stride_b;
  Shape out;
};

inline MatmulDims matmul_dims(const Shape& a, const Shape& b, Transpose ta = Transpose::No,
                              Transpose tb = Transpose::No) {
  KT_REQUIRE((a.rank() == 2 || a.rank() == 3) && (b.rank() == 2 || b.rank() == 3),
             "kt::matmul: expects 2-D or 3-D operands, got ranks ", a.rank(), " and ", b.rank(),
             ": ", a.str(), " x ", b.str());
  const bool ta_ = ta == Transpose::Yes, tb_ = tb == Transpose::Yes;
  const std::int64_t m = ta_ ? a[-1] : a[-2], k = ta_ ? a[-2] : a[-1];
  const std::int64_t kb = tb_ ? b[-1] : b[-2], n = tb_ ? b[-2] : b[-1];
  KT_REQUIRE(kb == k, "kt::matmul: inner dimensions differ: ", a.str(), ta_ ? "ᵀ" : "", " x ",
             b.str(), tb_ ? "ᵀ" : "");
  const std::int64_t ba = a.rank() == 3 ? a[0] : 1, bb = b.rank() == 3 ? b[0] : 1;
  KT_REQUIRE(ba == bb || ba == 1 || bb == 1, "kt::matmul: batch dimensions differ: ", a.str(),
             " x ", b.str());
  const std::int64_t batch = ba == 1 ? bb : ba;
  MatmulDims d{batch, m, k, n, ba == 1 ? 0 : m * k, bb == 1 ? 0 : k * n, Shape{m, n}};
  if (a.rank() == 3 || b.rank() == 3) d.out = Shape{batch, m, n};
  return d;
}

/// The GEMM problem computing out = alpha * op(a) * op(b) + beta * out (all contiguous).
template <class T, class D>
GemmProblem<T> gemm_problem(const Tensor<T, D>& a, const Tensor<T, D>& b, const Tensor<T, D>& out,
                            const MatmulDims& d, const MatmulOptions& options) {
  GemmProblem<T> p;
  p.trans_a = options.trans_a();
  p.trans_b = options.trans_b();
  p.m = d.m;
  p.n = d.n;
  p.k = d.k;
  p.batch = d.batch;
  p.a = a.data();
  p.lda = a.size(-1);
  p.stride_a = d.stride_a;
  p.b = b.data();
  p.ldb = b.size(-1);
  p.stride_b = d.stride_b;
  p.c = out.data();
  p.ldc = d.n;
  p.stride_c = d.m * d.n;
  p.alpha = static_cast<compute_t<T>>(options.alpha());
  p.beta = static_cast<compute_t<T>>(options.beta());
  return p;
}

/// Integer products: one thread per output element, int64 accumulation (no library does
/// integer GEMM); out = alpha * op(a) op(b) + beta * out.
template <class ExecSpace, class T, class D>
void matmul_integer(const ExecSpace& exec, const Tensor<T, D>& a, const Tensor<T, D>& b,
                    const Tensor<T, D>& out, const MatmulDims& d, const MatmulOptions& options) {
  using A = matmul_acc_t<T>;
  const auto x = a.view();
  const auto y = b.view();
  const auto z = out.view();
  const std::int64_t m = d.m, k = d.k, n = d.n, sa = d.stride_a, sb = d.stride_b;
  // Element (i, l) of op(a) and (l, j) of op(b) as offsets into the row-major storage.
  const std::int64_t a_row = options.trans_a() == Transpose::Yes ? 1 : k;
  const std::int64_t a_col = options.trans_a() == Transpose::Yes ? m : 1;
  const std::int64_t b_row = options.trans_b() == Transpose::Yes ? 1 : n;
  const std::int64_t b_col = options.trans_b() == Transpose::Yes ? k : 1;
  const A alpha = static_cast<A>(options.alpha()), beta = static_cast<A>(options.beta());
  using Policy = Kokkos::MDRangePolicy<D, Kokkos::Rank<3>, Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for(
      "kt::matmul(integer)", Policy(exec, {0, 0, 0}, {d.batch, m, n}),
      KOKKOS_LAMBDA(std::int64_t p, std::int64_t i, std::int64_t j) {
        A acc = A(0);
        for (std::int64_t l = 0; l < k; ++l)
          acc += static_cast<A>(x(p * sa + i * a_row + l * a_col)) * static_cast<A>(y(p * sb + l * b_row + j * b_col));
        T& c = z((p * m + i) * n + j);
        c = static_cast<T>(alpha * acc + (beta == A(0) ? A(0) : beta * static_cast<A>(c)));
      });
}

/// out = alpha * op(a) op(b) + beta * out through the GEMM back-ends (integers: the kernel above).
template <class ExecSpace, class T, class D>
void matmul_into(const ExecSpace& exec, const Tensor<T, D>& a, const Tensor<T, D>& b,
                 const Tensor<T, D>& out, const MatmulDims& d, const MatmulOptions& options) {
  if (out.numel() == 0) return;
  if constexpr (std::is_integral_v<T>) {
    matmul_integer(exec, a, b, out, d, options);
  } else {
    gemm(exec, gemm_problem(a, b, out, d, options), options.gemm());
  }
}

template <class ExecSpace, class T, class D>
Tensor<T, D> matmul(const ExecSpace& exec, const Tensor<T, D>& a, const Tensor<T, D>& b,
                    const MatmulOptions& options) {
  KT_REQUIRE(a.defined(), "kt::matmul: the left operand is an undefined tensor");
  KT_REQUIRE(b.defined(), "kt::matmul: the right operand is an undefined tensor");
  const MatmulDims d = matmul_dims(a.shape(), b.shape(), options.trans_a(), options.trans_b());
  Tensor<T, D> out(d.out);
  matmul_into(exec, a, b, out, d, MatmulOptions(options).beta(0));
  return out;
}

}  // namespace kt::impl
