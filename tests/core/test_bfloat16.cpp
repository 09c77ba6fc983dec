// Tests of kt::bfloat16 (kt/core/bfloat16.hpp): every bit pattern, every rounding boundary,
// sweeps of the float and double spaces and of 64-bit integers against an independent
// reference (the nearer of the two candidates around the value, compared in wider
// arithmetic, ties to even), the same conversions inside Kokkos kernels, and arithmetic,
// comparisons, limits and printing with hand-computed values.

#include "kt_test.hpp"

#include <kt/core/bfloat16.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using kt::bfloat16;

std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
std::uint64_t bits_of(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
float float_from(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
double double_from(std::uint64_t u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15u;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
  return x ^ (x >> 31);
}
std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

bool is_nan_bits(std::uint16_t b) { return (b & 0x7fffu) > 0x7f80u; }

/// The value of a finite bfloat16 pattern, by definition the float with these upper bits.
double ref_value(std::uint32_t t) { return static_cast<double>(float_from(t << 16)); }

/// Reference encoder, independent of kt's add-and-shift: the two candidates around |v| are
/// its truncation t (toward zero) and t + 1; pick the nearer, compared in arithmetic wider
/// than v's (double for float, long double for double and integers: exact by Sterbenz where
/// a tie is possible), ties to the even one. t + 1 == 0x7f80 stands for 2^128, so rounding
/// past max gives Inf. NaN gives the quiet NaN of the same sign.
template <class F>
std::uint16_t ref_from(F v) {
  using W = std::conditional_t<std::is_same_v<F, float>, double, long double>;
  const std::uint16_t sign = std::signbit(v) ? 0x8000u : 0u;
  if (std::isnan(v)) return static_cast<std::uint16_t>(sign | 0x7fc0u);
  const W a = std::fabs(static_cast<W>(v)), two128 = std::ldexp(W(1), 128);
  if (a >= two128) return static_cast<std::uint16_t>(sign | 0x7f80u);
  float ft = static_cast<float>(a);  // to float toward zero, then the upper 16 bits
  if (static_cast<W>(ft) > a) ft = std::nextafter(ft, 0.0f);
  const std::uint32_t t = bits_of(ft) >> 16;
  const W lo = static_cast<W>(ref_value(t)), hi = t + 1 == 0x7f80u ? two128 : static_cast<W>(ref_value(t + 1));
  const W dlo = a - lo, dhi = hi - a;
  const bool up = dhi < dlo || (dhi == dlo && (t & 1u));
  return static_cast<std::uint16_t>(sign | (up ? t + 1 : t));
}

/// Counts disagreements between kt and the reference; remembers the first for the report.
struct Mismatches {
  std::uint64_t count = 0, checked = 0;
  std::string first;
  /// Same bits, or both NaN with the same sign. `input` is formatted only on the first miss.
  void compare(std::uint16_t got, std::uint16_t want, std::uint64_t input) {
    ++checked;
    const bool ok = got == want || (is_nan_bits(got) && is_nan_bits(want) && (got & 0x8000u) == (want & 0x8000u));
    if (!ok && count++ == 0) first = "input " + hex(input) + ": kt " + hex(got) + ", reference " + hex(want);
  }
};

/// Every value, every midpoint between neighbours (the midpoint above max is the overflow
/// tie), and one float ULP either side of each midpoint, for both signs.
std::vector<float> boundary_floats() {
  std::vector<float> v;
  for (std::uint32_t p = 0; p <= 0x7f7f; ++p) {
    const std::uint32_t mid = (p << 16) | 0x8000u;
    for (std::uint32_t x : {p << 16, mid, mid - 1, mid + 1}) {
      v.push_back(float_from(x));
      v.push_back(float_from(x | 0x80000000u));
    }
  }
  for (std::uint32_t x : {0x7f800000u, 0x7fc00000u, 0x7f800001u, 0x7f80ffffu, 0x7fa00000u, 0x7fffffffu, 0x7f7fffffu}) {
    v.push_back(float_from(x));
    v.push_back(float_from(x | 0x80000000u));
  }
  return v;
}

/// The same for doubles, with one double ULP either side of each midpoint (rounds to the
/// midpoint in float, so this catches a double -> float -> bfloat16 double rounding).
std::vector<double> boundary_doubles() {
  std::vector<double> v;
  for (std::uint32_t p = 0; p <= 0x7f7f; ++p) {
    const double lo = ref_value(p), mid = static_cast<double>(float_from((p << 16) | 0x8000u));
    for (double x : {lo, mid, std::nextafter(mid, 0.0), std::nextafter(mid, static_cast<double>(INFINITY))}) {
      v.push_back(x);
      v.push_back(-x);
    }
  }
  for (double x : {static_cast<double>(INFINITY), static_cast<double>(NAN), 1e300, 1e-300, 4.9e-324,
                   double_from(0x7ff0000000000001u), std::ldexp(1.0, 128), std::ldexp(1.0, -134), std::ldexp(1.0, -140),
                   std::nextafter(std::ldexp(1.0, -134), 1.0), static_cast<double>(FLT_MAX) * 1.5}) {
    v.push_back(x);
    v.push_back(-x);
  }
  return v;
}

}  // namespace

TEST_CASE("kt::bfloat16 is a trivial 2-byte type") {
  static_assert(sizeof(bfloat16) == 2 && alignof(bfloat16) == 2);
  static_assert(std::is_trivially_copyable_v<bfloat16>);
  static_assert(std::is_trivially_default_constructible_v<bfloat16>);
  static_assert(std::is_standard_layout_v<bfloat16>);
  static_assert(bfloat16::from_bits(0x3f80).to_bits() == 0x3f80);  // constexpr
  static_assert(std::is_same_v<decltype(bfloat16(1.0f) * 2.0f), float>);
  static_assert(std::is_same_v<decltype(bfloat16(1.0f) * 2.0), double>);
  static_assert(std::is_same_v<decltype(bfloat16(1.0f) + 1), bfloat16>);
  static_assert(std::is_same_v<decltype(1u + bfloat16(1.0f)), bfloat16>);
  static_assert(std::is_same_v<decltype(bfloat16(1.0f) + bfloat16(1.0f)), bfloat16>);
  CHECK(bfloat16{}.to_bits() == 0);  // value-initialised: +0
}

TEST_CASE("kt::bfloat16 -> float is the bits shifted left by 16, for all 65536 patterns") {
  Mismatches m;
  for (std::uint32_t i = 0; i < 65536; ++i) {
    const auto b = static_cast<std::uint16_t>(i);
    const float f = bfloat16::from_bits(b);
    ++m.checked;
    if (bits_of(f) != i << 16 && m.count++ == 0) m.first = "bits " + hex(i) + ": kt " + hex(bits_of(f));
    // Round trip: the same bits for every non-NaN (and quiet NaNs); NaNs stay NaN, same sign.
    m.compare(bfloat16(f).to_bits(), b, i);
    if (is_nan_bits(b) && (bfloat16(f).to_bits() & 0x0040u) == 0 && m.count++ == 0) m.first = "NaN not quieted: " + hex(i);
  }
  INFO(m.first);
  CHECK(m.count == 0);
}

TEST_CASE("kt::bfloat16 from float: values, midpoints (ties to even) and their neighbours") {
  Mismatches m;
  for (float f : boundary_floats()) m.compare(bfloat16(f).to_bits(), ref_from(f), bits_of(f));
  INFO(m.first);
  CHECK(m.count == 0);
  CHECK(m.checked > 250000);
}

TEST_CASE("kt::bfloat16 from float: sweep of every 97th 32-bit pattern") {
  Mismatches m;
  for (std::uint64_t i = 0; i < (std::uint64_t(1) << 32); i += 97) {
    const float f = float_from(static_cast<std::uint32_t>(i));
    m.compare(bfloat16(f).to_bits(), ref_from(f), i);
  }
  INFO(m.first);
  CHECK(m.count == 0);
}

TEST_CASE("kt::bfloat16 from double: values, midpoints and neighbours, and sweeps") {
  Mismatches m;
  for (double d : boundary_doubles()) m.compare(bfloat16(d).to_bits(), ref_from(d), bits_of(d));
  // Whole space: the high 32 bits every 97th pattern, the low 32 bits 0, 1 or random.
  for (std::uint64_t i = 0; i < (std::uint64_t(1) << 32); i += 97) {
    const std::uint64_t low = i % 4 == 0 ? 0 : i % 4 == 1 ? 1 : splitmix64(i) >> 32;
    const double d = double_from((i << 32) | low);
    m.compare(bfloat16(d).to_bits(), ref_from(d), bits_of(d));
  }
  // Denser where bfloat16s live: |d| in [2^-135, 2^129), exponents 888..1151.
  for (std::uint64_t hi = 0x37800000; hi < 0x48000000; hi += 61) {
    const double d = double_from((hi << 32) | (splitmix64(hi) >> 32));
    m.compare(bfloat16(d).to_bits(), ref_from(d), bits_of(d));
    m.compare(bfloat16(-d).to_bits(), ref_from(-d), bits_of(-d));
  }
  INFO(m.first);
  CHECK(m.count == 0);
}

TEST_CASE("kt::bfloat16 rounding boundaries by hand") {
  CHECK(bfloat16(float_from(0x7f7f7fffu)).to_bits() == 0x7f7f);  // just below max + ulp/2
  CHECK(bfloat16(float_from(0x7f7f8000u)).to_bits() == 0x7f80);  // the tie rounds to even = 2^128 = Inf
  CHECK(bfloat16(std::numeric_limits<float>::max()).to_bits() == 0x7f80);
  CHECK(bfloat16(std::ldexp(255.0, 120)).to_bits() == 0x7f7f);    // max = (2 - 2^-7) * 2^127
  CHECK(bfloat16(-std::ldexp(511.0, 119)).to_bits() == 0xff80);   // (2 - 2^-8) * 2^127 -> -Inf
  CHECK(bfloat16(std::nextafter(std::ldexp(511.0, 119), 0.0)).to_bits() == 0x7f7f);
  CHECK(bfloat16(1e300).to_bits() == 0x7f80);
  CHECK(bfloat16(std::ldexp(1.0f, -133)).to_bits() == 0x0001);  // smallest subnormal
  CHECK(bfloat16(float_from(0x00008000u)).to_bits() == 0x0000);  // 2^-134: tie with 0 -> 0
  CHECK(bfloat16(float_from(0x00008001u)).to_bits() == 0x0001);
  CHECK(bfloat16(std::ldexp(1.0, -134)).to_bits() == 0x0000);
  CHECK(bfloat16(std::nextafter(std::ldexp(1.0, -134), 1.0)).to_bits() == 0x0001);
  CHECK(bfloat16(std::ldexp(3.0, -134)).to_bits() == 0x0002);  // 1.5 ulp: tie -> even 2
  CHECK(bfloat16(float_from(0x007fffffu)).to_bits() == 0x0080);  // largest float subnormal -> min normal
  CHECK(bfloat16(-0.0f).to_bits() == 0x8000);
  CHECK(bfloat16(-0.0).to_bits() == 0x8000);
  CHECK(bfloat16(1e-300).to_bits() == 0x0000);
  CHECK(bfloat16(0.1f).to_bits() == 0x3dcd);   // 0.10009765625
  CHECK(bfloat16(3.14159f).to_bits() == 0x4049);  // 3.140625
  CHECK(bfloat16(257.0f).to_bits() == 0x4380);  // tie between 256 and 258 -> 256
  CHECK(bfloat16(259.0f).to_bits() == 0x4382);  // tie between 258 and 260 -> 260
  // A double just above a midpoint: rounding via float would land on the tie and go to even.
  CHECK(bfloat16(std::nextafter(257.0, 300.0)).to_bits() == 0x4381);
  CHECK(bfloat16(257.0).to_bits() == 0x4380);
  // NaN: stays NaN with its sign, quiet, even when the payload sits only in dropped bits.
  CHECK(bfloat16(float_from(0x7f800001u)).to_bits() == 0x7fc0);
  CHECK(bfloat16(float_from(0xff800001u)).to_bits() == 0xffc0);
  CHECK(bfloat16(float_from(0x7fa00000u)).to_bits() == 0x7fe0);  // signalling: payload kept, quieted
  CHECK(kt::isnan(bfloat16(double_from(0x7ff0000000000001u))));
  CHECK(bfloat16(double_from(0xfff0000000000001u)).to_bits() == 0xffc0);
  CHECK(bfloat16(std::numeric_limits<double>::infinity()).to_bits() == 0x7f80);
}

TEST_CASE("kt::bfloat16 from integers, 64-bit ones rounded once") {
  CHECK(bfloat16(0).to_bits() == 0x0000);
  CHECK(bfloat16(1).to_bits() == 0x3f80);
  CHECK(bfloat16(-2).to_bits() == 0xc000);
  CHECK(bfloat16(257).to_bits() == 0x4380);
  CHECK(bfloat16(259).to_bits() == 0x4382);
  CHECK(bfloat16(static_cast<std::uint8_t>(255)).to_bits() == 0x437f);
  // 2^60 + 2^52 is the tie between 2^60 (0x5d80) and 2^60 + 2^53 (0x5d81). One above it
  // rounds up; converting to double first would land on the tie and go down to even.
  const std::int64_t two60 = std::int64_t(1) << 60, two52 = std::int64_t(1) << 52;
  CHECK(bfloat16(two60 + two52).to_bits() == 0x5d80);
  CHECK(bfloat16(two60 + two52 + 1).to_bits() == 0x5d81);
  CHECK(bfloat16(two60 + two52 - 1).to_bits() == 0x5d80);
  CHECK(bfloat16(two60 + 3 * two52).to_bits() == 0x5d82);
  CHECK(bfloat16(-(two60 + two52 + 1)).to_bits() == 0xdd81);
  CHECK(bfloat16(std::uint64_t(two60 + two52 + 1)).to_bits() == 0x5d81);
  CHECK(bfloat16(std::numeric_limits<std::uint64_t>::max()).to_bits() == 0x5f80);  // 2^64
  CHECK(bfloat16(std::numeric_limits<std::int64_t>::min()).to_bits() == 0xdf00);   // -2^63
  CHECK(bfloat16(std::numeric_limits<std::int64_t>::max()).to_bits() == 0x5f00);   // 2^63
#if LDBL_MANT_DIG >= 64
  // Against the reference in long double (exact for 64-bit integers): random magnitudes and
  // the ties, one either side, at every bit length.
  Mismatches m;
  for (std::uint64_t k = 0; k < 200000; ++k) {
    const std::uint64_t r = splitmix64(k);
    const auto u = r >> (splitmix64(~k) % 64);
    const auto s = static_cast<std::int64_t>(u >> 1) * ((k & 1) ? -1 : 1);
    m.compare(bfloat16(u).to_bits(), ref_from(static_cast<long double>(u)), u);
    m.compare(bfloat16(s).to_bits(), ref_from(static_cast<long double>(s)), static_cast<std::uint64_t>(s));
  }
  for (int len = 10; len <= 64; ++len) {
    const std::uint64_t base = std::uint64_t(1) << (len - 1), ulp = base >> 7;
    for (std::uint64_t k : {std::uint64_t(0), std::uint64_t(1), std::uint64_t(64), std::uint64_t(127)}) {
      const std::uint64_t tie = base + k * ulp + ulp / 2;
      for (std::uint64_t u : {tie - 1, tie, tie + 1}) m.compare(bfloat16(u).to_bits(), ref_from(static_cast<long double>(u)), u);
    }
  }
  INFO(m.first);
  CHECK(m.count == 0);
#endif
}

TEST_CASE("kt::bfloat16 arithmetic, mixed expressions and casts") {
  const bfloat16 one = 1, two = 2.0f, three = 3.0;
  CHECK((one + two).to_bits() == 0x4040);
  CHECK((one - two).to_bits() == 0xbf80);
  CHECK((two * three).to_bits() == 0x40c0);
  CHECK((one / three).to_bits() == 0x3eab);  // 0.333984375
  CHECK((-two).to_bits() == 0xc000);
  CHECK((+two).to_bits() == 0x4000);
  CHECK((-bfloat16(0.0f)).to_bits() == 0x8000);
  CHECK((bfloat16(256) + one).to_bits() == 0x4380);  // 257 ties to 256
  CHECK((std::numeric_limits<bfloat16>::max() * two).to_bits() == 0x7f80);
  CHECK(kt::isnan(bfloat16(0.0f) / bfloat16(0.0f)));
  CHECK((one / bfloat16(-0.0f)).to_bits() == 0xff80);
  // Mixed: bfloat16 op float -> float, op double -> double, op integer -> bfloat16.
  const bfloat16 b = 0.1f;  // 0.10009765625
  CHECK(b * 2.0f == 0.2001953125f);
  CHECK(2.0f * b == 0.2001953125f);
  CHECK(b * 0.5 == 0.050048828125);
  CHECK((b + 1).to_bits() == 0x3f8d);   // 1.10009765625 -> 1.1015625
  CHECK((1 - b).to_bits() == 0x3f66);   // 0.89990234375 -> 0.8984375
  CHECK((b * 3u).to_bits() == 0x3e9a);  // 0.30029296875 -> 0.30078125
  CHECK((bfloat16(7) / 2).to_bits() == 0x4060);
  bfloat16 a = 1;
  a += 1;
  CHECK(a.to_bits() == 0x4000);
  a *= 1.5f;
  CHECK(a.to_bits() == 0x4040);
  a -= 0.5;
  CHECK(a.to_bits() == 0x4020);
  a /= bfloat16(2);
  CHECK(a.to_bits() == 0x3fa0);
  a += b;
  CHECK(a.to_bits() == bfloat16(1.25f + 0.10009765625f).to_bits());
  CHECK(static_cast<int>(bfloat16(-2.75f)) == -2);
  CHECK(static_cast<double>(b) == 0.10009765625);
  CHECK(static_cast<std::int64_t>(bfloat16(std::ldexp(1.0f, 40))) == (std::int64_t(1) << 40));
  CHECK(static_cast<bool>(bfloat16(0.5f)));
  CHECK(!static_cast<bool>(bfloat16(-0.0f)));
  const double d = b;
  CHECK(d == 0.10009765625);
}

TEST_CASE("kt::bfloat16 comparisons") {
  const bfloat16 nan = std::numeric_limits<bfloat16>::quiet_NaN(), one = 1, two = 2;
  CHECK(one < two);
  CHECK(one <= two);
  CHECK(two > one);
  CHECK(two >= two);
  CHECK(one != two);
  CHECK(one == bfloat16(1.0));
  CHECK(bfloat16(0.0f) == bfloat16(-0.0f));
  CHECK_FALSE(bfloat16(0.0f) < bfloat16(-0.0f));
  CHECK_FALSE(nan == nan);
  CHECK(nan != nan);
  CHECK_FALSE(nan < one);
  CHECK_FALSE(nan >= one);
  CHECK(-std::numeric_limits<bfloat16>::infinity() < std::numeric_limits<bfloat16>::lowest());
  CHECK(one == 1);
  CHECK(1 == one);
  CHECK(one < 1.5f);
  CHECK(2.5 > two);
  CHECK(two >= 2u);
  CHECK(bfloat16(256) == 257);   // the integer is converted to bfloat16 first (257 -> 256)
  CHECK(bfloat16(256) < 257.0);  // a double is not
  CHECK(bfloat16(0.1f) != 0.1f);
}

TEST_CASE("kt::bfloat16 classification and numeric_limits") {
  using L = std::numeric_limits<bfloat16>;
  static_assert(L::is_specialized && L::is_signed && !L::is_integer);
  static_assert(L::digits == 8 && L::radix == 2 && L::has_infinity && L::has_quiet_NaN);
  static_assert(L::max().to_bits() == 0x7f7f && L::lowest().to_bits() == 0xff7f);
  static_assert(std::numeric_limits<const bfloat16>::max().to_bits() == 0x7f7f);
  CHECK(static_cast<double>(L::max()) == (2 - std::ldexp(1.0, 1 - L::digits)) * std::ldexp(1.0, L::max_exponent - 1));
  CHECK(static_cast<double>(L::lowest()) == -static_cast<double>(L::max()));
  CHECK(static_cast<float>(L::min()) == std::numeric_limits<float>::min());  // same range as float
  CHECK(static_cast<double>(L::min()) == std::ldexp(1.0, L::min_exponent - 1));
  CHECK(static_cast<double>(L::denorm_min()) == std::ldexp(1.0, -133));
  CHECK(static_cast<double>(L::epsilon()) == std::ldexp(1.0, 1 - L::digits));
  CHECK(bfloat16::from_bits(0x3f81) - bfloat16(1) == L::epsilon());
  CHECK(static_cast<float>(L::round_error()) == 0.5f);
  CHECK(std::pow(10.0, L::max_exponent10) <= static_cast<double>(L::max()));
  CHECK(std::pow(10.0, L::max_exponent10 + 1) > static_cast<double>(L::max()));
  CHECK(std::pow(10.0, L::min_exponent10) >= static_cast<double>(L::min()));
  CHECK(std::pow(10.0, L::min_exponent10 - 1) < static_cast<double>(L::min()));
  CHECK(kt::isinf(L::infinity()));
  CHECK(kt::isinf(-L::infinity()));
  CHECK(kt::isnan(L::quiet_NaN()));
  CHECK(kt::isnan(L::signaling_NaN()));
  CHECK(kt::isfinite(L::max()));
  CHECK(kt::isfinite(L::denorm_min()));
  CHECK_FALSE(kt::isfinite(L::infinity()));
  CHECK_FALSE(kt::isfinite(L::quiet_NaN()));
  CHECK_FALSE(kt::isnan(L::infinity()));
  CHECK_FALSE(kt::isinf(L::max()));
  int bad = 0;
  for (std::uint32_t i = 0; i < 65536; ++i) {
    const bfloat16 b = bfloat16::from_bits(static_cast<std::uint16_t>(i));
    const float f = b;
    bad += kt::isnan(b) != std::isnan(f) || kt::isinf(b) != std::isinf(f) || kt::isfinite(b) != std::isfinite(f);
  }
  CHECK(bad == 0);
}

TEST_CASE("kt::bfloat16 printing") {
  const auto str = [](bfloat16 b) {
    std::ostringstream os;
    os << b;
    return os.str();
  };
  CHECK(str(bfloat16(0.5f)) == "0.5");
  CHECK(str(bfloat16(-2)) == "-2");
  CHECK(str(bfloat16(3.14159f)) == "3.14062");   // 3.140625
  CHECK(str(bfloat16(0.1f)) == "0.100098");      // 0.10009765625
  CHECK(str(std::numeric_limits<bfloat16>::max()) == "3.38953e+38");
  CHECK(str(-bfloat16(0.0f)) == "-0");
  CHECK(str(-std::numeric_limits<bfloat16>::infinity()) == "-inf");
}

TEST_CASE_TEMPLATE("kt::bfloat16 conversions inside kernels match the host bit for bit", D, KT_DEVICES) {
  using mem = typename D::memory_space;
  const std::vector<float> floats = boundary_floats();
  const std::vector<double> doubles = boundary_doubles();
  const auto nf = static_cast<int>(floats.size()), nd = static_cast<int>(doubles.size());

  Kokkos::View<float*, Kokkos::HostSpace> floats_h("floats", floats.size());
  Kokkos::View<double*, Kokkos::HostSpace> doubles_h("doubles", doubles.size());
  std::memcpy(floats_h.data(), floats.data(), floats.size() * sizeof(float));
  std::memcpy(doubles_h.data(), doubles.data(), doubles.size() * sizeof(double));
  auto floats_d = Kokkos::create_mirror_view_and_copy(mem(), floats_h);
  auto doubles_d = Kokkos::create_mirror_view_and_copy(mem(), doubles_h);

  Kokkos::View<std::uint32_t*, mem> to_float("to_float", 65536);
  Kokkos::View<std::uint16_t*, mem> round_trip("round_trip", 65536), sum("sum", 65536),
      from_float("from_float", floats.size()), from_double("from_double", doubles.size());
  Kokkos::View<bfloat16*, mem> zeros("zeros", 65536);
  Kokkos::View<int*, mem> flags("flags", 65536);
  const int n = std::max({65536, nf, nd});
  Kokkos::parallel_for(
      "kt::test::bfloat16_kernel", Kokkos::RangePolicy<D, Kokkos::IndexType<int>>(0, n), KOKKOS_LAMBDA(const int i) {
        if (i < 65536) {
          const bfloat16 b = bfloat16::from_bits(static_cast<std::uint16_t>(i));
          const float f = b;
          to_float(i) = kt::impl::bit_cast<std::uint32_t>(f);
          round_trip(i) = bfloat16(f).to_bits();
          sum(i) = (b * bfloat16::from_bits(static_cast<std::uint16_t>(i ^ 0x3f5a)) + 1).to_bits();
          flags(i) = (kt::isnan(b) ? 1 : 0) | (kt::isinf(b) ? 2 : 0) | (kt::isfinite(b) ? 4 : 0) |
                     (zeros(i).to_bits() == 0 ? 8 : 0);
        }
        if (i < nf) from_float(i) = bfloat16(floats_d(i)).to_bits();
        if (i < nd) from_double(i) = bfloat16(doubles_d(i)).to_bits();
      });
  Kokkos::fence();
  const auto to_float_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), to_float);
  const auto round_trip_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), round_trip);
  const auto sum_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sum);
  const auto flags_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), flags);
  const auto from_float_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), from_float);
  const auto from_double_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), from_double);

  Mismatches m;
  for (std::uint32_t i = 0; i < 65536; ++i) {
    const bfloat16 b = bfloat16::from_bits(static_cast<std::uint16_t>(i));
    const float f = b;
    if (to_float_h(i) != bits_of(f) && m.count++ == 0) m.first = "to float " + hex(i);
    if (round_trip_h(i) != bfloat16(f).to_bits() && m.count++ == 0) m.first = "round trip " + hex(i);
    if (sum_h(i) != (b * bfloat16::from_bits(static_cast<std::uint16_t>(i ^ 0x3f5a)) + 1).to_bits() && m.count++ == 0)
      m.first = "arithmetic " + hex(i);
    const int flag = (kt::isnan(b) ? 1 : 0) | (kt::isinf(b) ? 2 : 0) | (kt::isfinite(b) ? 4 : 0) | 8;
    if (flags_h(i) != flag && m.count++ == 0) m.first = "classification/zero-init " + hex(i);
  }
  for (int i = 0; i < nf; ++i)
    if (from_float_h(i) != bfloat16(floats[static_cast<std::size_t>(i)]).to_bits() && m.count++ == 0)
      m.first = "from float " + hex(bits_of(floats[static_cast<std::size_t>(i)]));
  for (int i = 0; i < nd; ++i)
    if (from_double_h(i) != bfloat16(doubles[static_cast<std::size_t>(i)]).to_bits() && m.count++ == 0)
      m.first = "from double " + hex(bits_of(doubles[static_cast<std::size_t>(i)]));
  INFO(m.first);
  CHECK(m.count == 0);
}
