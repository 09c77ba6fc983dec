// kt/backend/impl/gemm_pair.hpp: two independent products at once, in one fork-join on the BLAS
// where the threads share out evenly, in turn everywhere else; each product's values either way.

#define KT_USES_INTERNALS  // tests kt::impl::gemm_dispatch_pair itself, below linear_backward
#include "kt_test.hpp"

#include <kt/backend/gemm.hpp>
#include <kt/backend/impl/gemm_pair.hpp>
#include <kt/backend/tuning.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace {

using Pieces = std::pair<int, int>;

kt::GemmProblem<float> sized(std::int64_t m, std::int64_t n, std::int64_t k) {
  kt::GemmProblem<float> p;
  p.m = m, p.n = n, p.k = k;
  return p;
}

/// A Linear layer's two gradient products on device D, from dz (rows x out), x (rows x in) and
/// w (out x in): dw = dzᵀ · x (out x in) and dx = dz · w (rows x in), both filled with NaN
/// first (beta = 0 must not read them).
template <class D>
struct LayerGrads {
  std::int64_t rows, in, out;
  kt::Tensor<float, D> dz, x, w, dw, dx;

  LayerGrads(std::int64_t rows_, std::int64_t in_, std::int64_t out_)
      : rows(rows_), in(in_), out(out_), dz(kt::rand<float, D>({rows_, out_}, 1, -1, 1)),
        x(kt::rand<float, D>({rows_, in_}, 2, -1, 1)), w(kt::rand<float, D>({out_, in_}, 3, -1, 1)),
        dw(kt::full<float, D>({out_, in_}, std::numeric_limits<float>::quiet_NaN())),
        dx(kt::full<float, D>({rows_, in_}, std::numeric_limits<float>::quiet_NaN())) {}

  kt::GemmProblem<float> dw_problem() const {
    kt::GemmProblem<float> p = sized(out, in, rows);
    p.trans_a = kt::Transpose::Yes;
    p.a = dz.data(), p.lda = out;
    p.b = x.data(), p.ldb = in;
    p.c = dw.data(), p.ldc = in;
    return p;
  }
  kt::GemmProblem<float> dx_problem() const {
    kt::GemmProblem<float> p = sized(rows, in, out);
    p.a = dz.data(), p.lda = out;
    p.b = w.data(), p.ldb = in;
    p.c = dx.data(), p.ldc = in;
    return p;
  }

  /// dw and dx in double from the operands' values.
  std::pair<std::vector<double>, std::vector<double>> reference() const {
    const auto g = dz.to_vector(), xs = x.to_vector(), ws = w.to_vector();
    std::vector<double> rdw(static_cast<std::size_t>(out * in)), rdx(static_cast<std::size_t>(rows * in));
    for (std::int64_t o = 0; o < out; ++o)
      for (std::int64_t i = 0; i < in; ++i) {
        double acc = 0;
        for (std::int64_t r = 0; r < rows; ++r) acc += double(g[std::size_t(r * out + o)]) * xs[std::size_t(r * in + i)];
        rdw[std::size_t(o * in + i)] = acc;
      }
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t i = 0; i < in; ++i) {
        double acc = 0;
        for (std::int64_t o = 0; o < out; ++o) acc += double(g[std::size_t(r * out + o)]) * ws[std::size_t(o * in + i)];
        rdx[std::size_t(r * in + i)] = acc;
      }
    return {rdw, rdx};
  }
};

std::uint64_t products_run() {
  const auto s = kt::tuning::stats();
  return s.blas_calls + s.eigen_calls + s.kokkos_calls + s.cublas_calls;
}

/// How many paired BLAS launches f made.
template <class F>
std::int64_t pairs_during(F&& f) {
  return kt_test::launches_during("kt::gemm::blas_pair", f);
}

}  // namespace

TEST_CASE("a pair of products shares the threads out by its flops, or runs in turn") {
  using kt::impl::gemm_pair_pieces;
  const auto dw = sized(512, 512, 256), dx = sized(256, 512, 512);  // a 512-wide layer at batch 256
  CHECK(gemm_pair_pieces(dw, dx, 1) == Pieces{0, 0});
  CHECK(gemm_pair_pieces(dw, dx, 2) == Pieces{1, 1});
  CHECK(gemm_pair_pieces(dw, dx, 4) == Pieces{2, 2});
  CHECK(gemm_pair_pieces(dw, dx, 3) == Pieces{0, 0});  // 2 + 1 threads: one side 1.5x an even share
  CHECK(gemm_pair_pieces(sized(512, 512, 768), dx, 4) == Pieces{3, 1});  // 3 : 1 flops
  // On two threads the larger product's share decides: 300 : 256 is 1.079x an even share,
  // 320 : 256 is 1.111x, past kGemmPairImbalance.
  CHECK(gemm_pair_pieces(sized(512, 512, 300), dx, 2) == Pieces{1, 1});
  CHECK(gemm_pair_pieces(sized(512, 512, 320), dx, 2) == Pieces{0, 0});
  // Products of one 32-wide unit each cannot be cut for 4 threads: 2 threads of 4 would idle.
  CHECK(gemm_pair_pieces(sized(32, 32, 4096), sized(32, 32, 4096), 4) == Pieces{0, 0});
  CHECK(gemm_pair_pieces(sized(32, 32, 4096), sized(32, 32, 4096), 2) == Pieces{1, 1});
  // Pieces under kGemmPairMinPieceFlops: 128³ (4.2 MFLOP) pairs on two threads, not on four
  // (2.1 MFLOP a piece), and a 64-row layer 128 wide (2.1 MFLOP) not at all.
  CHECK(gemm_pair_pieces(sized(128, 128, 128), sized(128, 128, 128), 2) == Pieces{1, 1});
  CHECK(gemm_pair_pieces(sized(128, 128, 128), sized(128, 128, 128), 4) == Pieces{0, 0});
  CHECK(gemm_pair_pieces(sized(128, 128, 64), sized(64, 128, 128), 2) == Pieces{0, 0});
}

TEST_CASE_TEMPLATE("a layer's gradient products run at once on the BLAS, with each product's values", D,
                   KT_DEVICES) {
  // 7.9 MFLOP each: each alone would be threaded on every thread, and a pair's pieces on two
  // threads are above kGemmPairMinPieceFlops.
  LayerGrads<D> g(128, 160, 192);
  kt::tuning::clear();
  const bool paired = kt_test::runs_as_pair<D>({g.out, g.in, g.rows}, {g.rows, g.in, g.out});
  CAPTURE(paired);
  CHECK(pairs_during([&] { kt::impl::gemm_dispatch_pair(D(), g.dw_problem(), g.dx_problem()); }) == (paired ? 1 : 0));
  CHECK(products_run() == 2);
  if (paired) CHECK(kt::tuning::stats().blas_calls == 2);
  const auto [rdw, rdx] = g.reference();
  const double tol = kt_test::tolerance<float>() * std::sqrt(193.0);
  CHECK(kt_test::all_close(g.dw.to_vector(), rdw, tol));
  CHECK(kt_test::all_close(g.dx.to_vector(), rdx, tol));
}

#if defined(KT_ENABLE_CBLAS)
TEST_CASE("BLAS calls of a pair, cut for any share of the threads, match a double reference") {
  // The pieces' indices run through p's and then q's: every share must cover both products.
  for (const Pieces& share : {Pieces{1, 1}, Pieces{2, 1}, Pieces{1, 3}, Pieces{2, 2}}) {
    CAPTURE(share.first);
    CAPTURE(share.second);
    LayerGrads<kt::Serial> g(70, 100, 90);
    kt::impl::gemm_blas_pair(g.dw_problem(), share.first, g.dx_problem(), share.second);
    const auto [rdw, rdx] = g.reference();
    const double tol = kt_test::tolerance<float>() * std::sqrt(91.0);
    CHECK(kt_test::all_close(g.dw.to_vector(), rdw, tol));
    CHECK(kt_test::all_close(g.dx.to_vector(), rdx, tol));
  }
}
#endif

TEST_CASE_TEMPLATE("a pair runs in turn in deterministic mode, bit for bit as each product alone", D, KT_DEVICES) {
  LayerGrads<D> g(128, 160, 192);  // a pair on the BLAS outside deterministic mode (above)
  kt::tuning::set_deterministic(true);
  CHECK(pairs_during([&] { kt::impl::gemm_dispatch_pair(D(), g.dw_problem(), g.dx_problem()); }) == 0);
  const auto dw = g.dw.to_vector(), dx = g.dx.to_vector();
  const LayerGrads<D> alone(128, 160, 192);
  kt::impl::gemm_dispatch(D(), alone.dw_problem(), kt::GemmOptions());
  kt::impl::gemm_dispatch(D(), alone.dx_problem(), kt::GemmOptions());
  CHECK(alone.dw.to_vector() == dw);
  CHECK(alone.dx.to_vector() == dx);
  kt::tuning::set_deterministic(false);
}

TEST_CASE_TEMPLATE("a pair with an empty product or k = 0 runs as gemm_dispatch runs each", D, KT_DEVICES) {
  LayerGrads<D> g(0, 80, 96);  // no rows: dw = 0 (k = 0 scales C by beta = 0), dx is empty
  CHECK(pairs_during([&] { kt::impl::gemm_dispatch_pair(D(), g.dw_problem(), g.dx_problem()); }) == 0);
  CHECK(g.dw.to_vector() == std::vector<float>(80 * 96, 0.0f));
}
