// Tests of kt/tensor/reduce.hpp: sum, mean, max, min, argmax, argmin over all elements and
// along each dim (with and without keepdim) against Eigen in double; sizes that take one,
// two and three passes of chunk partials; first-occurrence and NaN semantics by hand; empty
// and rank-0 tensors; every error message; and bit-identical results on OpenMP and Serial.

#include "kt_test.hpp"

#include <Eigen/Dense>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

enum class Op { sum, mean, max, min, argmax, argmin };

/// The reduction of x (shape s) along dim in double, with Eigen: for each outer index the
/// (n, inner) block is a row-major matrix reduced column by column.
std::vector<double> reference(const std::vector<double>& x, const kt::Shape& s, int dim, Op op) {
  std::int64_t outer = 1, inner = 1;
  for (int k = 0; k < dim; ++k) outer *= s[k];
  for (int k = dim + 1; k < s.rank(); ++k) inner *= s[k];
  const std::int64_t n = s[dim];
  std::vector<double> out;
  for (std::int64_t o = 0; o < outer; ++o) {
    const Eigen::Map<const RowMajor> block(x.data() + o * n * inner, n, inner);
    for (std::int64_t i = 0; i < inner; ++i) {
      Eigen::Index at = 0;
      switch (op) {
        case Op::sum: out.push_back(block.col(i).sum()); break;
        case Op::mean: out.push_back(block.col(i).mean()); break;
        case Op::max: out.push_back(block.col(i).maxCoeff()); break;
        case Op::min: out.push_back(block.col(i).minCoeff()); break;
        case Op::argmax: block.col(i).maxCoeff(&at); out.push_back(double(at)); break;
        case Op::argmin: block.col(i).minCoeff(&at); out.push_back(double(at)); break;
      }
    }
  }
  return out;
}

template <class T>
std::uint64_t bits(T x) {
  std::uint64_t u = 0;
  std::memcpy(&u, &x, sizeof(T));
  return u;
}

}  // namespace

TEST_CASE_TEMPLATE("kt::sum and kt::mean over all elements match Eigen in double", TestCase,
                   KT_ALL_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  for (const std::int64_t n : {1, 7, 33, 65, 4096, 4097, 70001}) {
    CAPTURE(n);
    const auto x = kt::randn<T, D>({n}, /*seed=*/n, /*mean=*/0.5);
    const auto xs = kt_test::as_double(x.to_vector());
    const Eigen::Map<const Eigen::ArrayXd> ref(xs.data(), n);
    const auto s = kt::sum(x);
    static_assert(std::is_same_v<decltype(s), const kt::Tensor<T, D>>);
    CHECK(s.rank() == 0);
    CHECK(kt_test::all_close(s.to_vector(), {ref.sum()}));
    CHECK(kt_test::all_close(kt::mean(x).to_vector(), {ref.mean()}));
    // The same elements as a matrix reduce to the same sum.
    CHECK(kt_test::all_close(kt::sum(x.reshape({1, n, 1})).to_vector(), {ref.sum()}));
  }
}

TEST_CASE_TEMPLATE("kt::sum and kt::mean along each dim with and without keepdim", TestCase,
                   KT_ALL_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  for (const kt::Shape& shape : {kt::Shape{3, 5, 7}, kt::Shape{2, 5000}, kt::Shape{5000, 3}, kt::Shape{33}}) {
    const auto x = kt::randn<T, D>(shape, /*seed=*/7);
    const auto xs = kt_test::as_double(x.to_vector());
    for (int dim = -shape.rank(); dim < shape.rank(); ++dim) {
      CAPTURE(shape.str());
      CAPTURE(dim);
      const int d = dim < 0 ? dim + shape.rank() : dim;
      const auto sum = kt::sum(x, dim), mean = kt::mean(x, dim, /*keepdim=*/false);
      CHECK(sum.shape() == shape.without(d));
      CHECK(mean.shape() == shape.without(d));
      CHECK(kt::sum(x, dim, /*keepdim=*/true).shape() == shape.with(d, 1));
      CHECK(kt::mean(x, dim, /*keepdim=*/true).shape() == shape.with(d, 1));
      CHECK(kt_test::all_close(sum.to_vector(), reference(xs, shape, d, Op::sum)));
      CHECK(kt_test::all_close(mean.to_vector(), reference(xs, shape, d, Op::mean)));
      CHECK(kt::sum(x, dim, true).to_vector() == sum.to_vector());
    }
  }
}

TEST_CASE_TEMPLATE("kt::max kt::min kt::argmax kt::argmin match Eigen over all and along dims",
                   TestCase, KT_FLOAT_CASES, KT_CASES(kt::half)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  // In half, 10000 normal values hold many ties: the first occurrence must win.
  for (const kt::Shape& shape : {kt::Shape{10000}, kt::Shape{4, 9, 5}, kt::Shape{3, 4500}, kt::Shape{4500, 2}}) {
    CAPTURE(shape.str());
    const auto x = kt::randn<T, D>(shape, /*seed=*/11);
    const auto xs = kt_test::as_double(x.to_vector());
    const auto flat = kt::Shape{shape.numel()};
    CHECK(kt_test::all_close(kt::max(x).to_vector(), reference(xs, flat, 0, Op::max), 0.0));
    CHECK(kt_test::all_close(kt::min(x).to_vector(), reference(xs, flat, 0, Op::min), 0.0));
    CHECK(kt_test::as_double(kt::argmax(x).to_vector()) == reference(xs, flat, 0, Op::argmax));
    CHECK(kt_test::as_double(kt::argmin(x).to_vector()) == reference(xs, flat, 0, Op::argmin));
    for (int dim = 0; dim < shape.rank(); ++dim) {
      CAPTURE(dim);
      const auto am = kt::argmax(x, dim, /*keepdim=*/true);
      static_assert(std::is_same_v<decltype(am), const kt::Tensor<std::int64_t, D>>);
      CHECK(am.shape() == shape.with(dim, 1));
      CHECK(kt::max(x, -shape.rank() + dim).shape() == shape.without(dim));
      CHECK(kt_test::as_double(am.to_vector()) == reference(xs, shape, dim, Op::argmax));
      CHECK(kt_test::as_double(kt::argmin(x, dim).to_vector()) == reference(xs, shape, dim, Op::argmin));
      CHECK(kt_test::all_close(kt::max(x, dim).to_vector(), reference(xs, shape, dim, Op::max), 0.0));
      CHECK(kt_test::all_close(kt::min(x, dim, true).to_vector(), reference(xs, shape, dim, Op::min), 0.0));
    }
  }
}

TEST_CASE_TEMPLATE("argmax and argmin pick the first occurrence and NaN propagates", TestCase,
                   KT_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
  const auto ties = kt::from_host<T, D>(std::vector<T>{1, 3, 3, -2, -2, 0}, {6});
  CHECK(kt::argmax(ties).item() == 1);
  CHECK(kt::argmin(ties).item() == 3);
  CHECK(kt::max(ties).item() == 3);
  CHECK(kt::min(ties).item() == -2);
  // (2, 3): along dim 0 column 1 ties (first row wins), along dim 1 row 1 ties.
  const auto m = kt::from_host<T, D>(std::vector<T>{4, 5, 1, 2, 5, 2}, {2, 3});
  CHECK(kt::argmax(m, 0).to_vector() == std::vector<std::int64_t>{0, 0, 1});
  CHECK(kt::argmin(m, 0).to_vector() == std::vector<std::int64_t>{1, 0, 0});
  CHECK(kt::argmax(m, 1).to_vector() == std::vector<std::int64_t>{1, 1});
  CHECK(kt::argmin(m, 1).to_vector() == std::vector<std::int64_t>{2, 0});
  CHECK(kt::argmax(kt::full<T, D>({5}, -inf)).item() == 0);
  CHECK(kt::argmin(kt::full<T, D>({5}, inf)).item() == 0);
  // NaN is the extreme of both argmax and argmin; max, min, sum and mean propagate it.
  const auto n = kt::from_host<T, D>(std::vector<T>{1, nan, 5, nan, -inf}, {5});
  CHECK(kt::argmax(n).item() == 1);
  CHECK(kt::argmin(n).item() == 1);
  CHECK(std::isnan(kt::max(n).item()));
  CHECK(std::isnan(kt::min(n).item()));
  CHECK(std::isnan(kt::sum(n).item()));
  CHECK(std::isnan(kt::mean(n).item()));
  // Across chunk partials: NaN at 5000 beats a larger number at 6000 and a later NaN.
  std::vector<T> big(9000, T(0));
  big[100] = T(1);
  big[5000] = nan;
  big[6000] = T(7);
  big[8000] = nan;
  const auto b = kt::from_host<T, D>(big, {9000});
  CHECK(kt::argmax(b).item() == 5000);
  CHECK(kt::argmin(b).item() == 5000);
  CHECK(kt::argmax(b.reshape({1, 9000}), 1).item() == 5000);
  big[5000] = big[8000] = T(0);
  CHECK(kt::argmax(kt::from_host<T, D>(big, {9000})).item() == 6000);
  CHECK(kt::argmin(kt::from_host<T, D>(big, {9000})).item() == 0);
}

TEST_CASE_TEMPLATE("integer sums are int64 and integer max and min keep the dtype", TestCase,
                   KT_CASES(std::int32_t)) {
  using D = typename TestCase::device;
  const auto x = kt::full<std::int32_t, D>({3, 2}, 2000000000);
  const auto s = kt::sum(x);
  static_assert(std::is_same_v<decltype(s), const kt::Tensor<std::int64_t, D>>);
  static_assert(std::is_same_v<decltype(kt::max(x)), kt::Tensor<std::int32_t, D>>);
  CHECK(s.item() == 12000000000);
  CHECK(kt::sum(x, 0).to_vector() == std::vector<std::int64_t>{6000000000, 6000000000});
  const auto v = kt::from_host<std::int32_t, D>(std::vector<std::int32_t>{3, -7, 9, 9, -7, 0}, {2, 3});
  CHECK(kt::max(v).item() == 9);
  CHECK(kt::min(v).item() == -7);
  CHECK(kt::argmax(v).item() == 2);
  CHECK(kt::argmin(v).item() == 1);
  CHECK(kt::max(v, 1).to_vector() == std::vector<std::int32_t>{9, 9});
  CHECK(kt::argmin(v, 1).to_vector() == std::vector<std::int64_t>{1, 1});
  CHECK(kt::sum(v, -1, true).to_vector() == std::vector<std::int64_t>{5, 2});
  const auto bytes = kt::full<std::uint8_t, D>({1000}, 255);
  static_assert(std::is_same_v<decltype(kt::sum(bytes)), kt::Tensor<std::int64_t, D>>);
  CHECK(kt::sum(bytes).item() == 255000);
}

TEST_CASE_TEMPLATE("uint8 sum and argmax through three passes of chunk partials", D, KT_DEVICES) {
  // 4096 * 4096 + 5 elements: 4097 partials, reduced to 2, then to 1.
  const std::int64_t n = 4096 * 4096 + 5;
  const auto x = kt::ones<std::uint8_t, D>({n});
  CHECK(kt::sum(x).item() == n);
  CHECK(kt::sum(x.reshape({1, n}), 1).item() == n);
  x[n - 3].fill_(7);
  x[n - 1].fill_(7);
  x[12345].fill_(0);
  CHECK(kt::argmax(x).item() == n - 3);
  CHECK(kt::argmin(x).item() == 12345);
  CHECK(kt::sum(x).item() == n + 11);
}

TEST_CASE_TEMPLATE("reductions of empty and rank-0 tensors", D, KT_DEVICES) {
  const auto e = kt::zeros<float, D>({0});
  CHECK(kt::sum(e).item() == 0.0f);
  CHECK(std::isnan(kt::mean(e).item()));
  const auto e2 = kt::zeros<float, D>({0, 3});
  CHECK(kt::sum(e2, 0).to_vector() == std::vector<float>{0, 0, 0});
  CHECK(std::isnan(kt::mean(e2, 0).to_vector()[1]));
  CHECK(kt::max(e2, 1).shape() == kt::Shape{0});  // nothing to reduce per row: no error
  CHECK(kt::argmax(e2, 1, true).shape() == kt::Shape{0, 1});
  CHECK(kt::sum(kt::zeros<std::int32_t, D>({4, 0}), 1).to_vector() == std::vector<std::int64_t>{0, 0, 0, 0});
  const auto s = kt::full<double, D>({}, 2.5);
  CHECK(kt::sum(s).item() == 2.5);
  CHECK(kt::mean(s, 0).item() == 2.5);
  CHECK(kt::max(s, -1, /*keepdim=*/true).shape() == kt::Shape{});
  CHECK(kt::argmax(s).item() == 0);
  CHECK(kt::argmin(s, 0).item() == 0);
}

TEST_CASE("reduction errors name the op and the values") {
  using D = kt::DefaultDevice;
  const auto e = kt::zeros<float, D>({2, 0});
  CHECK(kt_test::error_of([&] { kt::max(e); }) ==
        "kt::max: cannot reduce an empty tensor of shape (2, 0); the result would have no value");
  CHECK(kt_test::error_of([&] { kt::min(e); }).find("kt::min: cannot reduce an empty tensor") != std::string::npos);
  CHECK(kt_test::error_of([&] { kt::argmin(e); }).find("kt::argmin: cannot reduce an empty tensor") != std::string::npos);
  CHECK(kt_test::error_of([&] { kt::argmax(e, 1); }) ==
        "kt::argmax: cannot reduce an empty tensor over dimension 1 of size 0 (shape (2, 0))");
  CHECK(kt_test::error_of([&] { kt::max(e, -1, true); }).find("kt::max: cannot reduce an empty tensor") != std::string::npos);
  CHECK(kt_test::error_of([&] { kt::argmax(e, 0); }).empty());  // reduces 2 rows of nothing
  const auto x = kt::ones<float, D>({2, 3});
  CHECK(kt_test::error_of([&] { kt::sum(x, 2); }) ==
        "kt::sum: dimension 2 is out of range for shape (2, 3) (expected a dimension in [-2, 1])");
  CHECK(kt_test::error_of([&] { kt::mean(x, -3); }).find("kt::mean: dimension -3 is out of range") != std::string::npos);
  CHECK(kt_test::error_of([&] { kt::argmin(x, 5, true); }).find("kt::argmin: dimension 5") != std::string::npos);
  CHECK(kt_test::error_of([&] { kt::sum(kt::ones<float, D>({}), 1); }).find("(expected a dimension in [-1, 0])") != std::string::npos);
  CHECK(kt_test::error_of([&] { kt::sum(kt::Tensor<float, D>()); }) ==
        "kt::sum: the input is an undefined tensor");
  CHECK(kt_test::error_of([&] { kt::max(kt::Tensor<float, D>(), 0); }) ==
        "kt::max: the input is an undefined tensor");
}

#if defined(KOKKOS_ENABLE_OPENMP)
TEST_CASE("reductions of 1e6 floats are bit-identical on OpenMP and Serial") {
  // ctest reruns this at 1, 3 and 4 OpenMP threads; each run must match Serial bit for bit.
  const auto x = kt::randn<float, kt::OpenMP>({1000, 1000}, /*seed=*/2024, /*mean=*/0.1);
  const auto y = kt::randn<float, kt::Serial>({1000, 1000}, /*seed=*/2024, /*mean=*/0.1);
  REQUIRE(x.to_vector() == y.to_vector());
  CHECK(bits(kt::sum(x).item()) == bits(kt::sum(y).item()));
  CHECK(bits(kt::mean(x).item()) == bits(kt::mean(y).item()));
  CHECK(kt::argmax(x).item() == kt::argmax(y).item());
  const auto same_bits = [](const auto& a, const auto& b) {
    const auto u = a.to_vector(), v = b.to_vector();
    return u.size() == v.size() && std::memcmp(u.data(), v.data(), u.size() * sizeof(u[0])) == 0;
  };
  for (int dim : {0, 1}) {
    CAPTURE(dim);
    CHECK(same_bits(kt::sum(x, dim), kt::sum(y, dim)));
    CHECK(same_bits(kt::mean(x, dim, true), kt::mean(y, dim, true)));
    CHECK(same_bits(kt::max(x, dim), kt::max(y, dim)));
  }
  // Chunk partials along a long dim, and 16-bit accumulation.
  CHECK(same_bits(kt::sum(x.reshape({10, 100000}), 1), kt::sum(y.reshape({10, 100000}), 1)));
  CHECK(same_bits(kt::sum(x.reshape({100000, 10}), 0), kt::sum(y.reshape({100000, 10}), 0)));
  CHECK(bits(kt::sum(x.to<kt::half>()).item()) == bits(kt::sum(y.to<kt::half>()).item()));
  // float sums accumulate in double, where a different order rarely shows after rounding;
  // double sums show any change of order in their last bits, so check those too.
  const auto xd = kt::randn<double, kt::OpenMP>({1000, 1000}, /*seed=*/7, /*mean=*/0.1);
  const auto yd = kt::randn<double, kt::Serial>({1000, 1000}, /*seed=*/7, /*mean=*/0.1);
  CHECK(bits(kt::sum(xd).item()) == bits(kt::sum(yd).item()));
  CHECK(bits(kt::mean(xd).item()) == bits(kt::mean(yd).item()));
  CHECK(same_bits(kt::sum(xd.reshape({10, 100000}), 1), kt::sum(yd.reshape({10, 100000}), 1)));
  CHECK(same_bits(kt::mean(xd, 0), kt::mean(yd, 0)));
  // And the common result is accurate: double accumulation leaves only float's rounding.
  const auto xs = kt_test::as_double(y.to_vector());
  CHECK(kt_test::all_close(kt::sum(x).to_vector(), {Eigen::Map<const Eigen::ArrayXd>(xs.data(), 1000000).sum()}));
}
#endif
