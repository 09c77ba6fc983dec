#include "kt_test.hpp"

TEST_CASE("dtype names follow PyTorch") {
  CHECK(std::string(kt::dtype_name<float>()) == "float32");
  CHECK(std::string(kt::dtype_name<double>()) == "float64");
  CHECK(std::string(kt::dtype_name<kt::half>()) == "float16");
  CHECK(std::string(kt::dtype_name<kt::bfloat16>()) == "bfloat16");
  CHECK(std::string(kt::dtype_name<std::int32_t>()) == "int32");
  CHECK(std::string(kt::dtype_name<std::int64_t>()) == "int64");
  CHECK(std::string(kt::dtype_name<std::uint8_t>()) == "uint8");
}

TEST_CASE("dtype traits: what is a dtype, what is floating, what arithmetic runs in") {
  CHECK(kt::is_dtype_v<kt::half>);
  CHECK_FALSE(kt::is_dtype_v<char>);
  CHECK_FALSE(kt::is_dtype_v<std::string>);
  CHECK(kt::is_floating_dtype_v<kt::bfloat16>);
  CHECK_FALSE(kt::is_floating_dtype_v<std::int64_t>);
  CHECK(std::is_same_v<kt::compute_t<kt::half>, float>);
  CHECK(std::is_same_v<kt::compute_t<kt::bfloat16>, float>);
  CHECK(std::is_same_v<kt::compute_t<double>, double>);
  CHECK(std::is_same_v<kt::compute_t<std::uint8_t>, std::uint8_t>);
}

TEST_CASE("impl::convert rounds 16-bit once and truncates floats to integers") {
  CHECK(kt::impl::convert<std::int32_t>(-2.75f) == -2);
  CHECK(float(kt::impl::convert<kt::half>(1.0f + 1.0f / 4096)) == 1.0f);  // below half's ulp
  CHECK(float(kt::impl::convert<kt::bfloat16>(kt::half(3.0f))) == 3.0f);
  CHECK(kt::impl::convert<double>(kt::bfloat16(0.5f)) == 0.5);
  CHECK(kt::impl::convert<std::uint8_t>(std::int32_t(200)) == 200);
}
