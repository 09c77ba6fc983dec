#include "kt_test.hpp"

#include <functional>

namespace {
// A host reference for a binary op under broadcasting of (2,3) with each operand shape.
template <class F>
std::vector<double> reference(const std::vector<double>& a, const kt::Shape& sa, const std::vector<double>& b,
                              const kt::Shape& sb, const kt::Shape& out, F f) {
  std::vector<double> r(static_cast<std::size_t>(out.numel()));
  for (std::int64_t i = 0; i < out.numel(); ++i) {
    std::int64_t rest = i, ia = 0, ib = 0;
    for (int d = out.rank() - 1; d >= 0; --d) {
      const std::int64_t k = rest % out[d];
      rest /= out[d];
      const int da = d - (out.rank() - sa.rank()), db = d - (out.rank() - sb.rank());
      if (da >= 0 && sa[da] != 1) ia += k * sa.stride(da);
      if (db >= 0 && sb[db] != 1) ib += k * sb.stride(db);
    }
    r[static_cast<std::size_t>(i)] = f(a[static_cast<std::size_t>(ia)], b[static_cast<std::size_t>(ib)]);
  }
  return r;
}

}  // namespace

TEST_CASE_TEMPLATE("arithmetic broadcasts like NumPy", TestCase, KT_ALL_FLOAT_CASES, KT_CASES(std::int32_t)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  const std::vector<std::pair<kt::Shape, kt::Shape>> cases = {
      {{2, 3}, {2, 3}}, {{2, 3}, {3}}, {{2, 1}, {1, 3}}, {{4, 1, 3}, {2, 1}}, {{3}, {}}, {{1}, {5, 2, 1}}};
  for (const auto& shapes : cases) {
    const kt::Shape &sa = shapes.first, &sb = shapes.second;
    CAPTURE(sa.str());
    CAPTURE(sb.str());
    auto a = kt::arange<T, D>(1, double(sa.numel()) + 1).reshape(sa.dims());
    auto b = (kt::arange<T, D>(0, double(sb.numel())) + T(2)).reshape(sb.dims());
    const auto va = kt_test::as_double(a.to_vector()), vb = kt_test::as_double(b.to_vector());
    const kt::Shape out = kt::impl::broadcast_shapes(sa, sb, "test");
    CHECK((a + b).shape() == out);
    CHECK(kt_test::all_close((a + b).to_vector(), reference(va, sa, vb, sb, out, std::plus<>())));
    CHECK(kt_test::all_close((a - b).to_vector(), reference(va, sa, vb, sb, out, std::minus<>())));
    CHECK(kt_test::all_close((a * b).to_vector(), reference(va, sa, vb, sb, out, std::multiplies<>())));
    if constexpr (kt::is_floating_dtype_v<T>) {
      CHECK(kt_test::all_close((a / b).to_vector(), reference(va, sa, vb, sb, out, std::divides<>())));
    }
    if constexpr (std::is_floating_point_v<T>) {  // 16-bit types overflow at these powers
      CHECK(kt_test::all_close(kt::pow(b, a).to_vector(),
                               reference(vb, sb, va, sa, kt::impl::broadcast_shapes(sb, sa, "t"),
                                         [](double x, double y) { return std::pow(x, y); }),
                               3 * kt_test::tolerance<T>()));
    }
    if constexpr (!kt::is_floating_dtype_v<T>) {
      CHECK(kt_test::all_close((a / b).to_vector(),
                               reference(va, sa, vb, sb, out, [](double x, double y) { return std::trunc(x / y); })));
    }
    CHECK(kt_test::all_close(kt::maximum(a, b).to_vector(),
                             reference(va, sa, vb, sb, out, [](double x, double y) { return std::max(x, y); })));
    CHECK(kt_test::all_close(kt::minimum(a, b).to_vector(),
                             reference(va, sa, vb, sb, out, [](double x, double y) { return std::min(x, y); })));
  }
}

TEST_CASE_TEMPLATE("broadcasts large enough to split across threads, in place and into a new tensor", TestCase,
                   KT_FLOAT_CASES) {
  // Host kernels walk the output by rows of its last dimension and split the rows between
  // threads above 8192 elements: a row vector, a column vector and a middle-dimension broadcast.
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  const std::vector<std::pair<kt::Shape, kt::Shape>> cases = {
      {{300, 40}, {40}}, {{40, 300}, {40, 1}}, {{7, 50, 30}, {7, 1, 30}}};
  for (const auto& shapes : cases) {
    const kt::Shape& sa = shapes.first;  // not a structured binding: CAPTURE's lambda captures it,
    const kt::Shape& sb = shapes.second;  // which C++17 does not allow for bindings
    CAPTURE(sa.str());
    CAPTURE(sb.str());
    const auto a = kt::randn<T, D>(sa, 1), b = kt::randn<T, D>(sb, 2);
    const auto va = kt_test::as_double(a.to_vector()), vb = kt_test::as_double(b.to_vector());
    const auto expected = reference(va, sa, vb, sb, sa, std::multiplies<>());
    CHECK(kt_test::all_close((a * b).to_vector(), expected));
    auto c = a.clone();
    c *= b;
    CHECK(kt_test::all_close(c.to_vector(), expected));
  }
}

TEST_CASE_TEMPLATE("scalar operands on either side", TestCase, KT_ALL_FLOAT_CASES, KT_CASES(std::int64_t)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  auto a = kt::from_host<T, D>(std::vector<T>{T(1), T(2), T(4)});
  CHECK(kt_test::all_close((a + 1).to_vector(), {2, 3, 5}));
  CHECK(kt_test::all_close((10 - a).to_vector(), {9, 8, 6}));
  CHECK(kt_test::all_close((a * 3).to_vector(), {3, 6, 12}));
  CHECK(kt_test::all_close((8 / a).to_vector(), {8, 4, 2}));
  CHECK(kt_test::all_close((a / 2).to_vector(), kt::is_floating_dtype_v<T> ? std::vector<double>{0.5, 1, 2}
                                                                            : std::vector<double>{0, 1, 2}));
  CHECK(kt_test::all_close(kt::maximum(a, 2).to_vector(), {2, 2, 4}));
  CHECK(kt_test::all_close(kt::minimum(3, a).to_vector(), {1, 2, 3}));
  CHECK(kt_test::all_close(kt::pow(a, 2).to_vector(), {1, 4, 16}));
  if constexpr (kt::is_floating_dtype_v<T>) {
    CHECK(kt_test::all_close((a * 0.5).to_vector(), {0.5, 1, 2}));
    CHECK(kt_test::all_close(kt::pow(2.0f, a).to_vector(), {2, 4, 16}));
  }
}

TEST_CASE_TEMPLATE("comparisons return uint8 masks", TestCase, KT_FLOAT_CASES, KT_CASES(kt::half),
                   KT_CASES(std::int32_t)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  auto a = kt::from_host<T, D>(std::vector<T>{T(1), T(2), T(3)});
  auto b = kt::from_host<T, D>(std::vector<T>{T(3), T(2), T(1)});
  using M = std::vector<std::uint8_t>;
  CHECK(std::is_same_v<typename decltype(a == b)::value_type, std::uint8_t>);
  CHECK((a == b).to_vector() == M{0, 1, 0});
  CHECK((a != b).to_vector() == M{1, 0, 1});
  CHECK((a < b).to_vector() == M{1, 0, 0});
  CHECK((a <= b).to_vector() == M{1, 1, 0});
  CHECK((a > b).to_vector() == M{0, 0, 1});
  CHECK((a >= b).to_vector() == M{0, 1, 1});
  CHECK((a > 1).to_vector() == M{0, 1, 1});
  CHECK((2 >= a).to_vector() == M{1, 1, 0});
  CHECK((a.reshape({3, 1}) < b).shape() == kt::Shape{3, 3});
  // The named forms (torch.eq, ...), with and without an instance.
  CHECK(kt::eq(a, b).to_vector() == M{0, 1, 0});
  CHECK(kt::ne(a, b).to_vector() == M{1, 0, 1});
  CHECK(kt::lt(a, b).to_vector() == M{1, 0, 0});
  CHECK(kt::le(a, 2).to_vector() == M{1, 1, 0});
  CHECK(kt::gt(D(), a, b).to_vector() == M{0, 0, 1});
  CHECK(kt::ge(a, b).to_vector() == M{0, 1, 1});
}

TEST_CASE_TEMPLATE("named arithmetic, in place and not, and full_like of any scalar", TestCase, KT_FLOAT_CASES,
                   KT_CASES(std::int32_t)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  auto a = kt::from_host<T, D>(std::vector<T>{T(1), T(2), T(3)});
  const auto b = kt::full_like(a, 2.0);  // a double for a T tensor: the dtype is a's
  static_assert(std::is_same_v<typename decltype(b)::value_type, T>);
  CHECK(kt_test::all_close(kt::add(a, b).to_vector(), {3, 4, 5}));
  CHECK(kt_test::all_close(kt::sub(a, b).to_vector(), {-1, 0, 1}));
  CHECK(kt_test::all_close(kt::mul(a, 3).to_vector(), {3, 6, 9}));
  CHECK(kt_test::all_close(kt::div(kt::mul(a, 2), b).to_vector(), {1, 2, 3}));
  CHECK(kt_test::all_close(kt::neg(a).to_vector(), {-1, -2, -3}));
  const T* before = a.data();
  kt::add_(a, b);
  kt::mul_(a, 2);
  kt::sub_(a, 1);
  kt::div_(D(), a, b);
  CHECK(a.data() == before);
  if constexpr (std::is_integral_v<T>) CHECK(a.to_vector() == std::vector<T>{2, 3, 4});
  else CHECK(kt_test::all_close(a.to_vector(), {2.5, 3.5, 4.5}));
}

TEST_CASE_TEMPLATE("in-place operators write into the left operand", TestCase, KT_FLOAT_CASES,
                   KT_CASES(kt::bfloat16), KT_CASES(std::int32_t)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  auto a = kt::ones<T, D>({2, 3});
  const T* before = a.data();
  a += kt::arange<T, D>(3);  // broadcast over rows
  a *= 2;
  a -= kt::ones<T, D>({2, 1});
  a /= kt::full<T, D>({}, T(1));
  CHECK(a.data() == before);
  CHECK(kt_test::all_close(a.to_vector(), {1, 3, 5, 1, 3, 5}));
  CHECK(kt_test::error_of([&] { a += kt::ones<T, D>({2, 2, 3}); }) ==
        "kt::operator+=: the result shape (2, 2, 3) differs from the in-place operand's shape (2, 3)");
}

TEST_CASE_TEMPLATE("NaN propagates through maximum and minimum", TestCase, KT_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  auto a = kt::from_host<T, D>(std::vector<T>{nan, 1, 2});
  auto b = kt::from_host<T, D>(std::vector<T>{0, nan, 1});
  const auto mx = kt::maximum(a, b).to_vector(), mn = kt::minimum(a, b).to_vector();
  CHECK(std::isnan(mx[0]));
  CHECK(std::isnan(mx[1]));
  CHECK(mx[2] == 2);
  CHECK(std::isnan(mn[0]));
  CHECK(std::isnan(mn[1]));
  CHECK(mn[2] == 1);
}

TEST_CASE_TEMPLATE("elementwise errors: shapes that do not broadcast and integer division by zero", D,
                   KT_DEVICES) {
  auto a = kt::ones<float, D>({2, 3});
  CHECK(kt_test::error_of([&] { a + kt::ones<float, D>({4}); }) ==
        "kt::operator+: shapes (2, 3) and (4) cannot be broadcast (dimension 1: 3 vs 4)");
  CHECK(kt_test::error_of([&] { kt::maximum(a, kt::ones<float, D>({3, 3})); })
            .find("kt::maximum: shapes (2, 3) and (3, 3) cannot be broadcast") != std::string::npos);
  auto i = kt::from_host<std::int32_t, D>(std::vector<std::int32_t>{4, 0, 2});
  CHECK(kt_test::error_of([&] { kt::ones<std::int32_t, D>({3}) / i; }) ==
        "kt::operator/: integer division by zero (1 zero divisors)");
  CHECK(kt_test::error_of([&] { i / 0; }) == "kt::operator/: integer division by zero");
  CHECK(kt_test::error_of([&] { 5 / i; }).find("integer division by zero") != std::string::npos);
  CHECK(kt_test::error_of([&] { i /= 0; }) == "kt::operator/=: integer division by zero");
  auto f = a / kt::zeros<float, D>({3});  // floating division by zero is IEEE: inf
  CHECK(std::isinf(f.to_vector()[0]));
}
