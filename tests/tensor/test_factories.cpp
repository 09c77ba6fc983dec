#include "kt_test.hpp"

TEST_CASE_TEMPLATE("zeros, ones, full and the _like variants", TestCase, KT_ALL_FLOAT_CASES,
                   KT_CASES(std::int32_t), KT_CASES(std::int64_t), KT_CASES(std::uint8_t)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  CHECK(kt::zeros<T, D>({2, 3}).to_vector() == std::vector<T>(6, T(0)));
  CHECK(kt::ones<T, D>({4}).to_vector() == std::vector<T>(4, T(1)));
  auto f = kt::full<T, D>({3, 1, 2}, T(5));
  CHECK(f.shape() == kt::Shape{3, 1, 2});
  CHECK(f.to_vector() == std::vector<T>(6, T(5)));
  CHECK(kt::zeros_like(f).to_vector() == std::vector<T>(6, T(0)));
  CHECK(kt::full_like(f, T(2)).shape() == f.shape());
  CHECK(kt::empty_like(f).shape() == f.shape());
  CHECK(kt::empty<T, D>({}).numel() == 1);
  CHECK(kt::full<T, D>({}, T(3)).item() == T(3));
}

TEST_CASE_TEMPLATE("arange matches torch.arange", TestCase, KT_FLOAT_CASES, KT_CASES(std::int64_t)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  CHECK(kt::arange<T, D>(5).to_vector() == std::vector<T>{0, 1, 2, 3, 4});
  CHECK(kt::arange<T, D>(2, 11, 3).to_vector() == std::vector<T>{2, 5, 8});
  CHECK(kt::arange<T, D>(5, 0, -2).to_vector() == std::vector<T>{5, 3, 1});
  CHECK(kt::arange<T, D>(3, 3).numel() == 0);
  if constexpr (kt::is_floating_dtype_v<T>) {
    CHECK(kt_test::all_close(kt::arange<T, D>(0, 1, 0.25).to_vector(), {0, 0.25, 0.5, 0.75}));
  }
  CHECK(kt_test::error_of([] { kt::arange<T, D>(0, 5, 0); }) == "kt::arange: step must be finite and non-zero, got 0");
  CHECK(kt_test::error_of([] { kt::arange<T, D>(0, 5, -1); }).find("moves away from end") != std::string::npos);
}

TEST_CASE_TEMPLATE("linspace includes both ends exactly", TestCase, KT_ALL_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  CHECK(kt_test::all_close(kt::linspace<T, D>(-1, 1, 5).to_vector(), {-1, -0.5, 0, 0.5, 1}));
  auto v = kt::linspace<T, D>(0, 0.3, 7).to_vector();
  CHECK(v.front() == T(0));
  CHECK(v.back() == T(0.3));
  CHECK(kt::linspace<T, D>(2, 3, 1).to_vector() == std::vector<T>{T(2)});
  CHECK(kt::linspace<T, D>(2, 3, 0).numel() == 0);
  CHECK(kt_test::error_of([] { kt::linspace<T, D>(0, 1, -2); }) == "kt::linspace: steps must be non-negative, got -2");
}

TEST_CASE_TEMPLATE("from_host copies host data in row-major order", TestCase, KT_CASES(float),
                   KT_CASES(std::uint8_t)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  std::vector<T> data{1, 2, 3, 4, 5, 6};
  auto t = kt::from_host<T, D>(data, {2, 3});
  data[0] = 100;  // a copy: later host changes do not show
  CHECK(t.to_vector() == std::vector<T>{1, 2, 3, 4, 5, 6});
  CHECK(t[1].to_vector() == std::vector<T>{4, 5, 6});
  CHECK(kt::from_host<T, D>(data).shape() == kt::Shape{6});
  CHECK(kt_test::error_of([&] { kt::from_host<T, D>(data, {4, 2}); }) ==
        "kt::from_host: 6 values cannot fill shape (4, 2) (8 elements)");
  CHECK(kt_test::error_of([&] { kt::from_host<T, D>(static_cast<const T*>(nullptr), {2}); })
            .find("null pointer") != std::string::npos);
}
