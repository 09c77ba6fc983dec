// Tests of kt/tensor/print.hpp: the exact text of torch.Tensor's repr rules (common width,
// 4 decimals, "3." for integral floats, scientific notation, "..." summaries, 80-column
// wrapping) for every device and several dtypes. "{dtype}" and "{device}" in an expected
// string stand for the case's dtype and device names.

#include "kt_test.hpp"

#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace {

/// A tensor of dtype T on D holding `values` (given as doubles) in shape `shape`.
template <class T, class D>
kt::Tensor<T, D> make(const std::vector<double>& values, const kt::Shape& shape) {
  std::vector<T> data;
  for (const double v : values) data.push_back(static_cast<T>(static_cast<kt::compute_t<T>>(v)));
  return kt::from_host<T, D>(data, shape);
}

template <class T, class D>
kt::Tensor<T, D> make(const std::vector<double>& values) {
  return make<T, D>(values, kt::Shape{static_cast<std::int64_t>(values.size())});
}

/// `pattern` with {dtype} and {device} replaced by T's and D's names.
template <class T, class D>
std::string expected(std::string pattern) {
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"{dtype}", kt::dtype_name<T>()},
                                   std::pair<std::string, std::string>{"{device}", D::name()}}) {
    for (std::size_t at = pattern.find(key); at != std::string::npos; at = pattern.find(key))
      pattern.replace(at, key.size(), value);
  }
  return pattern;
}

template <class T, class D>
std::string streamed(const kt::Tensor<T, D>& t) {
  std::ostringstream os;
  os << t;
  return os.str();
}

}  // namespace

TEST_CASE_TEMPLATE("printing a 2-D float tensor matches the PyTorch layout", TestCase, KT_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  auto x = make<T, D>({0.1940, 2.1614, -0.1721, 0.8491, -1.9244, 0.6530}, {2, 3});
  const std::string want = expected<T, D>(
      "tensor([[ 0.1940,  2.1614, -0.1721],\n"
      "        [ 0.8491, -1.9244,  0.6530]], dtype={dtype}, device={device}, shape=(2, 3))");
  CHECK(kt::to_string(x) == want);
  CHECK(streamed(x) == want);
  // A result still being computed on the device prints its final values.
  CHECK(kt::to_string(x * T(2)) == expected<T, D>(
      "tensor([[ 0.3880,  4.3228, -0.3442],\n"
      "        [ 1.6982, -3.8488,  1.3060]], dtype={dtype}, device={device}, shape=(2, 3))"));
}

TEST_CASE_TEMPLATE("integral float values print with a trailing point", TestCase, KT_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  CHECK(kt::to_string(make<T, D>({1, 2, 3})) ==
        expected<T, D>("tensor([1., 2., 3.], dtype={dtype}, device={device}, shape=(3))"));
  CHECK(kt::to_string(make<T, D>({-0.0, 0, 10})) ==
        expected<T, D>("tensor([-0.,  0., 10.], dtype={dtype}, device={device}, shape=(3))"));
  CHECK(kt::to_string(kt::zeros<T, D>({2, 2})) == expected<T, D>(
      "tensor([[0., 0.],\n"
      "        [0., 0.]], dtype={dtype}, device={device}, shape=(2, 2))"));
  CHECK(kt::to_string(make<T, D>({100, -250})) ==
        expected<T, D>("tensor([ 100., -250.], dtype={dtype}, device={device}, shape=(2))"));
}

TEST_CASE_TEMPLATE("scientific notation follows the PyTorch thresholds", TestCase, KT_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  // min < 1e-4
  CHECK(kt::to_string(make<T, D>({1e-5, 1})) ==
        expected<T, D>("tensor([1.0000e-05, 1.0000e+00], dtype={dtype}, device={device}, shape=(2))"));
  // max / min = 500: fixed; 2000: scientific
  CHECK(kt::to_string(make<T, D>({0.001, 0.5})) ==
        expected<T, D>("tensor([0.0010, 0.5000], dtype={dtype}, device={device}, shape=(2))"));
  CHECK(kt::to_string(make<T, D>({0.001, 2})) ==
        expected<T, D>("tensor([1.0000e-03, 2.0000e+00], dtype={dtype}, device={device}, shape=(2))"));
  // integral values: scientific above 1e8 or a ratio above 1000
  CHECK(kt::to_string(make<T, D>({1e9, 1})) ==
        expected<T, D>("tensor([1.0000e+09, 1.0000e+00], dtype={dtype}, device={device}, shape=(2))"));
  CHECK(kt::to_string(make<T, D>({1, 1000})) ==
        expected<T, D>("tensor([   1., 1000.], dtype={dtype}, device={device}, shape=(2))"));
  // negative values widen the column; zeros do not count for min
  CHECK(kt::to_string(make<T, D>({-1e-5, 3.5, 0})) == expected<T, D>(
      "tensor([-1.0000e-05,  3.5000e+00,  0.0000e+00], dtype={dtype}, device={device},\n"
      "       shape=(3))"));
}

TEST_CASE_TEMPLATE("NaN and infinities print like Python floats", TestCase, KT_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(kt::to_string(make<T, D>({nan, inf, -inf, 1.5})) == expected<T, D>(
      "tensor([   nan,    inf,   -inf, 1.5000], dtype={dtype}, device={device}, shape=(4))"));
  CHECK(kt::to_string(make<T, D>({-nan, 0, inf})) ==
        expected<T, D>("tensor([nan, 0., inf], dtype={dtype}, device={device}, shape=(3))"));
}

TEST_CASE_TEMPLATE("integer dtypes print plain and right-aligned", TestCase, KT_CASES(std::int32_t),
                   KT_CASES(std::int64_t)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  CHECK(kt::to_string(make<T, D>({-1, 20, 300, 4}, {2, 2})) == expected<T, D>(
      "tensor([[ -1,  20],\n"
      "        [300,   4]], dtype={dtype}, device={device}, shape=(2, 2))"));
  CHECK(kt::to_string(kt::full<T, D>({}, T(7))) == expected<T, D>("tensor(7, dtype={dtype}, device={device})"));
}

TEST_CASE_TEMPLATE("uint8 prints numbers and int64 prints all 64 bits", D, KT_DEVICES) {
  CHECK(kt::to_string(kt::from_host<std::uint8_t, D>(std::vector<std::uint8_t>{0, 7, 255})) ==
        expected<std::uint8_t, D>("tensor([  0,   7, 255], dtype=uint8, device={device}, shape=(3))"));
  const std::vector<std::int64_t> big{9007199254740993, -1, 0};  // 2^53 + 1: not a double
  CHECK(kt::to_string(kt::from_host<std::int64_t, D>(big)) == expected<std::int64_t, D>(
      "tensor([9007199254740993,               -1,                0], dtype=int64,\n"
      "       device={device}, shape=(3))"));
}

TEST_CASE_TEMPLATE("16-bit dtypes print their float value", D, KT_DEVICES) {
  // half(1/3) = 0.33325195..., bfloat16(1/3) = 0.33398438...
  CHECK(kt::to_string(make<kt::half, D>({1.0 / 3, -2.5, 100})) == expected<kt::half, D>(
      "tensor([  0.3333,  -2.5000, 100.0000], dtype=float16, device={device}, shape=(3))"));
  CHECK(kt::to_string(make<kt::bfloat16, D>({1.0 / 3, -2.5, 100})) == expected<kt::bfloat16, D>(
      "tensor([  0.3340,  -2.5000, 100.0000], dtype=bfloat16, device={device}, shape=(3))"));
  CHECK(kt::to_string(make<kt::half, D>({65504, 1e-7})) == expected<kt::half, D>(
      "tensor([6.5504e+04, 1.1921e-07], dtype=float16, device={device}, shape=(2))"));
}

TEST_CASE_TEMPLATE("rank-0 tensors print the bare value without a shape", D, KT_DEVICES) {
  CHECK(kt::to_string(kt::full<float, D>({}, 3.14159f)) ==
        expected<float, D>("tensor(3.1416, dtype=float32, device={device})"));
  CHECK(kt::to_string(kt::full<double, D>({}, 2.0)) ==
        expected<double, D>("tensor(2., dtype=float64, device={device})"));
  CHECK(kt::to_string(kt::full<double, D>({}, -1e-9)) ==
        expected<double, D>("tensor(-1.0000e-09, dtype=float64, device={device})"));
  auto x = kt::arange<std::int64_t, D>(6).reshape({2, 3});
  CHECK(kt::to_string(x[1][2]) == expected<std::int64_t, D>("tensor(5, dtype=int64, device={device})"));
}

TEST_CASE_TEMPLATE("empty and undefined tensors", D, KT_DEVICES) {
  CHECK(kt::to_string(kt::zeros<float, D>({0, 3})) ==
        expected<float, D>("tensor([], dtype=float32, device={device}, shape=(0, 3))"));
  CHECK(kt::to_string(kt::empty<std::int32_t, D>({0})) ==
        expected<std::int32_t, D>("tensor([], dtype=int32, device={device}, shape=(0))"));
  CHECK(kt::to_string(kt::Tensor<float, D>()) == "tensor(undefined)");
  CHECK(streamed(kt::Tensor<kt::half, D>()) == "tensor(undefined)");
}

TEST_CASE_TEMPLATE("more than 1000 elements print the first and last 3 per dimension", D, KT_DEVICES) {
  CHECK(kt::to_string(kt::arange<std::int64_t, D>(1001)) == expected<std::int64_t, D>(
      "tensor([   0,    1,    2,  ...,  998,  999, 1000], dtype=int64, device={device},\n"
      "       shape=(1001))"));
  // Exactly 1000 elements are printed in full.
  const std::string full = kt::to_string(kt::arange<std::int64_t, D>(1000));
  CHECK(full.find("...") == std::string::npos);
  CHECK(full.find("\n        490, 491, 492,") != std::string::npos);
  // Width and notation come from the printed entries only: the hidden 1e6 would otherwise
  // switch to scientific notation.
  std::vector<double> values;
  for (int i = 0; i < 40 * 50; ++i) values.push_back(1 + (i % 100) * 0.1);
  values[20 * 50 + 25] = 1e6;
  CHECK(kt::to_string(make<float, D>(values, {40, 50})) == expected<float, D>(
      "tensor([[ 1.0000,  1.1000,  1.2000,  ...,  5.7000,  5.8000,  5.9000],\n"
      "        [ 6.0000,  6.1000,  6.2000,  ..., 10.7000, 10.8000, 10.9000],\n"
      "        [ 1.0000,  1.1000,  1.2000,  ...,  5.7000,  5.8000,  5.9000],\n"
      "        ...,\n"
      "        [ 6.0000,  6.1000,  6.2000,  ..., 10.7000, 10.8000, 10.9000],\n"
      "        [ 1.0000,  1.1000,  1.2000,  ...,  5.7000,  5.8000,  5.9000],\n"
      "        [ 6.0000,  6.1000,  6.2000,  ..., 10.7000, 10.8000, 10.9000]],\n"
      "       dtype=float32, device={device}, shape=(40, 50))"));
  // Rank 3: matrices are separated by a blank line; dims of 6 or fewer are kept whole.
  std::vector<std::int64_t> digits;
  for (int i = 0; i < 2 * 10 * 100; ++i) digits.push_back(i % 10 + 10 * (i / 1000));
  CHECK(kt::to_string(kt::from_host<std::int64_t, D>(digits, {2, 10, 100})) == expected<std::int64_t, D>(
      "tensor([[[ 0,  1,  2,  ...,  7,  8,  9],\n"
      "         [ 0,  1,  2,  ...,  7,  8,  9],\n"
      "         [ 0,  1,  2,  ...,  7,  8,  9],\n"
      "         ...,\n"
      "         [ 0,  1,  2,  ...,  7,  8,  9],\n"
      "         [ 0,  1,  2,  ...,  7,  8,  9],\n"
      "         [ 0,  1,  2,  ...,  7,  8,  9]],\n"
      "\n"
      "        [[10, 11, 12,  ..., 17, 18, 19],\n"
      "         [10, 11, 12,  ..., 17, 18, 19],\n"
      "         [10, 11, 12,  ..., 17, 18, 19],\n"
      "         ...,\n"
      "         [10, 11, 12,  ..., 17, 18, 19],\n"
      "         [10, 11, 12,  ..., 17, 18, 19],\n"
      "         [10, 11, 12,  ..., 17, 18, 19]]], dtype=int64, device={device},\n"
      "       shape=(2, 10, 100))"));
}

TEST_CASE_TEMPLATE("long rows wrap at 80 columns and rank 4 separates blocks", TestCase, KT_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  std::vector<double> values;
  for (int i = 0; i < 20; ++i) values.push_back(i + 0.5);
  CHECK(kt::to_string(make<T, D>(values)) == expected<T, D>(
      "tensor([ 0.5000,  1.5000,  2.5000,  3.5000,  4.5000,  5.5000,  6.5000,  7.5000,\n"
      "         8.5000,  9.5000, 10.5000, 11.5000, 12.5000, 13.5000, 14.5000, 15.5000,\n"
      "        16.5000, 17.5000, 18.5000, 19.5000], dtype={dtype}, device={device},\n"
      "       shape=(20))"));
  CHECK(kt::to_string(make<T, D>({0, 1, 2, 3}, {2, 1, 1, 2})) == expected<T, D>(
      "tensor([[[[0., 1.]]],\n"
      "\n"
      "\n"
      "        [[[2., 3.]]]], dtype={dtype}, device={device}, shape=(2, 1, 1, 2))"));
}

TEST_CASE_TEMPLATE("views print only their own elements", D, KT_DEVICES) {
  auto x = kt::arange<std::int64_t, D>(12).reshape({3, 4});
  CHECK(kt::to_string(x[1]) ==
        expected<std::int64_t, D>("tensor([4, 5, 6, 7], dtype=int64, device={device}, shape=(4))"));
  CHECK(kt::to_string(x.slice(1, 3)) == expected<std::int64_t, D>(
      "tensor([[ 4,  5,  6,  7],\n"
      "        [ 8,  9, 10, 11]], dtype=int64, device={device}, shape=(2, 4))"));
}
