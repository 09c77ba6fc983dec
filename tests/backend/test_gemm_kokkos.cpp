// Tests of kt/backend/impl/gemm_kokkos.hpp, kt's portable Kokkos GEMM kernel: every transpose
// and odd shapes (several tiles, micro-tile edges) with padded leading dimensions against a
// double reference; batches with strides and broadcast (stride 0) operands; alpha/beta; beta
// == 0 ignoring NaN in C; k == 0; empty problems; fp32 accumulation of 16-bit inputs; integer
// products; bit-identical results on Serial and OpenMP; the team (GPU) kernel's code on host
// teams; and the error messages.

#define KT_USES_INTERNALS  // tests kt's GEMM kernels themselves, below the public matmul
#include "kt_test.hpp"

#include <kt/backend/impl/gemm_kokkos.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace {

/// kt's portable kernel, through kt::gemm (which validates the problem and handles k == 0).
const kt::GemmOptions kokkos_backend = kt::GemmOptions().backend(kt::GemmBackend::Kokkos);

using i64 = std::int64_t;

/// A product's sizes: op(A) is m x k, op(B) k x n.
struct Shape3 {
  i64 m, n, k;
};

template <class T>
double as_double(T x) {
  return static_cast<double>(static_cast<kt::compute_t<T>>(x));
}

/// Operands of one GEMM problem: A, B and C as tensors on D (C holds the batch's matrices one
/// after the other, with `pad` extra columns per row that the kernel must not touch).
template <class T, class D>
struct Operands {
  bool ta, tb;
  i64 m, n, k, batch, lda, ldb, ldc, sa, sb, sc;
  kt::Tensor<T, D> a, b, c;

  Operands(bool ta_, bool tb_, i64 m_, i64 n_, i64 k_, i64 batch_, i64 pad, bool bcast_a, bool bcast_b,
           std::uint64_t seed)
      : ta(ta_), tb(tb_), m(m_), n(n_), k(k_), batch(batch_) {
    const i64 a_rows = ta ? k : m, b_rows = tb ? n : k;
    lda = (ta ? m : k) + pad;
    ldb = (tb ? k : n) + pad;
    ldc = n + pad;
    sa = bcast_a ? 0 : a_rows * lda;
    sb = bcast_b ? 0 : b_rows * ldb;
    sc = m * ldc;
    const i64 na = bcast_a ? 1 : batch, nb = bcast_b ? 1 : batch;
    a = kt::rand<T, D>({std::max<i64>(na * a_rows * lda, 1)}, seed, -1, 1);
    b = kt::rand<T, D>({std::max<i64>(nb * b_rows * ldb, 1)}, seed + 1, -1, 1);
    c = kt::rand<T, D>({std::max<i64>(batch * sc, 1)}, seed + 2, -1, 1);
  }

  kt::GemmProblem<T> problem(double alpha, double beta) const {
    kt::GemmProblem<T> p;
    p.trans_a = ta ? kt::Transpose::Yes : kt::Transpose::No;
    p.trans_b = tb ? kt::Transpose::Yes : kt::Transpose::No;
    p.m = m, p.n = n, p.k = k, p.batch = batch;
    p.a = a.data(), p.lda = lda, p.stride_a = sa;
    p.b = b.data(), p.ldb = ldb, p.stride_b = sb;
    p.c = c.data(), p.ldc = ldc, p.stride_c = sc;
    p.alpha = alpha;
    p.beta = beta;
    return p;
  }

  /// alpha * op(A) op(B) + beta * C0 in double for every element of C (padding: C0 itself).
  std::vector<double> reference(const std::vector<T>& c0, double alpha, double beta) const {
    const auto av = a.to_vector(), bv = b.to_vector();
    std::vector<double> want(c0.size());
    for (std::size_t i = 0; i < c0.size(); ++i) want[i] = as_double(c0[i]);
    for (i64 p = 0; p < batch; ++p)
      for (i64 i = 0; i < m; ++i)
        for (i64 j = 0; j < n; ++j) {
          double s = 0;
          for (i64 l = 0; l < k; ++l)
            s += as_double(av[p * sa + (ta ? l * lda + i : i * lda + l)]) *
                 as_double(bv[p * sb + (tb ? j * ldb + l : l * ldb + j)]);
          double& w = want[p * sc + i * ldc + j];
          w = alpha * s + (beta == 0 ? 0.0 : beta * w);
        }
    return want;
  }
};

/// Runs the problem on D's default instance and checks every element of C against the double
/// reference, with the tolerance widened for the k-term sum.
template <class T, class D>
bool run_and_compare(Operands<T, D>& ops, double alpha, double beta) {
  const auto c0 = ops.c.to_vector();
  kt::gemm(D(), ops.problem(alpha, beta), kokkos_backend);
  D().fence();
  const double tol = kt_test::tolerance<T>() * (1.0 + static_cast<double>(ops.k) / 64.0);
  return kt_test::all_close(ops.c.to_vector(), ops.reference(c0, alpha, beta), tol);
}

}  // namespace

TEST_CASE_TEMPLATE("gemm_kokkos matches a double reference for every transpose and odd shapes", TestCase,
                   KT_FLOAT_CASES, KT_CASES(kt::half), KT_CASES(kt::bfloat16)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  // Edges of the micro-tiles (1, 7, 33, 65), several C tiles and K blocks (257 > 256 = KC).
  const Shape3 shapes[] = {{1, 1, 1}, {7, 33, 65}, {65, 7, 33}, {33, 65, 7},
                           {257, 33, 65}, {65, 257, 7}, {7, 1, 257}, {1, 65, 33}};
  std::uint64_t seed = 10;
  for (int t = 0; t < 4; ++t)
    for (const Shape3& s : shapes) {
      const bool ta = t & 1, tb = t & 2;
      CAPTURE(ta);
      CAPTURE(tb);
      CAPTURE(s.m);
      CAPTURE(s.n);
      CAPTURE(s.k);
      Operands<T, D> ops(ta, tb, s.m, s.n, s.k, 1, (s.m + s.k) % 3, false, false, seed += 3);
      CHECK(run_and_compare(ops, 1.0, 0.0));
    }
}

TEST_CASE_TEMPLATE("batched gemm_kokkos with strides and broadcast operands", TestCase, KT_FLOAT_CASES,
                   KT_CASES(kt::half), KT_CASES(kt::bfloat16)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  for (int t = 0; t < 4; ++t) {
    const bool ta = t & 1, tb = t & 2;
    CAPTURE(ta);
    CAPTURE(tb);
    Operands<T, D> batched(ta, tb, 33, 17, 40, 3, 1, false, false, 100 + t);
    CHECK(run_and_compare(batched, 0.5, -1.5));
    Operands<T, D> shared_a(ta, tb, 9, 65, 20, 4, 2, true, false, 200 + t);  // stride_a = 0
    CHECK(run_and_compare(shared_a, 1.0, 1.0));
    Operands<T, D> shared_b(ta, tb, 70, 5, 300, 2, 0, false, true, 300 + t);  // stride_b = 0
    CHECK(run_and_compare(shared_b, -2.0, 0.25));
  }
}

TEST_CASE_TEMPLATE("gemm_kokkos with beta 0 ignores NaN in C and k 0 gives beta times C", TestCase,
                   KT_FLOAT_CASES, KT_CASES(kt::half), KT_CASES(kt::bfloat16)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  const T nan = T(std::numeric_limits<float>::quiet_NaN());
  Operands<T, D> ops(false, true, 40, 300, 20, 2, 0, false, false, 7);
  ops.c = kt::full<T, D>({2 * 40 * 300}, nan);
  CHECK(run_and_compare(ops, 1.5, 0.0));  // all_close fails on any NaN
  // k = 0: an empty sum, so C = beta * C, and 0 (not NaN) when beta == 0.
  Operands<T, D> empty_k(true, false, 65, 33, 0, 2, 1, false, false, 8);
  CHECK(run_and_compare(empty_k, 2.0, 0.5));
  empty_k.c = kt::full<T, D>({2 * 65 * 34}, nan);
  kt::gemm(D(), empty_k.problem(2.0, 0.0), kokkos_backend);
  D().fence();
  const auto zeroed = empty_k.c.to_vector();
  for (i64 i = 0; i < 65; ++i)
    for (i64 j = 0; j < 34; ++j) {
      const double v = as_double(zeroed[i * 34 + j]);
      if (j < 33) CHECK(v == 0.0);
      else CHECK(std::isnan(v));  // ldc padding is never written
    }
}

TEST_CASE_TEMPLATE("gemm_kokkos with m or n or batch 0 leaves C untouched", D, KT_DEVICES) {
  const auto c = kt::rand<float, D>({64}, 3);
  const auto before = c.to_vector();
  kt::GemmProblem<float> p;
  p.m = 0, p.n = 8, p.k = 8, p.batch = 2, p.c = c.data(), p.ldc = 8, p.lda = 8, p.ldb = 8;
  kt::gemm(D(), p, kokkos_backend);  // m = 0: A and B are never read (null)
  p.m = 8, p.n = 0;
  kt::gemm(D(), p, kokkos_backend);
  p.n = 8, p.batch = 0;
  kt::gemm(D(), p, kokkos_backend);
  D().fence();
  CHECK(c.to_vector() == before);
}

TEST_CASE_TEMPLATE("16-bit gemm_kokkos accumulates in fp32 and rounds once", TestCase, KT_CASES(kt::half),
                   KT_CASES(kt::bfloat16)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  // A sum of ones: a 16-bit accumulator stops growing at 2048 (half) or 256 (bfloat16); fp32
  // reaches k exactly, and k (even, below 4096 / 1024) is exact in the 16-bit output too.
  const i64 k = std::is_same_v<T, kt::half> ? 3000 : 1000;
  const auto a = kt::ones<T, D>({2, k}), b = kt::ones<T, D>({k, 3});
  const auto c = kt::zeros<T, D>({2, 3});
  kt::GemmProblem<T> p;
  p.m = 2, p.n = 3, p.k = k, p.a = a.data(), p.lda = k, p.b = b.data(), p.ldb = 3, p.c = c.data(), p.ldc = 3;
  kt::gemm(D(), p, kokkos_backend);
  D().fence();
  for (const T& x : c.to_vector()) CHECK(as_double(x) == static_cast<double>(k));
  // alpha * sum rounds once: 0.5 * 1001 = 500.5 is not a 16-bit value; the nearest is 500.5
  // (half) or 500 (bfloat16, spacing 4), as T(500.5f) gives.
  p.k = 1001;
  const auto a2 = kt::ones<T, D>({2, 1001}), b2 = kt::ones<T, D>({1001, 3});
  p.a = a2.data(), p.lda = 1001, p.b = b2.data(), p.alpha = 0.5f;
  kt::gemm(D(), p, kokkos_backend);
  D().fence();
  for (const T& x : c.to_vector()) CHECK(as_double(x) == as_double(T(500.5f)));
}

TEST_CASE_TEMPLATE("integer gemm_kokkos accumulates exactly in int64", TestCase, KT_CASES(std::int32_t)) {
  using D = typename TestCase::device;
  const auto a = kt::from_host<std::int32_t, D>(std::vector<std::int32_t>{1, 2, 3, 4, 5, 6}, {2, 3});
  const auto b = kt::from_host<std::int32_t, D>(std::vector<std::int32_t>{1, 0, 2, 1, 0, 3}, {3, 2});
  const auto c = kt::from_host<std::int32_t, D>(std::vector<std::int32_t>{10, 20, 30, 40}, {2, 2});
  kt::GemmProblem<std::int32_t> p;
  p.m = 2, p.n = 2, p.k = 3, p.a = a.data(), p.lda = 3, p.b = b.data(), p.ldb = 2, p.c = c.data(), p.ldc = 2;
  p.alpha = 2, p.beta = -1;
  kt::gemm(D(), p, kokkos_backend);
  D().fence();
  // A B = {{5, 11}, {14, 23}}; 2 * A B - C.
  CHECK(c.to_vector() == std::vector<std::int32_t>{0, 2, -2, 6});
}

TEST_CASE_TEMPLATE("the team (GPU) kernel's code, run on host teams, matches the double reference", TestCase,
                   KT_FLOAT_CASES, KT_CASES(kt::half), KT_CASES(kt::bfloat16)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  if constexpr (Kokkos::SpaceAccessibility<D, Kokkos::HostSpace>::accessible) {
    // Edges of the 4 x 4 micro-tiles and 64 x 64 C tiles, several K blocks (KC 8 or 16).
    const Shape3 shapes[] = {{1, 1, 1}, {5, 3, 17}, {65, 7, 33}, {33, 130, 9}, {129, 65, 40}};
    std::uint64_t seed = 700;
    for (int t = 0; t < 8; ++t)
      for (const Shape3& s : shapes) {
        const bool ta = t & 1, tb = t & 2, batched = t & 4;
        CAPTURE(ta);
        CAPTURE(tb);
        CAPTURE(batched);
        CAPTURE(s.m);
        CAPTURE(s.n);
        CAPTURE(s.k);
        Operands<T, D> ops(ta, tb, s.m, s.n, s.k, batched ? 3 : 1, (s.m + s.k) % 3, batched && ta, false, seed += 3);
        const double alpha = 1.5, beta = t % 3 == 0 ? 0.0 : -0.5;
        const auto c0 = ops.c.to_vector();
        kt::impl::gemm_kokkos_team_on_host(D(), ops.problem(alpha, beta));
        D().fence();
        const double tol = kt_test::tolerance<T>() * (1.0 + static_cast<double>(ops.k) / 64.0);
        CHECK(kt_test::all_close(ops.c.to_vector(), ops.reference(c0, alpha, beta), tol));
        // The same sums in the same order as the host kernel: the same bits.
        const auto team = ops.c.to_vector();
        kt::copy(ops.c, kt::from_host<T, D>(c0, {static_cast<i64>(c0.size())}));
        kt::gemm(D(), ops.problem(alpha, beta), kokkos_backend);
        D().fence();
        const auto host = ops.c.to_vector();
        CHECK(std::memcmp(team.data(), host.data(), team.size() * sizeof(T)) == 0);
      }
  }
}

#if defined(KOKKOS_ENABLE_OPENMP)
TEST_CASE_TEMPLATE("the host kernel's plan: MR x NR multiples, an item per thread where C allows, scratch in L2",
                   Acc, float, double) {
  using Tiles = kt::impl::GemmTiles<Kokkos::DefaultHostExecutionSpace, Acc>;
  constexpr i64 MR = Tiles::MR, NR = Tiles::NR;
  const auto round_up = [](i64 x, i64 r) { return (x + r - 1) / r * r; };
  for (i64 m : {1, 7, 64, 100, 512, 1000, 4096})
    for (i64 n : {1, 10, 64, 300, 2048, 5000})
      for (i64 batch : {1, 3})
        for (i64 threads : {1, 2, 8, 64})
          for (bool in_place : {true, false}) {
            CAPTURE(m);
            CAPTURE(n);
            CAPTURE(batch);
            CAPTURE(threads);
            CAPTURE(in_place);
            const auto plan = kt::impl::gemm_host_plan<Tiles>(m, n, batch, threads, in_place);
            CHECK(plan.rows % MR == 0);
            CHECK(plan.cols % NR == 0);
            CHECK(plan.rows >= MR);
            CHECK(plan.rows <= round_up(m, MR));
            CHECK(plan.cols >= NR);
            CHECK(plan.cols <= round_up(n, NR));
            const i64 items = (m + plan.rows - 1) / plan.rows * ((n + plan.cols - 1) / plan.cols) * batch;
            if (items < threads) CHECK((plan.rows <= 4 * MR && plan.cols <= 4 * NR));  // cut as far as it goes
            if (!in_place) CHECK((plan.rows * plan.cols <= kt::impl::kGemmHostAccElements || plan.rows == MR));
            if (threads == 1 && in_place) {  // one thread: whole rows, n cut evenly into <= 2048 columns
              const i64 col_tiles = (n + 2047) / 2048;
              CHECK(plan.rows == round_up(m, MR));
              CHECK(plan.cols == round_up((n + col_tiles - 1) / col_tiles, NR));
            }
          }
  // The main example's first layer on one thread: one item, every operand packed once.
  const auto one = kt::impl::gemm_host_plan<Tiles>(256, 512, 1, 1, true);
  CHECK(one.rows == round_up(256, MR));
  CHECK(one.cols == 512);
}

TEST_CASE("gemm_kokkos results are bit-identical on OpenMP and Serial") {
  // Each element is summed over k in order whatever the thread count, tiles or schedule; run
  // with --kokkos-threads=1, 3, 4 too (tests/CMakeLists.txt reruns *bit-identical* cases).
  for (int t = 0; t < 4; ++t) {
    const bool ta = t & 1, tb = t & 2;
    CAPTURE(ta);
    CAPTURE(tb);
    const auto a = kt::rand<float, Kokkos::Serial>({300 * 500}, 1 + t, -1, 1);
    const auto b = kt::rand<float, Kokkos::Serial>({500 * 200}, 5 + t, -1, 1);
    kt::GemmProblem<float> p;
    p.trans_a = ta ? kt::Transpose::Yes : kt::Transpose::No;
    p.trans_b = tb ? kt::Transpose::Yes : kt::Transpose::No;
    p.m = 300, p.n = 200, p.k = 500, p.a = a.data(), p.lda = ta ? 300 : 500, p.b = b.data();
    p.ldb = tb ? 500 : 200, p.ldc = 200, p.alpha = 0.75f, p.beta = t < 2 ? 0.0f : -0.5f;
    const auto c0 = kt::rand<float, Kokkos::Serial>({300, 200}, 9 + t, -1, 1).to_vector();
    const auto serial = kt::from_host<float, Kokkos::Serial>(c0, {300, 200});
    p.c = serial.data();
    kt::gemm(Kokkos::Serial(), p, kokkos_backend);
    const auto omp_c = kt::from_host<float, Kokkos::OpenMP>(c0, {300, 200});
    p.c = omp_c.data();  // A and B: the same host memory, read by OpenMP threads
    kt::gemm(Kokkos::OpenMP(), p, kokkos_backend);
    Kokkos::OpenMP().fence();
    const auto x = serial.to_vector(), y = omp_c.to_vector();
    REQUIRE(x.size() == y.size());
    CHECK(std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0);
    CHECK(x != c0);  // a real product happened
  }
}
#endif

#if defined(KOKKOS_ENABLE_SERIAL)
TEST_CASE_TEMPLATE("the small-product path gives the packed host kernel's bits", T, float, double) {
  // kt/backend/impl/gemm_host_small.hpp reads operands unpacked on the calling thread; it must
  // form the same sums as gemm_kokkos_host, which runs the same products on any thread count.
  // A small MLP step's products (32x64x64 NT, 32x10x64 NT, 64x64x32 TN, 32x64x10 NN, ...),
  // micro-tile edges in every dimension, and last panels of op(B) at most half a panel wide
  // (computed half-width) or wider, for the panel widths of SSE2 to AVX-512.
  const Shape3 shapes[] = {{32, 64, 64}, {32, 10, 64},  {64, 64, 32}, {10, 64, 32}, {32, 64, 10},
                           {1, 1, 1},    {13, 17, 5},   {25, 33, 100}, {7, 48, 300}, {9, 57, 20},
                           {20, 41, 7},  {16, 16, 16},  {16, 17, 5},  {32, 70, 33}};
  std::uint64_t seed = 500;
  for (int t = 0; t < 8; ++t)
    for (const Shape3& s : shapes) {
      const bool ta = t & 1, tb = t & 2, accumulate = t & 4;
      CAPTURE(ta);
      CAPTURE(tb);
      CAPTURE(s.m);
      CAPTURE(s.n);
      CAPTURE(s.k);
      Operands<T, Kokkos::DefaultHostExecutionSpace> ops(ta, tb, s.m, s.n, s.k, 2, (s.m + s.k) % 3, false, false,
                                                         seed += 3);
      const double alpha = accumulate ? -0.75 : 1.0, beta = accumulate ? 0.5 : 0.0;
      auto p = ops.problem(alpha, beta);
      REQUIRE(kt::impl::gemm_host_small_fits(p));
      const auto c0 = ops.c.to_vector();
      kt::impl::gemm_host_small(p);
      const auto small = ops.c.to_vector();
      CHECK(kt_test::all_close(small, ops.reference(c0, alpha, beta), kt_test::tolerance<T>() * (1.0 + s.k / 64.0)));
      std::memcpy(ops.c.data(), c0.data(), c0.size() * sizeof(T));
      kt::impl::gemm_kokkos_host(Kokkos::Serial(), p);
      const auto packed = ops.c.to_vector();
      CHECK(std::memcmp(small.data(), packed.data(), small.size() * sizeof(T)) == 0);
    }
#if defined(__AVX512F__) && defined(__GNUC__) && !defined(__clang__)
  // With AVX-512, A · Bᵀ with 16 or 32 rows in A and no more than B has runs swapped
  // (kt/backend/impl/gemm_host_small_swapped.hpp): among the shapes above, a half-width and a
  // full panel, B's rows in whole tiles of 8 and not (n 17, 70), with alpha and beta.
  if constexpr (std::is_same_v<T, float>) {
    kt::GemmProblem<T> nt;
    nt.trans_b = kt::Transpose::Yes;
    nt.m = 32, nt.n = 64, nt.k = 64;
    CHECK(kt::impl::gemm_host_small_swaps(nt));
    nt.m = 16;
    CHECK(kt::impl::gemm_host_small_swaps(nt));
    nt.m = 32, nt.n = 10;  // more rows in A than in B: packing B is cheaper
    CHECK_FALSE(kt::impl::gemm_host_small_swaps(nt));
    nt.m = 24, nt.n = 64;  // A's rows fill a panel partly
    CHECK_FALSE(kt::impl::gemm_host_small_swaps(nt));
  }
#endif
  // Larger operands take the packed kernel: op(B) over 16 Ki elements, or op(A) over 64 Ki.
  kt::GemmProblem<T> big;
  big.m = 32, big.n = 256, big.k = 128;
  CHECK_FALSE(kt::impl::gemm_host_small_fits(big));
  big.m = 1024, big.n = 64, big.k = 128;
  CHECK_FALSE(kt::impl::gemm_host_small_fits(big));
}
#endif

#if defined(KOKKOS_ENABLE_SERIAL)
namespace {
/// An epilogue as the Linear forward's (kt/tensor/impl/linear_tile_epilogue.hpp): C's column j
/// gets max(acc + shift[j], 0), the panel's shifts in place or copied, zero-padded.
struct ShiftReluEpilogue {
  const float* shift;
  template <int W>
  ShiftReluEpilogue panel(i64 j0, int nv, float* pad) const {
    if (nv == W) return {shift + j0};
    for (int j = 0; j < W; ++j) pad[j] = j < nv ? shift[j0 + j] : 0.0f;
    return {pad};
  }
  KOKKOS_INLINE_FUNCTION float operator()(float acc, int j) const {  // called from host-device code
    const float v = acc + shift[j];
    return v > 0.0f ? v : 0.0f;
  }
};
}  // namespace

TEST_CASE("the small path's epilogue gets each element's column of C, computed directly or swapped") {
  // A · Bᵀ, the Linear forward's product: with AVX-512, shapes with m 16 or 32 and m ≤ n run
  // as Cᵀ = B · Aᵀ, where a tile's rows are C's columns; the others directly. Either way the
  // epilogue in the tile store must give the bits of a second pass over C.
  const Shape3 shapes[] = {{32, 64, 64}, {32, 10, 64}, {64, 64, 32}, {13, 17, 5},
                           {32, 70, 33}, {16, 17, 30}, {24, 40, 16}, {1, 9, 3}};
  std::uint64_t seed = 900;
  for (const Shape3& s : shapes) {
    CAPTURE(s.m);
    CAPTURE(s.n);
    CAPTURE(s.k);
    Operands<float, Kokkos::Serial> ops(false, true, s.m, s.n, s.k, 2, 1, false, false, seed += 3);
    const auto shift = kt::rand<float, Kokkos::Serial>({s.n}, seed + 7, -1, 1).to_vector();
    const auto p = ops.problem(1.0, 0.0);
    const auto c0 = ops.c.to_vector();
    kt::impl::gemm_host_small(p, ShiftReluEpilogue{shift.data()});
    const auto fused = ops.c.to_vector();
    std::memcpy(ops.c.data(), c0.data(), c0.size() * sizeof(float));
    kt::impl::gemm_host_small(p);
    auto two_pass = ops.c.to_vector();
    for (i64 b = 0; b < ops.batch; ++b)
      for (i64 i = 0; i < s.m; ++i)
        for (i64 j = 0; j < s.n; ++j) {
          float& c = two_pass[b * ops.sc + i * ops.ldc + j];
          c = ShiftReluEpilogue{shift.data()}(c, int(j));
        }
    CHECK(std::memcmp(fused.data(), two_pass.data(), fused.size() * sizeof(float)) == 0);
    CHECK(fused != c0);
  }
}
#endif

TEST_CASE("kt::gemm errors name the bad argument and its value") {
  using D = kt::DefaultDevice;
  const auto buf = kt::zeros<float, D>({64});
  kt::GemmProblem<float> p;
  p.m = 4, p.n = 4, p.k = 4, p.a = buf.data(), p.lda = 3, p.b = buf.data(), p.ldb = 4, p.c = buf.data(), p.ldc = 4;
  CHECK(kt_test::error_of([&] { kt::gemm(D(), p, kokkos_backend); }) ==
        "kt::gemm: lda=3 is smaller than A's row length 4");
  p.lda = 4, p.m = -1;
  CHECK(kt_test::error_of([&] { kt::gemm(D(), p, kokkos_backend); }) ==
        "kt::gemm: negative size m=-1 n=4 k=4 batch=1");
  p.m = 4, p.batch = 2, p.stride_c = 8;
  CHECK(kt_test::error_of([&] { kt::gemm(D(), p, kokkos_backend); }) ==
        "kt::gemm: stride_c=8 makes the C matrices of the batch overlap (m=4 n=4 ldc=4)");
}
