// Tests of kt/tensor/matmul.hpp: 2-D products of odd shapes, batched and broadcast 3-D
// products against Eigen in double; zero-size dims; integer products by hand; the
// execution-space overload; and every error message. (Mixing devices is a compile-time error,
// checked by tests/compile_fail/matmul.cpp.)

#include "kt_test.hpp"

#include <Eigen/Dense>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Reference of a (batch, m, k) x (batch, k, n) product in double with Eigen; a batch stride
/// of 0 broadcasts an operand.
std::vector<double> reference(const std::vector<double>& a, const std::vector<double>& b, std::int64_t batch,
                              std::int64_t m, std::int64_t k, std::int64_t n, bool a_batched, bool b_batched) {
  std::vector<double> out(static_cast<std::size_t>(batch * m * n));
  for (std::int64_t p = 0; p < batch; ++p) {
    const Eigen::Map<const RowMajor> x(a.data() + (a_batched ? p * m * k : 0), m, k);
    const Eigen::Map<const RowMajor> y(b.data() + (b_batched ? p * k * n : 0), k, n);
    Eigen::Map<RowMajor>(out.data() + p * m * n, m, n) = x * y;
  }
  return out;
}

/// The tolerance of a K-term product: the dtype's, widened for the fp32/fp64 rounding of K
/// accumulations.
template <class T>
double tolerance(std::int64_t k) {
  return kt_test::tolerance<T>() * (1.0 + static_cast<double>(k) / 64.0);
}

}  // namespace

TEST_CASE_TEMPLATE("kt::matmul of 2-D operands matches Eigen on odd shapes", TestCase, KT_ALL_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  std::uint64_t seed = 0;
  for (const std::int64_t m : {1, 7, 33, 65})
    for (const std::int64_t k : {1, 7, 33, 65})
      for (const std::int64_t n : {1, 7, 33, 65}) {
        CAPTURE(m);
        CAPTURE(k);
        CAPTURE(n);
        const auto a = kt::randn<T, D>({m, k}, ++seed), b = kt::randn<T, D>({k, n}, ++seed);
        const auto c = kt::matmul(a, b);
        static_assert(std::is_same_v<decltype(c), const kt::Tensor<T, D>>);
        CHECK(c.shape() == kt::Shape{m, n});
        const auto want = reference(kt_test::as_double(a.to_vector()), kt_test::as_double(b.to_vector()), 1, m, k, n, false, false);
        CHECK(kt_test::all_close(c.to_vector(), want, tolerance<T>(k)));
      }
}

TEST_CASE_TEMPLATE("batched and broadcast 3-D kt::matmul matches Eigen", TestCase, KT_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  struct Case {
    kt::Shape a, b;
  };
  // (B,M,K)x(B,K,N), 3-D x 2-D, 2-D x 3-D, and a batch of 1 on either side.
  for (const Case& c : {Case{{3, 7, 33}, {3, 33, 5}}, Case{{4, 7, 33}, {33, 5}}, Case{{7, 33}, {4, 33, 5}},
                        Case{{1, 7, 65}, {4, 65, 1}}, Case{{5, 1, 7}, {1, 7, 33}}, Case{{1, 3, 4}, {1, 4, 2}}}) {
    CAPTURE(c.a.str());
    CAPTURE(c.b.str());
    const auto a = kt::randn<T, D>(c.a, 1), b = kt::randn<T, D>(c.b, 2);
    const bool a3 = c.a.rank() == 3 && c.a[0] > 1, b3 = c.b.rank() == 3 && c.b[0] > 1;
    const std::int64_t batch = a3 ? c.a[0] : (b3 ? c.b[0] : 1), m = c.a[-2], k = c.a[-1], n = c.b[-1];
    const auto out = kt::matmul(a, b);
    CHECK(out.shape() == kt::Shape{batch, m, n});
    const auto want = reference(kt_test::as_double(a.to_vector()), kt_test::as_double(b.to_vector()), batch, m, k, n, a3, b3);
    CHECK(kt_test::all_close(out.to_vector(), want, tolerance<T>(k)));
  }
  // Each batch of a batched product is the 2-D product of its slices: bit for bit on the host;
  // on a GPU cuBLAS' batched kernel sums in another order than its 2-D one (fp32 rounding).
  const auto a = kt::randn<T, D>({3, 6, 9}, 5), b = kt::randn<T, D>({3, 9, 4}, 6);
  const auto c = kt::matmul(a, b);
  const double same = kt::is_host_accessible_v<D> ? 0.0 : tolerance<T>(9);
  for (std::int64_t p = 0; p < 3; ++p)
    CHECK(kt_test::all_close(c[p].to_vector(), kt_test::as_double(kt::matmul(a[p], b[p]).to_vector()), same));
}

TEST_CASE_TEMPLATE("kt::matmul with zero-size dims gives empty or zero results", D, KT_DEVICES) {
  const auto empty_m = kt::matmul(kt::ones<float, D>({0, 4}), kt::ones<float, D>({4, 3}));
  CHECK(empty_m.shape() == kt::Shape{0, 3});
  CHECK(kt::matmul(kt::ones<float, D>({2, 4}), kt::ones<float, D>({4, 0})).shape() == kt::Shape{2, 0});
  // K = 0: an empty sum, so every element is 0.
  const auto k0 = kt::matmul(kt::ones<double, D>({3, 0}), kt::ones<double, D>({0, 2}));
  CHECK(k0.shape() == kt::Shape{3, 2});
  CHECK(k0.to_vector() == std::vector<double>(6, 0.0));
  const auto b0 = kt::matmul(kt::ones<float, D>({0, 2, 3}), kt::ones<float, D>({3, 5}));
  CHECK(b0.shape() == kt::Shape{0, 2, 5});
  const auto bk0 = kt::matmul(kt::ones<kt::half, D>({2, 2, 0}), kt::ones<kt::half, D>({2, 0, 3}));
  CHECK(bk0.shape() == kt::Shape{2, 2, 3});
  CHECK(kt_test::as_double(bk0.to_vector()) == std::vector<double>(12, 0.0));
}

TEST_CASE_TEMPLATE("integer kt::matmul accumulates exactly", TestCase, KT_CASES(std::int32_t)) {
  using D = typename TestCase::device;
  const auto a = kt::from_host<std::int32_t, D>(std::vector<std::int32_t>{1, 2, 3, 4}, {2, 2});
  const auto b = kt::from_host<std::int32_t, D>(std::vector<std::int32_t>{5, 6, 7, 8}, {2, 2});
  CHECK(kt::matmul(a, b).to_vector() == std::vector<std::int32_t>{19, 22, 43, 50});
  // (1, 3) x (3, 1) of large values: the int64 accumulator holds the exact 3 * 1e9.
  const auto big = kt::full<std::int32_t, D>({1, 3}, 1000000000);
  const auto one = kt::ones<std::int32_t, D>({3, 1});
  CHECK(kt::matmul(big, one).item() == static_cast<std::int32_t>(static_cast<std::uint32_t>(3000000000u)));
  const auto bytes = kt::full<std::uint8_t, D>({2, 3}, 2);
  CHECK(kt::matmul(bytes, kt::full<std::uint8_t, D>({3, 2}, 3)).to_vector() == std::vector<std::uint8_t>(4, 18));
}

TEST_CASE("kt::matmul on an execution space instance equals the default instance") {
  using D = kt::DefaultDevice;
  const auto a = kt::randn<float, D>({2, 17, 31}, 3), b = kt::randn<float, D>({31, 9}, 4);
  const D exec;
  const auto c = kt::matmul(exec, a, b);
  exec.fence();
  CHECK(c.shape() == kt::Shape{2, 17, 9});
  CHECK(c.to_vector() == kt::matmul(a, b).to_vector());
}

TEST_CASE("kt::matmul errors name both shapes or ranks") {
  using D = kt::DefaultDevice;
  const auto x = kt::ones<float, D>({64, 784}), w = kt::ones<float, D>({512, 10});
  CHECK(kt_test::error_of([&] { kt::matmul(x, w); }) == "kt::matmul: inner dimensions differ: (64, 784) x (512, 10)");
  CHECK(kt_test::error_of([&] { kt::matmul(kt::ones<float, D>({2, 3, 4}), w); })
            .find("kt::matmul: inner dimensions differ: (2, 3, 4) x (512, 10)") != std::string::npos);
  CHECK(kt_test::error_of([&] { kt::matmul(kt::ones<float, D>({2, 3, 4}), kt::ones<float, D>({3, 4, 5})); }) ==
        "kt::matmul: batch dimensions differ: (2, 3, 4) x (3, 4, 5)");
  CHECK(kt_test::error_of([&] { kt::matmul(kt::ones<float, D>({784}), w); }) ==
        "kt::matmul: expects 2-D or 3-D operands, got ranks 1 and 2: (784) x (512, 10)");
  CHECK(kt_test::error_of([&] { kt::matmul(x, kt::ones<float, D>({1, 1, 784, 10})); })
            .find("got ranks 2 and 4") != std::string::npos);
  CHECK(kt_test::error_of([&] { kt::matmul(kt::ones<float, D>({}), kt::ones<float, D>({})); })
            .find("got ranks 0 and 0") != std::string::npos);
  CHECK(kt_test::error_of([&] { kt::matmul(kt::Tensor<float, D>(), w); }) ==
        "kt::matmul: the left operand is an undefined tensor");
  CHECK(kt_test::error_of([&] { kt::matmul(x, kt::Tensor<float, D>()); }) ==
        "kt::matmul: the right operand is an undefined tensor");
}
