#include "kt_test.hpp"

TEST_CASE("Shape: rank, extents, numel, strides and printing") {
  const kt::Shape s{2, 3, 4};
  CHECK(s.rank() == 3);
  CHECK(s[0] == 2);
  CHECK(s[-1] == 4);
  CHECK(s.numel() == 24);
  CHECK(s.stride(0) == 12);
  CHECK(s.stride(1) == 4);
  CHECK(s.stride(-1) == 1);
  CHECK(s.str() == "(2, 3, 4)");
  CHECK(s.without(1) == kt::Shape{2, 4});
  CHECK(s.with(0, 5) == kt::Shape{5, 3, 4});
  CHECK(s.dims() == std::vector<std::int64_t>{2, 3, 4});
  CHECK(kt::Shape{}.numel() == 1);  // rank 0: a scalar
  CHECK(kt::Shape{}.str() == "()");
  CHECK(kt::Shape{3, 0}.numel() == 0);
  CHECK(kt::Shape{1, 2} != kt::Shape{2, 1});
  CHECK(kt::Shape{1, 2, 3, 4, 5, 6}.rank() == 6);
}

TEST_CASE("Shape: invalid extents and dims raise kt::Error with the values") {
  CHECK(kt_test::error_of([] { kt::Shape({1, 2, 3, 4, 5, 6, 7}); }) ==
        "kt::Shape: rank 7 exceeds the maximum of 6");
  CHECK(kt_test::error_of([] { kt::Shape({2, -3}); }) == "kt::Shape: negative extent -3 in dimension 1");
  const kt::Shape s{2, 3};
  CHECK(kt_test::error_of([&] { (void)s[2]; }) ==
        "kt::Shape: dimension 2 is out of range for shape (2, 3) (rank 2)");
  CHECK(kt_test::error_of([&] { (void)s[-3]; }).find("dimension -3 is out of range") != std::string::npos);
  CHECK(kt_test::error_of([] { (void)kt::Shape{}[0]; }).find("out of range for shape ()") != std::string::npos);
}
