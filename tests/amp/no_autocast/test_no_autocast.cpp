// A program built without autocast (KT_ENABLE_AUTOCAST undefined, what kt::kt's users get unless
// they configure -DKT_AUTOCAST=ON): this executable's one translation unit links header-only kt
// without the definition. Opening an autocast region is a kt::Error that names the definition
// and leaves the state as it was; a disabled guard is allowed; ops run in fp32 with no 16-bit
// twin; explicit 16-bit casts still compute in 16 bits.

#include "kt_test.hpp"

#include <kt/amp/autocast.hpp>

#include <cmath>
#include <string>

static_assert(!kt::impl::autocast_compiled, "this test is built without KT_ENABLE_AUTOCAST");

using kt_test::bit_equal;

TEST_CASE_TEMPLATE("an autocast region cannot open without autocast compiled in", D, KT_DEVICES) {
  using B = kt::bfloat16;
  std::string message;
  try {
    kt::amp::autocast<D, B> guard;
  } catch (const kt::Error& e) {
    message = e.what();
  }
  CHECK(message.find("KT_ENABLE_AUTOCAST") != std::string::npos);
  CHECK(message.find("-DKT_AUTOCAST=ON") != std::string::npos);
  CHECK(message.find("bfloat16") != std::string::npos);
  CHECK_FALSE(kt::amp::autocast<D>::is_enabled());
  using HalfRegion = kt::amp::autocast<D, kt::half>;
  CHECK_THROWS_AS(HalfRegion(), kt::Error);
  CHECK_FALSE(HalfRegion::is_enabled());
}

TEST_CASE_TEMPLATE("without autocast, a disabled guard is allowed and ops run in fp32", D, KT_DEVICES) {
  using B = kt::bfloat16;
  const auto x = kt::Var<float, D>(kt::randn<float, D>({4, 8}, 1));
  const auto w = kt::Var<float, D>(kt::randn<float, D>({3, 8}, 2), true);
  const auto b = kt::Var<float, D>(kt::randn<float, D>({3}, 3), true);
  const auto fp32 = kt::relu(kt::linear(x, w, b)).data();
  kt::amp::autocast<D, B> off(false);
  CHECK_FALSE(kt::amp::autocast<D, B>::is_enabled());
  const auto y = kt::relu(kt::linear(x, w, b));
  CHECK(kt::amp::autocast_dtype(y) == "float32");
  CHECK(bit_equal(y.data(), fp32));
  // Written out with casts, the same ops still run in bfloat16: rounded, unlike the fp32 result.
  const auto h = kt::relu(kt::linear(x.template to<B>(), w.template to<B>(), b.template to<B>()));
  const auto widened = h.template to<float>().data();
  CHECK_FALSE(bit_equal(widened, fp32));
  const auto hv = h.data().to_vector();
  const auto ref = fp32.to_vector();
  for (std::size_t i = 0; i < hv.size(); ++i) CHECK(std::abs(float(hv[i]) - ref[i]) <= 0.1f);
}
