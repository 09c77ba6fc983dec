#include "kt_test.hpp"

#include <numeric>

TEST_CASE_TEMPLATE("copies are shallow, clone is deep", TestCase, KT_CASES(float), KT_CASES(kt::half),
                   KT_CASES(std::int32_t)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  auto a = kt::zeros<T, D>({2, 3});
  auto shallow = a;
  auto deep = a.clone();
  CHECK(shallow.data() == a.data());
  CHECK(deep.data() != a.data());
  shallow.fill_(T(7));
  CHECK(a.to_vector() == std::vector<T>(6, T(7)));
  CHECK(deep.to_vector() == std::vector<T>(6, T(0)));
  CHECK(a.storage().use_count() == 2);
}

TEST_CASE_TEMPLATE("reshape, flatten, slice and indexing are views", TestCase, KT_CASES(float),
                   KT_CASES(std::int64_t)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  auto a = kt::arange<T, D>(24);
  auto b = a.reshape({2, 3, 4});
  CHECK(b.shape() == kt::Shape{2, 3, 4});
  CHECK(b.data() == a.data());
  CHECK(a.reshape({-1, 6}).shape() == kt::Shape{4, 6});
  CHECK(b.flatten().shape() == kt::Shape{24});
  CHECK(b.flatten(1).shape() == kt::Shape{2, 12});
  CHECK(b.flatten(0, 1).shape() == kt::Shape{6, 4});
  auto row = b[1];  // (3, 4), elements 12..23
  CHECK(row.shape() == kt::Shape{3, 4});
  CHECK(row.storage_offset() == 12);
  CHECK(row[2].to_vector() == std::vector<T>{20, 21, 22, 23});
  CHECK(b[-1][-1][-1].item() == T(23));
  CHECK(b[0][1][2].rank() == 0);
  auto rows = a.reshape({6, 4}).slice(1, 3);  // rows 1 and 2
  CHECK(rows.shape() == kt::Shape{2, 4});
  CHECK(rows.to_vector() == std::vector<T>{4, 5, 6, 7, 8, 9, 10, 11});
  CHECK(a.reshape({6, 4}).slice(-2, 6).to_vector()[0] == T(16));
  CHECK(a.reshape({6, 4}).slice(3, 3).numel() == 0);
  rows.fill_(T(-1));  // writes through the view
  CHECK(a.to_vector()[4] == T(-1));
  CHECK(a.to_vector()[12] == T(12));
}

TEST_CASE_TEMPLATE("raw Kokkos views of any rank address the tensor's memory", TestCase, KT_CASES(float)) {
  using D = typename TestCase::device;
  auto t = kt::arange<float, D>(12).reshape({3, 4});
  auto v = t.template view<2>();
  CHECK(v.extent(0) == 3);
  CHECK(v.extent(1) == 4);
  CHECK(v.data() == t.data());
  Kokkos::parallel_for(Kokkos::MDRangePolicy<D, Kokkos::Rank<2>>({0, 0}, {3, 4}),
                       KOKKOS_LAMBDA(int i, int j) { v(i, j) = float(10 * i + j); });
  D().fence();
  CHECK(t.to_vector() == std::vector<float>{0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23});
  CHECK(t.view().extent(0) == 12);
}

TEST_CASE_TEMPLATE("to<dtype> converts elementwise like torch's .to(dtype)", TestCase, KT_CASES(float)) {
  using D = typename TestCase::device;
  auto x = kt::from_host<float, D>(std::vector<float>{-2.75f, 0.5f, 1.0f + 1.0f / 2048, 65536.0f});
  CHECK(x.template to<std::int32_t>().to_vector() == std::vector<std::int32_t>{-2, 0, 1, 65536});
  auto h = x.template to<kt::half>().template to<float>().to_vector();
  CHECK(h[0] == -2.75f);
  CHECK(h[2] == 1.0f);                 // 1 + 2^-11 is a tie: rounds to even
  CHECK(std::isinf(h[3]));              // beyond half's range
  CHECK(x.template to<double>().to_vector()[1] == 0.5);
  CHECK(x.template to<float>().data() == x.data());  // same dtype: no copy
}

TEST_CASE_TEMPLATE("from_blob wraps foreign memory without copying or owning it", TestCase, KT_CASES(double)) {
  using D = typename TestCase::device;
  std::vector<double> data{1, 2, 3, 4, 5, 6};
  // The foreign memory lives where D's kernels run: the vector itself on the host, a View's
  // allocation (as another library's cudaMalloc would be) on a GPU.
  Kokkos::View<double*, typename D::memory_space> foreign("foreign", data.size());
  double* blob = data.data();
  if constexpr (!kt::is_host_accessible_v<D>) blob = foreign.data();
  const auto before = kt::memory_stats<D>();
  auto t = kt::Tensor<double, D>::from_blob(blob, {2, 3});
  CHECK(kt::memory_stats<D>().num_allocs == before.num_allocs);
  CHECK(t.data() == blob);
  t.fill_(9.0);
  D().fence();
  if constexpr (!kt::is_host_accessible_v<D>)
    Kokkos::deep_copy(Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(data.data(), data.size()), foreign);
  CHECK(data[5] == 9.0);
  CHECK_FALSE(t.storage()->owning());
  // Plain host memory wrapped as GPU memory is refused here, not at the first kernel.
  if constexpr (!kt::is_host_accessible_v<D>)
    CHECK(kt_test::error_of([&] { kt::Tensor<double, D>::from_blob(data.data(), {2, 3}); })
              .find("is host memory the GPU cannot access") != std::string::npos);
}

TEST_CASE_TEMPLATE("tensor errors name the offending values", D, KT_DEVICES) {
  auto t = kt::zeros<float, D>({2, 3});
  CHECK(kt_test::error_of([&] { t.reshape({4, 2}); }) ==
        "kt::Tensor::reshape: shape (4, 2) (8 elements) is invalid for a tensor of shape (2, 3) (6 elements)");
  CHECK(kt_test::error_of([&] { t.reshape({-1, -1}); }).find("only one dimension can be -1") != std::string::npos);
  CHECK(kt_test::error_of([&] { t.reshape({-1, 4}); }).find("cannot infer dimension 0") != std::string::npos);
  CHECK(kt_test::error_of([&] { t.slice(1, 3); }) ==
        "kt::Tensor::slice: range [1, 3) is out of bounds for dimension 0 of size 2 (shape (2, 3))");
  CHECK(kt_test::error_of([&] { t[2]; }) ==
        "kt::Tensor::operator[]: index 2 is out of bounds for dimension 0 of size 2 (shape (2, 3))");
  CHECK(kt_test::error_of([&] { t.template view<3>(); }) ==
        "kt::Tensor::view<3>: the tensor has rank 2 (shape (2, 3))");
  CHECK(kt_test::error_of([&] { t.item(); }) ==
        "kt::Tensor::item: the tensor has 6 elements (shape (2, 3)); item() needs exactly one");
  CHECK(kt_test::error_of([&] { t.flatten(1, 0); }).find("start_dim 1 comes after end_dim 0") != std::string::npos);
  CHECK(kt_test::error_of([&] { t[0][0].slice(0, 1); }) == "kt::Tensor::slice: cannot slice a rank-0 tensor");
  kt::Tensor<float, D> undefined;
  CHECK_FALSE(undefined.defined());
  CHECK(kt_test::error_of([&] { undefined.clone(); }) ==
        "kt::Tensor::clone: the tensor is undefined (default-constructed)");
  CHECK(kt_test::error_of([&] { undefined + t; }) == "kt::operator+: the left operand is an undefined tensor");
  CHECK(kt_test::error_of([&] { kt::Tensor<float, D>::from_blob(nullptr, {2}); }).find("null pointer") !=
        std::string::npos);
}
