#include "kt_test.hpp"

TEST_CASE_TEMPLATE("to<Device> between devices that share memory shares the storage", TestCase,
                   KT_CASES(float), KT_CASES(kt::half)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  auto a = kt::arange<T, D>(6).reshape({2, 3});
  auto on_serial = a.template to<kt::Serial>();
  auto on_host = a.host();
  CHECK(std::is_same_v<decltype(on_host), kt::Tensor<T, kt::Host>>);
  CHECK(on_serial.shape() == a.shape());
  CHECK(on_serial.to_vector() == a.to_vector());
  if constexpr (kt::is_host_accessible_v<D>) {
    CHECK(on_serial.data() == a.data());  // Serial and OpenMP both use HostSpace: no copy
    CHECK(on_host.data() == a.data());
  } else {  // a GPU's memory is copied to the host
    CHECK(on_serial.data() != a.data());
    CHECK(on_host.data() != a.data());
  }
  auto same = a.template to<D>();
  CHECK(same.data() == a.data());
}

TEST_CASE_TEMPLATE("copy checks shapes and copies across devices", TestCase, KT_CASES(double),
                   KT_CASES(std::uint8_t)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  auto src = kt::arange<T, kt::Serial>(12).reshape({3, 4});
  auto dst = kt::zeros<T, D>({3, 4});
  kt::copy(dst, src);
  CHECK(dst.to_vector() == src.to_vector());
  CHECK(dst.data() != src.data());
  auto row = kt::zeros<T, D>({4});
  kt::copy(row, src[2]);  // views copy too
  CHECK(row.to_vector() == std::vector<T>{8, 9, 10, 11});
  CHECK(kt_test::error_of([&] { kt::copy(kt::zeros<T, D>({4, 3}), src); }) ==
        "kt::copy: shapes differ: dst (4, 3), src (3, 4)");
  CHECK(kt_test::error_of([&] { kt::copy(kt::Tensor<T, D>(), src); }) == "kt::copy: dst is an undefined tensor");
  kt::copy(kt::zeros<T, D>({0}), kt::zeros<T, kt::Serial>({0}));  // empty copies are fine
}

TEST_CASE_TEMPLATE("asynchronous copies and moves on an execution-space instance", D, KT_DEVICES) {
  D stream;  // an instance; on Cuda its own stream
  auto src = kt::randn<float, kt::Host>({64, 32}, 3);
  auto dst = kt::empty<float, D>({64, 32});
  kt::copy(stream, dst, src);
  stream.fence();
  CHECK(dst.to_vector() == src.to_vector());
  auto moved = src.template to<D>(stream);
  auto back = moved.template to<kt::Serial>(kt::Serial());
  stream.fence();
  CHECK(back.to_vector() == src.to_vector());
  CHECK(moved.data() != src.data());  // the instance form always copies
  CHECK(kt_test::error_of([&] { kt::copy(stream, dst, src.reshape({32, 64})); }) ==
        "kt::copy: shapes differ: dst (64, 32), src (32, 64)");
}

TEST_CASE_TEMPLATE("to_vector and item read back in row-major order", D, KT_DEVICES) {
  auto t = kt::arange<std::int64_t, D>(6).reshape({3, 2});
  CHECK(t.to_vector() == std::vector<std::int64_t>{0, 1, 2, 3, 4, 5});
  CHECK(t[2][1].item() == 5);
  CHECK(t.nbytes() == 48);
  CHECK(kt::Tensor<float, D>(kt::Shape{0, 3}).to_vector().empty());
}
