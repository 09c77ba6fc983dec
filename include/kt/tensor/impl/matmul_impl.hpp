#pragma once
// kt/tensor/matmul.hpp's shapes turned into the GEMM descriptor (kt::GemmProblem) that the
// back-ends take: checked once here, at the tensor entry; integer dtypes run a simple kernel
// of their own over the same descriptor.

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"
#include "kt/backend/impl/gemm_dispatch.hpp"
#include "kt/backend/impl/gemm_pair.hpp"
#include "kt/core/dtype.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/tensor/matmul_options.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

namespace kt::impl {

/// A matmul's GEMM (sizes, transposes, leading dimensions, batch strides, alpha, beta; no
/// pointers yet) and its output shape; C: the output's dtype (T, or float for 16-bit T).
template <class T, class C = T>
struct MatmulPlan {
  GemmProblem<T, C> gemm;
  Shape out;
};

/// Checks op(a) x op(b) for shapes (M, K) x (K, N), batched (B, M, K) x (B, K, N), or a 2-D
/// operand / a batch of 1 broadcast against the other's batch (batch stride 0).
template <class T, class C = T>
MatmulPlan<T, C> matmul_plan(const Shape& a, const Shape& b, const MatmulOptions& options) {
  KT_REQUIRE((a.rank() == 2 || a.rank() == 3) && (b.rank() == 2 || b.rank() == 3),
             "kt::matmul: expects 2-D or 3-D operands, got ranks ", a.rank(), " and ", b.rank(),
             ": ", a.str(), " x ", b.str());
  const bool ta = options.trans_a() == Transpose::Yes, tb = options.trans_b() == Transpose::Yes;
  MatmulPlan<T, C> plan;
  GemmProblem<T, C>& p = plan.gemm;
  p.trans_a = options.trans_a();
  p.trans_b = options.trans_b();
  p.m = ta ? a[-1] : a[-2];
  p.k = ta ? a[-2] : a[-1];
  const std::int64_t kb = tb ? b[-1] : b[-2];
  p.n = tb ? b[-2] : b[-1];
  KT_REQUIRE(kb == p.k, "kt::matmul: inner dimensions differ: ", a.str(), ta ? "ᵀ" : "", " x ", b.str(),
             tb ? "ᵀ" : "");
  const std::int64_t ba = a.rank() == 3 ? a[0] : 1, bb = b.rank() == 3 ? b[0] : 1;
  KT_REQUIRE(ba == bb || ba == 1 || bb == 1, "kt::matmul: batch dimensions differ: ", a.str(), " x ", b.str());
  p.batch = ba == 1 ? bb : ba;
  p.lda = a[-1];
  p.ldb = b[-1];
  p.ldc = p.n;
  p.stride_a = ba == 1 ? 0 : p.m * p.k;
  p.stride_b = bb == 1 ? 0 : p.k * p.n;
  p.stride_c = p.m * p.n;
  p.alpha = options.alpha();
  p.beta = options.beta();
  plan.out = a.rank() == 3 || b.rank() == 3 ? Shape{p.batch, p.m, p.n} : Shape{p.m, p.n};
  return plan;
}

/// Integer products: one thread per output element, int64 accumulation (no library does
/// integer GEMM); C = alpha * op(A) op(B) + beta * C.
template <class Exec, class T>
void matmul_integer(const Exec& exec, const GemmProblem<T>& p) {
  using A = gemm_acc_t<T>;
  const T* x = p.a;
  const T* y = p.b;
  T* z = p.c;
  const std::int64_t m = p.m, k = p.k, n = p.n, sa = p.stride_a, sb = p.stride_b, sc = p.stride_c;
  // Element (i, l) of op(A) and (l, j) of op(B) as offsets into the row-major storage.
  const bool ta = p.trans_a == Transpose::Yes, tb = p.trans_b == Transpose::Yes;
  const std::int64_t a_row = ta ? 1 : p.lda, a_col = ta ? p.lda : 1;
  const std::int64_t b_row = tb ? 1 : p.ldb, b_col = tb ? p.ldb : 1;
  const A alpha = static_cast<A>(p.alpha), beta = static_cast<A>(p.beta);
  parallel_for(exec, "kt::matmul(integer)", p.batch * m * n, KOKKOS_LAMBDA(std::int64_t e) {
    const std::int64_t q = e / (m * n), i = e / n % m, j = e % n;
    A acc = A(0);
    for (std::int64_t l = 0; l < k; ++l)
      acc += static_cast<A>(x[q * sa + i * a_row + l * a_col]) * static_cast<A>(y[q * sb + l * b_row + j * b_col]);
    T& c = z[q * sc + i * n + j];
    c = static_cast<T>(alpha * acc + (beta == A(0) ? A(0) : beta * static_cast<A>(c)));
  }, p.batch * m * n * (k + 1));
}

/// Runs a checked plan's GEMM with its pointers bound: integer products on their own kernel,
/// the others through the dispatch.
template <class T, class C, class D>
void run_matmul(const D& exec, const GemmProblem<T, C>& p, const GemmOptions& options) {
  if (p.empty()) return;
  if constexpr (std::is_integral_v<T>) matmul_integer(exec, p);
  else gemm_dispatch(exec, p, options);
}

/// out = alpha op(a) op(b) + beta out for a checked plan; out has plan.out's shape (and dtype C:
/// an fp32 out of 16-bit operands keeps the fp32 accumulation unrounded).
template <class T, class C, class D>
void matmul_into(const D& exec, const Tensor<T, D>& a, const Tensor<T, D>& b, const Tensor<C, D>& out,
                 MatmulPlan<T, C> plan, const GemmOptions& options) {
  GemmProblem<T, C>& p = plan.gemm;
  p.a = a.data();
  p.b = b.data();
  p.c = out.data();
  run_matmul(exec, p, options);
}

/// A product into a new tensor: its output (shape and dtype Out from the plan) and its GEMM,
/// every pointer bound and beta 0.
template <class Out, class T, class D>
struct MatmulCall {
  GemmProblem<T, Out> gemm;
  Tensor<Out, D> out;
};

/// op(a) op(b) checked, planned and given its output: what matmul and matmul_pair run.
template <class Out, class T, class D>
MatmulCall<Out, T, D> matmul_call(const D& exec, const Tensor<T, D>& a, const Tensor<T, D>& b,
                                  const MatmulOptions& options) {
  KT_REQUIRE(a.defined(), "kt::matmul: the left operand is an undefined tensor");
  KT_REQUIRE(b.defined(), "kt::matmul: the right operand is an undefined tensor");
  const MatmulPlan<T, Out> plan = matmul_plan<T, Out>(a.shape(), b.shape(), options);
  MatmulCall<Out, T, D> call{plan.gemm, Tensor<Out, D>(plan.out, exec)};
  call.gemm.a = a.data();
  call.gemm.b = b.data();
  call.gemm.c = call.out.data();
  call.gemm.beta = 0;
  return call;
}

/// A new tensor op(a) op(b) (alpha from options; beta ignored) of dtype C: T, or float for
/// 16-bit T (the fp32 accumulation unrounded: gemm_output_ok_v).
template <class C = void, class T, class D, class Out = std::conditional_t<std::is_void_v<C>, T, C>>
Tensor<Out, D> matmul(const D& exec, const Tensor<T, D>& a, const Tensor<T, D>& b, const MatmulOptions& options) {
  const MatmulCall<Out, T, D> call = matmul_call<Out>(exec, a, b, options);
  run_matmul(exec, call.gemm, options.gemm());
  return call.out;
}

/// Two independent products, op(a1) op(b1) and op(a2) op(b2), as new tensors (alpha from the
/// options; beta ignored; default back-end choice), run at once where the back-end can
/// (gemm_dispatch_pair): a layer's weight and input gradients.
template <class T, class D>
std::pair<Tensor<T, D>, Tensor<T, D>> matmul_pair(const D& exec, const Tensor<T, D>& a1, const Tensor<T, D>& b1,
                                                  const MatmulOptions& o1, const Tensor<T, D>& a2,
                                                  const Tensor<T, D>& b2, const MatmulOptions& o2) {
  if constexpr (std::is_integral_v<T>) {
    return {matmul(exec, a1, b1, o1), matmul(exec, a2, b2, o2)};
  } else {
    const MatmulCall<T, T, D> first = matmul_call<T>(exec, a1, b1, o1), second = matmul_call<T>(exec, a2, b2, o2);
    gemm_dispatch_pair(exec, first.gemm, second.gemm);
    return {first.out, second.out};
  }
}

}  // namespace kt::impl
