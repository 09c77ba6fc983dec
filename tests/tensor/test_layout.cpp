// Tests of kt/tensor/layout.hpp: kt::permute for ranks 0 to 6 and kt::transpose of every dim
// pair against host references (Eigen's transpose for 2-D), zero-size tensors, the
// execution-space overloads, and every error message.

#include "kt_test.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace {

/// out[i] = in[j] where output dim k is input dim perm[k], computed from coordinates.
template <class T>
std::vector<T> reference(const std::vector<T>& in, const kt::Shape& s, const std::vector<int>& perm) {
  std::vector<std::int64_t> out_dims;
  for (int p : perm) out_dims.push_back(s[p]);
  const kt::Shape os(out_dims);
  std::vector<T> out(in.size());
  for (std::int64_t i = 0; i < os.numel(); ++i) {
    std::int64_t j = 0;
    for (int k = 0; k < os.rank(); ++k) j += (i / os.stride(k)) % os[k] * s.stride(perm[static_cast<std::size_t>(k)]);
    out[static_cast<std::size_t>(i)] = in[static_cast<std::size_t>(j)];
  }
  return out;
}

}  // namespace

TEST_CASE_TEMPLATE("kt::permute matches a host reference for ranks 0 to 6", D, KT_DEVICES) {
  const std::vector<std::int64_t> extents{2, 3, 1, 4, 3, 2};
  for (int rank = 0; rank <= 6; ++rank) {
    const kt::Shape s(std::vector<std::int64_t>(extents.begin(), extents.begin() + rank));
    const auto x = kt::arange<std::int64_t, D>(0, static_cast<double>(s.numel())).reshape(s.dims());
    const auto xs = x.to_vector();
    std::vector<int> perm(static_cast<std::size_t>(rank));
    std::iota(perm.begin(), perm.end(), 0);
    int tried = 0;
    do {  // the first 30 permutations in lexicographic order, and the reversal
      CAPTURE(s.str());
      CAPTURE(kt::impl::dims_str(perm));
      const auto y = kt::permute(x, perm);
      std::vector<std::int64_t> dims;
      for (int p : perm) dims.push_back(s[p]);
      CHECK(y.shape() == kt::Shape(dims));
      CHECK(y.to_vector() == reference(xs, s, perm));
    } while (std::next_permutation(perm.begin(), perm.end()) && ++tried < 30);
    std::vector<int> reversed(static_cast<std::size_t>(rank)), negative(static_cast<std::size_t>(rank));
    for (int d = 0; d < rank; ++d) {
      reversed[static_cast<std::size_t>(d)] = rank - 1 - d;
      negative[static_cast<std::size_t>(d)] = -1 - d;  // the same, counted from the back
    }
    CHECK(kt::permute(x, reversed).to_vector() == reference(xs, s, reversed));
    CHECK(kt::permute(x, negative).to_vector() == reference(xs, s, reversed));
  }
  // 16-bit and floating values are copied bit for bit.
  const auto h = kt::randn<kt::bfloat16, D>({3, 5, 7}, 1);
  const auto hp = kt::permute(kt::permute(h, {2, 0, 1}), {1, 2, 0});
  CHECK(hp.shape() == h.shape());
  const auto a = h.to_vector(), b = hp.to_vector();
  CHECK(std::equal(a.begin(), a.end(), b.begin(), [](auto u, auto v) { return u.to_bits() == v.to_bits(); }));
}

TEST_CASE_TEMPLATE("kt::transpose of every dim pair matches a host reference and Eigen", TestCase, KT_CASES(double)) {
  using D = typename TestCase::device;
  const kt::Shape s{2, 3, 4, 5};
  const auto x = kt::randn<double, D>(s, 3);
  const auto xs = x.to_vector();
  for (int d0 = -4; d0 < 4; ++d0)
    for (int d1 = -4; d1 < 4; ++d1) {
      CAPTURE(d0);
      CAPTURE(d1);
      std::vector<int> perm{0, 1, 2, 3};
      std::swap(perm[static_cast<std::size_t>((d0 + 4) % 4)], perm[static_cast<std::size_t>((d1 + 4) % 4)]);
      const auto y = kt::transpose(x, d0, d1);
      CHECK(y.shape() == kt::Shape{s[perm[0]], s[perm[1]], s[perm[2]], s[perm[3]]});
      CHECK(y.to_vector() == reference(xs, s, perm));
    }
  for (const auto& mn : std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 1}, {7, 33}, {65, 1}, {33, 65}}) {
    const std::int64_t m = mn.first, n = mn.second;
    CAPTURE(m);
    CAPTURE(n);
    const auto a = kt::randn<double, D>({m, n}, 4);
    const auto av = a.to_vector();
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const RowMajor want = Eigen::Map<const RowMajor>(av.data(), m, n).transpose();
    const auto t = kt::transpose(a, 0, 1);
    CHECK(t.shape() == kt::Shape{n, m});
    CHECK(t.to_vector() == std::vector<double>(want.data(), want.data() + want.size()));
  }
}

TEST_CASE("kt::permute and kt::transpose of zero-size and rank-0 tensors") {
  using D = kt::DefaultDevice;
  CHECK(kt::permute(kt::zeros<float, D>({0, 3, 2}), {2, 0, 1}).shape() == kt::Shape{2, 0, 3});
  CHECK(kt::transpose(kt::zeros<float, D>({4, 0}), 0, 1).shape() == kt::Shape{0, 4});
  const auto s = kt::full<float, D>({}, 1.5f);
  CHECK(kt::permute(s, {}).item() == 1.5f);
  CHECK(kt::transpose(s, 0, -1).item() == 1.5f);
  // Always a copy: writing to the result leaves the input alone.
  const auto x = kt::ones<float, D>({2, 2});
  kt::transpose(x, 0, 0).fill_(5.0f);
  CHECK(x.to_vector() == std::vector<float>(4, 1.0f));
}

TEST_CASE("kt::permute and kt::transpose on an execution space instance") {
  using D = kt::DefaultDevice;
  const D exec;
  const auto x = kt::arange<std::int32_t, D>(0, 24).reshape({2, 3, 4});
  const auto p = kt::permute(exec, x, {1, 2, 0});
  const auto t = kt::transpose(exec, x, 2, 0);
  exec.fence();
  CHECK(p.to_vector() == kt::permute(x, {1, 2, 0}).to_vector());
  CHECK(t.shape() == kt::Shape{4, 3, 2});
  CHECK(t.to_vector() == kt::permute(x, {2, 1, 0}).to_vector());
}

TEST_CASE("layout errors name the dims and the shape") {
  using D = kt::DefaultDevice;
  const auto x = kt::ones<float, D>({2, 3, 4});
  CHECK(kt_test::error_of([&] { kt::permute(x, {0, 1}); }) ==
        "kt::permute: 2 dims (0, 1) given for a tensor of rank 3 (shape (2, 3, 4))");
  CHECK(kt_test::error_of([&] { kt::permute(x, {0, 2, 0}); }) ==
        "kt::permute: dims (0, 2, 0) are not a permutation: dimension 0 appears twice (shape (2, 3, 4))");
  CHECK(kt_test::error_of([&] { kt::permute(x, {0, 2, -1}); }).find("dimension 2 appears twice") != std::string::npos);
  CHECK(kt_test::error_of([&] { kt::permute(x, {0, 3, 1}); }) ==
        "kt::permute: dimension 3 is out of range for shape (2, 3, 4) (expected a dimension in [-3, 2])");
  CHECK(kt_test::error_of([&] { kt::permute(x, {-4, 0, 1}); }).find("dimension -4 is out of range") != std::string::npos);
  CHECK(kt_test::error_of([&] { kt::transpose(x, 0, 3); }) ==
        "kt::transpose: dimension 3 is out of range for shape (2, 3, 4) (expected a dimension in [-3, 2])");
  CHECK(kt_test::error_of([&] { kt::transpose(x, -4, 1); }).find("kt::transpose: dimension -4") != std::string::npos);
  CHECK(kt_test::error_of([&] { kt::transpose(kt::ones<float, D>({}), 0, 1); })
            .find("(expected a dimension in [-1, 0])") != std::string::npos);
  CHECK(kt_test::error_of([&] { kt::permute(kt::Tensor<float, D>(), {}); }) ==
        "kt::permute: the input is an undefined tensor");
  CHECK(kt_test::error_of([&] { kt::transpose(kt::Tensor<float, D>(), 0, 1); }) ==
        "kt::transpose: the input is an undefined tensor");
}
