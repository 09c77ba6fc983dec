// Tests of kt/interop/eigen.hpp: kt::as_eigen and kt::from_eigen share memory (proven by
// writing through one side and reading the other), give the right shapes, refuse what would
// dangle or be misread, round-trip, and let Eigen compute on kt tensors with results that
// match kt's own ops.

#include "kt_test.hpp"

#include <kt/interop/eigen.hpp>

#include <Eigen/Dense>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

TEST_CASE_TEMPLATE("as_eigen maps a rank-2 tensor without copying", TestCase, KT_CASES(float),
                   KT_CASES(double), KT_CASES(std::int32_t)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  auto t = kt::arange<T, D>(6).reshape({2, 3});
  auto h = t.host();  // on host devices: the same storage (checked below)
  auto m = kt::as_eigen(h);
  static_assert(std::is_same_v<decltype(m), Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>>);
  CHECK(m.rows() == 2);
  CHECK(m.cols() == 3);
  CHECK(m.data() == h.data());
  CHECK(m(1, 0) == T(3));  // row-major: element (1, 0) is the 4th
  CHECK(m(0, 2) == T(2));
  m(1, 2) = T(50);  // Eigen writes, kt reads
  CHECK(h.to_vector() == std::vector<T>{0, 1, 2, 3, 4, 50});
  h *= T(2);  // kt writes, Eigen reads
  CHECK(m(1, 2) == T(100));
  CHECK(m.sum() == T(2 * (0 + 1 + 2 + 3 + 4 + 50)));
  if constexpr (kt::is_host_accessible_v<D>) {
    CHECK(h.data() == t.data());
    CHECK(t.to_vector()[5] == T(100));
  }
}

TEST_CASE_TEMPLATE("as_eigen maps rank-1 tensors and views as column vectors", D, KT_DEVICES) {
  if constexpr (kt::is_host_accessible_v<D>) {
    auto x = kt::arange<double, D>(12).reshape({3, 4});
    auto v = kt::as_eigen(x[1]);  // a temporary view: x keeps the memory alive
    CHECK(v.rows() == 4);
    CHECK(v.cols() == 1);
    CHECK(v.data() == x.data() + 4);
    CHECK(v(3, 0) == 7.0);
    v.setConstant(-1);
    CHECK(x.to_vector() == std::vector<double>{0, 1, 2, 3, -1, -1, -1, -1, 8, 9, 10, 11});
    auto rows = kt::as_eigen(x.slice(1, 3));
    CHECK(rows.rows() == 2);
    CHECK(rows.cols() == 4);
    CHECK(rows(1, 0) == 8.0);
    auto empty = kt::zeros<double, D>({0, 5});
    CHECK(kt::as_eigen(empty).size() == 0);
    CHECK(kt::as_eigen(empty).cols() == 5);
  } else {
    auto x = kt::arange<double, D>(4);
    auto h = x.host();
    CHECK(kt::as_eigen(h).rows() == 4);
  }
}

TEST_CASE("as_eigen refuses other ranks and undefined tensors and temporaries that own their memory") {
  auto x = kt::zeros<float, kt::Host>({2, 3, 4});
  CHECK(kt_test::error_of([&] { kt::as_eigen(x); }) ==
        "kt::as_eigen: needs a rank-1 or rank-2 tensor, got shape (2, 3, 4); reshape it first, "
        "e.g. t.reshape({rows, -1})");
  CHECK(kt_test::error_of([&] { kt::as_eigen(x[0][0][0]); }).find("got shape ()") != std::string::npos);
  CHECK(kt_test::error_of([] { kt::as_eigen(kt::Tensor<float, kt::Host>()); }) ==
        "kt::as_eigen: the tensor is undefined (default-constructed)");
  CHECK(kt_test::error_of([] { kt::as_eigen(kt::zeros<float, kt::Host>({2, 2})); }) ==
        "kt::as_eigen: the tensor is a temporary that alone owns its memory (shape (2, 2)), so "
        "the Map would dangle; keep it in a variable first: auto h = t.host(); auto m = "
        "kt::as_eigen(h);");
  CHECK(kt_test::error_of([&] { kt::as_eigen(x.reshape({6, 4})); }).empty());  // shares x's storage
}

TEST_CASE_TEMPLATE("from_eigen borrows a row-major matrix without copying", TestCase, KT_CASES(float),
                   KT_CASES(double), KT_CASES(std::int64_t)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  if constexpr (kt::is_host_accessible_v<D>) {
    kt::EigenMatrix<T> e(2, 3);
    e << 1, 2, 3, 4, 5, 6;
    const auto before = kt::memory_stats<D>();
    auto t = kt::from_eigen<D>(e);
    static_assert(std::is_same_v<decltype(t), kt::Tensor<T, D>>);
    CHECK(kt::memory_stats<D>().num_allocs == before.num_allocs);  // nothing allocated
    CHECK(t.shape() == kt::Shape{2, 3});
    CHECK(t.data() == e.data());
    CHECK(t.to_vector() == std::vector<T>{1, 2, 3, 4, 5, 6});  // row-major order
    e(1, 0) = T(40);  // Eigen writes, kt reads
    CHECK(t[1].to_vector() == std::vector<T>{40, 5, 6});
    t[0].fill_(T(-7));  // kt writes, Eigen reads
    CHECK(e.row(0).sum() == T(-21));
    CHECK(e(1, 2) == T(6));
    auto doubled = t * T(2);  // kt ops on borrowed memory allocate their results normally
    CHECK(doubled.data() != e.data());
    CHECK(doubled.to_vector() == std::vector<T>{-14, -14, -14, 80, 10, 12});
    CHECK(t.template to<kt::DefaultDevice>().to_vector() == t.to_vector());
  } else {
    kt::EigenMatrix<T> e = kt::EigenMatrix<T>::Constant(2, 2, T(3));
    auto t = kt::from_eigen(e).template to<D>();  // borrow on the host, then copy to D
    CHECK(t.to_vector() == std::vector<T>(4, T(3)));
  }
}

TEST_CASE("from_eigen accepts Maps, vectors and dense blocks and rejects strided memory") {
  std::vector<float> buffer{1, 2, 3, 4, 5, 6};
  auto a = kt::from_eigen(kt::EigenMap<float>(buffer.data(), 3, 2));  // a temporary Map is fine
  CHECK(a.shape() == kt::Shape{3, 2});
  CHECK(a.data() == buffer.data());
  a.fill_(0.5f);
  CHECK(buffer == std::vector<float>(6, 0.5f));

  Eigen::VectorXd column = Eigen::VectorXd::LinSpaced(4, 0, 3);  // column-major but contiguous
  auto c = kt::from_eigen(column);
  CHECK(c.shape() == kt::Shape{4, 1});
  CHECK(c.flatten().to_vector() == std::vector<double>{0, 1, 2, 3});
  Eigen::RowVectorXd row = column.transpose();
  CHECK(kt::from_eigen(row).shape() == kt::Shape{1, 4});

  kt::EigenMatrix<double> big = kt::EigenMatrix<double>::Zero(4, 3);
  auto top = kt::from_eigen(big.topRows(2));  // whole rows: dense
  CHECK(top.shape() == kt::Shape{2, 3});
  top.fill_(1.0);
  CHECK(big.sum() == 6.0);
  CHECK(big.row(2).sum() == 0.0);
  CHECK(kt_test::error_of([&] { kt::from_eigen(big.leftCols(2)); }) ==
        "kt::from_eigen: the Eigen object is not dense row-major: a 4 x 2 matrix with row stride 3 "
        "and column stride 1 (a dense one has 2 and 1); copy it into a kt::EigenMatrix<T> first");
  Eigen::Map<kt::EigenMatrix<double>, 0, Eigen::Stride<Eigen::Dynamic, 2>> every_other(
      big.data(), 2, 3, Eigen::Stride<Eigen::Dynamic, 2>(6, 2));
  CHECK(kt_test::error_of([&] { kt::from_eigen(every_other); }).find("column stride 2") != std::string::npos);
}

TEST_CASE_TEMPLATE("round trip tensor to Eigen to tensor shares one block of memory", D, KT_DEVICES) {
  auto t = kt::randn<float, D>({3, 5}, /*seed=*/11);
  auto h = t.host();
  auto m = kt::as_eigen(h);
  auto back = kt::from_eigen(m);
  CHECK(back.shape() == t.shape());
  CHECK(back.data() == h.data());
  CHECK(back.to_vector() == t.to_vector());
  back[2].fill_(9.0f);
  CHECK(m.row(2).minCoeff() == 9.0f);
  CHECK(h.to_vector()[14] == 9.0f);
}

TEST_CASE_TEMPLATE("Eigen computes the product of two kt tensors and it matches kt::matmul", TestCase,
                   KT_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  auto a = kt::randn<T, D>({7, 5}, /*seed=*/1);
  auto b = kt::randn<T, D>({5, 4}, /*seed=*/2);
  auto ha = a.host();
  auto hb = b.host();
  // Eigen writes the product straight into a kt tensor's memory.
  auto c = kt::empty<T, kt::Host>({7, 4});
  kt::as_eigen(c).noalias() = kt::as_eigen(ha) * kt::as_eigen(hb);
  const auto want = kt::matmul(a, b).to_vector();
  std::vector<double> want_double(want.begin(), want.end());
  CHECK(kt_test::all_close(c.to_vector(), want_double, 10 * kt_test::tolerance<T>()));
  // and a reduction: Eigen's sum of squares equals kt's
  const double eigen_sq = static_cast<double>(kt::as_eigen(ha).squaredNorm());
  const double kt_sq = static_cast<double>(kt::sum(a * a).item());
  CHECK(eigen_sq == doctest::Approx(kt_sq).epsilon(10 * kt_test::tolerance<T>()));
}
