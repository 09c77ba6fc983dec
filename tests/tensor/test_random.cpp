#include "kt_test.hpp"

#include <numeric>

TEST_CASE("Philox4x32-10 matches the Random123 known-answer vectors") {
  using kt::impl::Philox4x32;
  auto check = [](Philox4x32 counter, std::uint32_t k0, std::uint32_t k1, Philox4x32 want) {
    const Philox4x32 got = kt::impl::philox4x32_10(counter, k0, k1);
    for (int i = 0; i < 4; ++i) CHECK(got.v[i] == want.v[i]);
  };
  check({{0, 0, 0, 0}}, 0, 0, {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}});
  check({{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}}, 0xffffffffu, 0xffffffffu,
        {{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}});
  check({{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}}, 0xa4093822u, 0x299f31d0u,
        {{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}});
}

TEST_CASE_TEMPLATE("rand's first values follow from the known-answer block by hand", D, KT_DEVICES) {
  // Seed 0, first draw: Philox block (0, 0, 0, 0) under key (0, 0) = the first KAT vector;
  // each float is the word's top 24 bits times 2^-24.
  const auto r = kt::rand<float, D>({4}, 0).to_vector();
  CHECK(r[0] == float(0x6627e8d5u >> 8) / 16777216.0f);
  CHECK(r[1] == float(0xe169c58du >> 8) / 16777216.0f);
  CHECK(r[2] == float(0xbc57ac4cu >> 8) / 16777216.0f);
  CHECK(r[3] == float(0x9b00dbd8u >> 8) / 16777216.0f);
}

TEST_CASE_TEMPLATE("random tensors are bit-identical on every device and thread count", TestCase,
                   KT_ALL_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  // Serial is the single-threaded reference; ctest reruns this at 1, 2, 3 and 4 threads.
  // Uniform draws are exact arithmetic on Philox' words: bit-identical everywhere. Normal draws
  // go through log, sin and cos, which a GPU's math library rounds differently from the host's
  // (last bit): bit-identical on the host devices, within a few ulps on a GPU.
  const double ulps = std::is_same_v<T, float> ? 1e-6 : std::is_same_v<T, double> ? 1e-14 : kt_test::tolerance<T>();
  const auto same_normals = [&](const std::vector<T>& got, const std::vector<T>& want) {
    return kt_test::same_across_devices<D, kt::Serial>(got, want, ulps);
  };
  const kt::Shape shape{1001, 37};  // odd sizes: a partial Philox block at the end
  CHECK(same_normals(kt::randn<T, D>(shape, 1234).to_vector(), kt::randn<T, kt::Serial>(shape, 1234).to_vector()));
  CHECK(kt::rand<T, D>(shape, 99, -2, 3).to_vector() == kt::rand<T, kt::Serial>(shape, 99, -2, 3).to_vector());
  kt::Generator g1(5), g2(5);
  kt::rand<T, D>({10}, g1);
  kt::rand<T, kt::Serial>({10}, g2);
  CHECK(same_normals(kt::randn<T, D>({100}, g1).to_vector(), kt::randn<T, kt::Serial>({100}, g2).to_vector()));
}

TEST_CASE_TEMPLATE("rand and randn have the right distribution", TestCase, KT_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  const std::int64_t n = 200000;
  const auto u = kt::rand<T, D>({n}, 7, 2, 4).to_vector();
  double mean = 0, var = 0;
  for (T x : u) {
    CHECK_UNARY(x >= T(2));
    CHECK_UNARY(x < T(4));
    mean += double(x);
  }
  mean /= double(n);
  CHECK(mean == doctest::Approx(3.0).epsilon(0.01));
  const auto z = kt::randn<T, D>({n}, 8, 1.5, 2.0).to_vector();
  mean = 0;
  for (T x : z) mean += double(x);
  mean /= double(n);
  for (T x : z) var += (double(x) - mean) * (double(x) - mean);
  var /= double(n - 1);
  CHECK(std::abs(mean - 1.5) < 0.03);  // ~5 standard errors
  CHECK(std::sqrt(var) == doctest::Approx(2.0).epsilon(0.01));
  std::int64_t beyond_3_sigma = 0;
  for (T x : z) beyond_3_sigma += std::abs(double(x) - 1.5) > 6.0;
  CHECK(double(beyond_3_sigma) / double(n) == doctest::Approx(0.0027).epsilon(0.25));
}

TEST_CASE_TEMPLATE("seeds and generator draws give different streams", D, KT_DEVICES) {
  CHECK(kt::randn<float, D>({64}, 1).to_vector() != kt::randn<float, D>({64}, 2).to_vector());
  CHECK(kt::randn<float, D>({64}, 1).to_vector() == kt::randn<float, D>({64}, 1).to_vector());
  kt::Generator gen(3);
  const auto a = kt::rand<float, D>({64}, gen).to_vector();
  const auto b = kt::rand<float, D>({64}, gen).to_vector();
  CHECK(a != b);
  CHECK(gen.offset() == 2);
  CHECK(a == kt::rand<float, D>({64}, 3).to_vector());  // the first draw equals the plain seed
  // A prefix of a longer draw equals the shorter draw: element i depends only on (seed, i).
  const auto longer = kt::randn<double, D>({101}, 11).to_vector();
  const auto shorter = kt::randn<double, D>({7}, 11).to_vector();
  CHECK(std::equal(shorter.begin(), shorter.end(), longer.begin()));
  CHECK(kt_test::error_of([] { kt::rand<float, D>({2}, 0, 1, 0); }) == "kt::rand: low (1) must not exceed high (0)");
  CHECK(kt_test::error_of([] { kt::randn<float, D>({2}, 0, 0, -1); }) == "kt::randn: stddev must be non-negative, got -1");
}

TEST_CASE_TEMPLATE("rand stays below high even where rounding would reach it", TestCase, KT_ALL_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  // In 16 bits, most u in [1 - 2^-11, 1) round to 1.0: without a cap ~1 in 2000 values would be 1.
  const auto u = kt::rand<T, D>({100000}, 17).to_vector();
  const auto w = kt::rand<T, D>({100000}, 18, -3, -2).to_vector();
  std::int64_t outside = 0;
  for (const T& x : u) outside += !(double(x) >= 0 && double(x) < 1);
  for (const T& x : w) outside += !(double(x) >= -3 && double(x) < -2);
  CHECK(outside == 0);
  CHECK(double(kt::impl::largest_below<T>(1.0)) < 1.0);
  CHECK(double(kt::impl::next_down(kt::impl::largest_below<T>(1.0))) < double(kt::impl::largest_below<T>(1.0)));
  CHECK(kt::rand<T, D>({3}, 1, 5, 5).to_vector() == std::vector<T>(3, T(5)));  // an empty interval: low
}
