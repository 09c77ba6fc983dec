// Tests of kt::half (kt/core/half.hpp): every bit pattern, every rounding boundary, sweeps of
// the float and double spaces against an independent reference (GCC/Clang's _Float16, or a
// hand-written nearest-value search without it), the same conversions inside Kokkos kernels,
// and arithmetic, comparisons, limits and printing with hand-computed values.

#include "kt_test.hpp"

#include <kt/core/half.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
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

using kt::half;

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

bool is_nan_bits(std::uint16_t h) { return (h & 0x7fffu) > 0x7c00u; }

/// Reference decoder written from the definition, independent of kt: the value of a finite
/// half as a double (exact).
double ref_decode(std::uint16_t h) {
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  const double mag = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
  return (h & 0x8000u) ? -mag : mag;
}

/// Reference encoder without _Float16: the nearest of the two halves around |v|, ties to the
/// even one; the successor of max (0x7bff) is 2^16, whose bit pattern 0x7c00 is Inf. The
/// distances are exact in double (Sterbenz) wherever a tie is possible.
template <class F>
std::uint16_t ref_nearest(F v) {
  const std::uint16_t sign = std::signbit(v) ? 0x8000u : 0u;
  if (std::isnan(v)) return static_cast<std::uint16_t>(sign | 0x7e00u);
  const double a = std::fabs(static_cast<double>(v));
  if (a >= 65536.0) return static_cast<std::uint16_t>(sign | 0x7c00u);
  std::uint16_t lo = 0, hi = 0x7bff;  // largest pattern with value <= a
  while (lo < hi) {
    const auto mid = static_cast<std::uint16_t>((lo + hi + 1) / 2);
    if (ref_decode(mid) <= a) lo = mid;
    else hi = static_cast<std::uint16_t>(mid - 1);
  }
  const double vlo = ref_decode(lo), vhi = lo == 0x7bff ? 65536.0 : ref_decode(static_cast<std::uint16_t>(lo + 1));
  const double dlo = a - vlo, dhi = vhi - a;
  const bool up = dhi < dlo || (dhi == dlo && (lo & 1));
  return static_cast<std::uint16_t>(sign | (up ? lo + 1 : lo));
}

#if defined(__FLT16_MANT_DIG__) && !defined(KT_TEST_NO_FLOAT16)
constexpr const char* reference_name = "_Float16";
float ref_to_float(std::uint16_t h) {
  _Float16 x;
  std::memcpy(&x, &h, 2);
  return static_cast<float>(x);
}
template <class F>
std::uint16_t soft_ref_from(F v) {
  const _Float16 x = static_cast<_Float16>(v);
  std::uint16_t h;
  std::memcpy(&h, &x, 2);
  return h;
}
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
// Without -mf16c, (_Float16)f is libgcc's soft-float (~80 ns, most of the sweep's time); with
// F16C it is one vcvtps2ph (the CPU's own rounding: just as independent of kt). Test-only,
// chosen at run time.
__attribute__((target("f16c"))) std::uint16_t f16c_ref_from(float v) { return soft_ref_from(v); }
const bool have_f16c = __builtin_cpu_supports("f16c");
#else
std::uint16_t f16c_ref_from(float v) { return soft_ref_from(v); }
const bool have_f16c = false;
#endif
std::uint16_t ref_from(float v) { return have_f16c ? f16c_ref_from(v) : soft_ref_from(v); }
std::uint16_t ref_from(double v) { return soft_ref_from(v); }
#else
constexpr const char* reference_name = "hand-written nearest-value search";
float ref_to_float(std::uint16_t h) {
  if ((h & 0x7fffu) == 0x7c00u) return (h & 0x8000u) ? -INFINITY : INFINITY;
  if (is_nan_bits(h)) return (h & 0x8000u) ? -NAN : NAN;
  return static_cast<float>(ref_decode(h));
}
template <class F>
std::uint16_t ref_from(F v) {
  return ref_nearest(v);
}
#endif

/// Counts disagreements between kt and the reference; remembers the first for the report.
struct Mismatches {
  std::uint64_t count = 0, checked = 0;
  std::string first;
  /// Same bits, or both NaN with the same sign (NaN payloads are not specified).
  /// `input` (bits or value) is formatted only for the first mismatch: sweeps stay fast.
  void compare(std::uint16_t got, std::uint16_t want, std::uint64_t input) {
    ++checked;
    const bool ok = got == want || (is_nan_bits(got) && is_nan_bits(want) && (got & 0x8000u) == (want & 0x8000u));
    if (!ok && count++ == 0) first = "input " + hex(input) + ": kt " + hex(got) + ", reference " + hex(want);
  }
};

/// Every value, every midpoint between neighbours, and one float ULP either side of each
/// midpoint, for both signs: the floats where a rounding bug shows.
std::vector<float> boundary_floats() {
  std::vector<float> v;
  for (std::uint32_t p = 0; p <= 0x7bff; ++p) {
    const double lo = ref_decode(static_cast<std::uint16_t>(p));
    const double hi = p == 0x7bff ? 65536.0 : ref_decode(static_cast<std::uint16_t>(p + 1));
    const auto mid = static_cast<float>((lo + hi) / 2);  // exact: 12 significant bits
    for (float x : {static_cast<float>(lo), mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY)}) {
      v.push_back(x);
      v.push_back(-x);
    }
  }
  for (float x : {INFINITY, NAN, std::numeric_limits<float>::max(), std::numeric_limits<float>::denorm_min(),
                  std::numeric_limits<float>::min(), float_from(0x7f800001u), float_from(0x7fa00000u),
                  float_from(0x7fbfffffu), 65519.99f, 65520.0f, 1e-8f, 2.9802322e-8f /* 2^-25 */}) {
    v.push_back(x);
    v.push_back(-x);
  }
  return v;
}

/// The same for doubles: midpoints and one double ULP either side (which rounds to the
/// midpoint in float, so this catches a double -> float -> half double rounding).
std::vector<double> boundary_doubles() {
  std::vector<double> v;
  for (std::uint32_t p = 0; p <= 0x7bff; ++p) {
    const double lo = ref_decode(static_cast<std::uint16_t>(p));
    const double hi = p == 0x7bff ? 65536.0 : ref_decode(static_cast<std::uint16_t>(p + 1));
    const double mid = (lo + hi) / 2;
    for (double x : {lo, mid, std::nextafter(mid, 0.0), std::nextafter(mid, INFINITY)}) {
      v.push_back(x);
      v.push_back(-x);
    }
  }
  for (double x : {static_cast<double>(INFINITY), static_cast<double>(NAN), 1e300, 1e-300, 4.9e-324,
                   double_from(0x7ff0000000000001u), double_from(0x7ff8000000000000u), 65519.999999, 65520.0,
                   std::ldexp(1.0, -25), std::nextafter(std::ldexp(1.0, -25), 1.0)}) {
    v.push_back(x);
    v.push_back(-x);
  }
  return v;
}

}  // namespace

TEST_CASE("kt::half is a trivial 2-byte type") {
  static_assert(sizeof(half) == 2 && alignof(half) == 2);
  static_assert(std::is_trivially_copyable_v<half>);
  static_assert(std::is_trivially_default_constructible_v<half>);
  static_assert(std::is_standard_layout_v<half>);
  static_assert(half::from_bits(0x3c00).to_bits() == 0x3c00);  // constexpr
  static_assert(std::is_same_v<decltype(half(1.0f) * 2.0f), float>);
  static_assert(std::is_same_v<decltype(half(1.0f) * 2.0), double>);
  static_assert(std::is_same_v<decltype(half(1.0f) + 1), half>);
  static_assert(std::is_same_v<decltype(1u + half(1.0f)), half>);
  static_assert(std::is_same_v<decltype(half(1.0f) + half(1.0f)), half>);
  CHECK(half{}.to_bits() == 0);  // value-initialised: +0
}

TEST_CASE("kt::half -> float is exact for all 65536 bit patterns") {
  MESSAGE("reference: " << std::string(reference_name));
  Mismatches m;
  for (std::uint32_t i = 0; i < 65536; ++i) {
    const auto h = static_cast<std::uint16_t>(i);
    const float got = half::from_bits(h), want = ref_to_float(h);
    ++m.checked;
    const bool ok = is_nan_bits(h) ? std::isnan(got) && std::signbit(got) == ((h & 0x8000u) != 0)
                                   : bits_of(got) == bits_of(want);
    if (!ok && m.count++ == 0) m.first = "bits " + hex(h) + ": kt " + hex(bits_of(got)) + ", reference " + hex(bits_of(want));
    // The hand-written decoder agrees too (this checks it, for the fallback reference).
    if (!is_nan_bits(h) && (h & 0x7fffu) != 0x7c00u && static_cast<double>(got) != ref_decode(h) && m.count++ == 0)
      m.first = "bits " + hex(h) + ": kt " + hex(bits_of(got)) + " != decoded " + std::to_string(ref_decode(h));
    // Round trip: every non-NaN half comes back with the same bits (NaNs stay NaN, same sign).
    m.compare(half(got).to_bits(), h, h);  // input: the half bits
  }
  INFO(m.first);
  CHECK(m.count == 0);
  CHECK(static_cast<double>(half::from_bits(0x0001)) == std::ldexp(1.0, -24));
}

TEST_CASE("kt::half from float: values, midpoints (ties to even) and their neighbours") {
  Mismatches m;
  for (float f : boundary_floats()) m.compare(half(f).to_bits(), ref_from(f), bits_of(f));
  INFO(m.first);
  CHECK(m.count == 0);
  CHECK(m.checked > 250000);
}

TEST_CASE("kt::half from float: sweep of every 97th 32-bit pattern") {
  Mismatches m;
  for (std::uint64_t i = 0; i < (std::uint64_t(1) << 32); i += 97) {
    const float f = float_from(static_cast<std::uint32_t>(i));
    m.compare(half(f).to_bits(), ref_from(f), i);
  }
  INFO(m.first);
  CHECK(m.count == 0);
}

TEST_CASE("kt::half from double: values, midpoints and neighbours, and sweeps") {
  Mismatches m;
  for (double d : boundary_doubles()) m.compare(half(d).to_bits(), ref_from(d), bits_of(d));
  // Whole space: the high 32 bits every 997th pattern, the low 32 bits 0, 1 or random. (98%
  // of it is far outside half's range; the reference conversion, libgcc's soft-float, costs
  // ~80 ns, so the dense sweep below is where the time goes.)
  for (std::uint64_t i = 0; i < (std::uint64_t(1) << 32); i += 997) {
    const std::uint64_t low = i % 4 == 0 ? 0 : i % 4 == 1 ? 1 : splitmix64(i) >> 32;
    const double d = double_from((i << 32) | low);
    m.compare(half(d).to_bits(), ref_from(d), bits_of(d));
  }
  // Denser where halves live: |d| in [2^-26, 2^17), exponents 997..1039.
  for (std::uint64_t hi = 0x3e500000; hi < 0x41000000; hi += 7) {
    const double d = double_from((hi << 32) | (splitmix64(hi) >> 32));
    m.compare(half(d).to_bits(), ref_from(d), bits_of(d));
    m.compare(half(-d).to_bits(), ref_from(-d), bits_of(-d));
  }
  INFO(m.first);
  CHECK(m.count == 0);
}

TEST_CASE("kt::half rounding boundaries by hand") {
  CHECK(half(65504.0f).to_bits() == 0x7bff);
  CHECK(half(65519.99f).to_bits() == 0x7bff);   // just below 65504 + ulp/2
  CHECK(half(65520.0f).to_bits() == 0x7c00);    // the tie rounds to even = 2^16 = Inf
  CHECK(half(-65520.0).to_bits() == 0xfc00);
  CHECK(half(65519.999999).to_bits() == 0x7bff);
  CHECK(half(1e10f).to_bits() == 0x7c00);
  CHECK(half(std::ldexp(1.0f, -24)).to_bits() == 0x0001);  // smallest subnormal
  CHECK(half(std::ldexp(1.0f, -25)).to_bits() == 0x0000);  // tie with 0 -> even 0
  CHECK(half(std::nextafter(std::ldexp(1.0f, -25), 1.0f)).to_bits() == 0x0001);
  CHECK(half(std::ldexp(3.0, -25)).to_bits() == 0x0002);   // 1.5 ulp: tie -> even 2
  CHECK(half(std::ldexp(1023.5, -24)).to_bits() == 0x0400); // largest subnormal rounds up into min normal
  CHECK(half(-0.0f).to_bits() == 0x8000);
  CHECK(half(0.0).to_bits() == 0x0000);
  CHECK(half(1e-30f).to_bits() == 0x0000);
  CHECK(half(-1e-30).to_bits() == 0x8000);
  CHECK(half(0.1f).to_bits() == 0x2e66);
  CHECK(half(1.0 / 3.0).to_bits() == 0x3555);
  CHECK(half(2049.0f).to_bits() == 0x6800);  // tie between 2048 and 2050 -> 2048
  CHECK(half(2051.0f).to_bits() == 0x6802);  // tie between 2050 and 2052 -> 2052
  // A double just above a midpoint: rounding via float would land on the tie and go to even.
  CHECK(half(std::nextafter(2049.0, 3000.0)).to_bits() == 0x6801);
  // NaN: stays NaN with its sign, quiet, even when the payload sits only in dropped bits.
  CHECK(kt::isnan(half(float_from(0x7f800001u))));
  CHECK(half(float_from(0x7f800001u)).to_bits() == 0x7e00);
  CHECK(half(float_from(0xffc00000u)).to_bits() == 0xfe00);
  CHECK(half(double_from(0x7ff0000000000001u)).to_bits() == 0x7e00);
  CHECK(half(std::numeric_limits<float>::infinity()).to_bits() == 0x7c00);
}

TEST_CASE("kt::half from integers") {
  CHECK(half(0).to_bits() == 0x0000);
  CHECK(half(1).to_bits() == 0x3c00);
  CHECK(half(-2).to_bits() == 0xc000);
  CHECK(half(2049).to_bits() == 0x6800);
  CHECK(half(65519).to_bits() == 0x7bff);
  CHECK(half(65520).to_bits() == 0x7c00);
  CHECK(half(std::numeric_limits<std::int64_t>::min()).to_bits() == 0xfc00);
  CHECK(half(std::numeric_limits<std::uint64_t>::max()).to_bits() == 0x7c00);
  CHECK(half(std::size_t{3}).to_bits() == 0x4200);
  CHECK(half(static_cast<std::uint8_t>(255)).to_bits() == 0x5bf8);
  Mismatches m;
  for (int i = -70000; i <= 70000; ++i) m.compare(half(i).to_bits(), ref_from(static_cast<double>(i)), static_cast<std::uint64_t>(i));
  INFO(m.first);
  CHECK(m.count == 0);
}

TEST_CASE("kt::half arithmetic, mixed expressions and casts") {
  const half one = 1, two = 2.0f, three = 3.0;
  CHECK((one + two).to_bits() == 0x4200);
  CHECK((one - two).to_bits() == 0xbc00);
  CHECK((two * three).to_bits() == 0x4600);
  CHECK((one / three).to_bits() == 0x3555);  // 0.333251953125
  CHECK((-two).to_bits() == 0xc000);
  CHECK((+two).to_bits() == 0x4000);
  CHECK((-half(0.0f)).to_bits() == 0x8000);
  CHECK((half(2048) + one).to_bits() == 0x6800);                    // 2049 ties to 2048
  CHECK((half(65504) + half(8)).to_bits() == 0x7bff);               // 65512
  CHECK((half(65504) + half(16)).to_bits() == 0x7c00);              // 65520 -> Inf
  CHECK((half(65504) * two).to_bits() == 0x7c00);
  CHECK(kt::isnan(half(0.0f) / half(0.0f)));
  CHECK((one / half(0.0f)).to_bits() == 0x7c00);
  CHECK((one / half(-0.0f)).to_bits() == 0xfc00);
  // Mixed: half op float -> float, half op double -> double, half op integer -> half.
  const half h = 0.1f;  // 0.0999755859375
  CHECK(h * 2.0f == 0.199951171875f);
  CHECK(2.0f * h == 0.199951171875f);
  CHECK(h * 0.5 == 0.04998779296875);
  CHECK((h + 1).to_bits() == half(1.0999755859375).to_bits());      // 1.0999755859375 -> 1.099609375
  CHECK((h + 1).to_bits() == 0x3c66);
  CHECK((1 - h).to_bits() == 0x3b33);                               // 0.9000244140625 -> 0.89990234375
  CHECK((h * 3u).to_bits() == 0x34cc);                              // 0.2999267578125 -> 0.2998046875
  CHECK((half(7) / 2).to_bits() == 0x4300);                         // 3.5
  half a = 1;
  a += 1;
  CHECK(a.to_bits() == 0x4000);
  a *= 1.5f;
  CHECK(a.to_bits() == 0x4200);
  a -= 0.5;
  CHECK(a.to_bits() == 0x4100);
  a /= half(2);
  CHECK(a.to_bits() == 0x3d00);
  a += h;
  CHECK(a.to_bits() == half(1.25f + 0.0999755859375f).to_bits());
  // Explicit casts are unambiguous.
  CHECK(static_cast<int>(half(-2.75f)) == -2);
  CHECK(static_cast<double>(h) == 0.0999755859375);
  CHECK(static_cast<std::int64_t>(half(65504)) == 65504);
  CHECK(static_cast<bool>(half(0.5f)));
  CHECK(!static_cast<bool>(half(-0.0f)));
  const double d = h;  // implicit via float: exact
  CHECK(d == 0.0999755859375);
}

TEST_CASE("kt::half comparisons") {
  const half nan = std::numeric_limits<half>::quiet_NaN(), one = 1, two = 2;
  CHECK(one < two);
  CHECK(one <= two);
  CHECK(two > one);
  CHECK(two >= two);
  CHECK(one != two);
  CHECK(one == half(1.0));
  CHECK(half(0.0f) == half(-0.0f));
  CHECK_FALSE(half(0.0f) < half(-0.0f));
  CHECK_FALSE(nan == nan);
  CHECK(nan != nan);
  CHECK_FALSE(nan < one);
  CHECK_FALSE(nan > one);
  CHECK_FALSE(nan <= nan);
  CHECK(-std::numeric_limits<half>::infinity() < std::numeric_limits<half>::lowest());
  // Mixed with numbers.
  CHECK(one == 1);
  CHECK(1 == one);
  CHECK(one < 1.5f);
  CHECK(2.5 > two);
  CHECK(two >= 2u);
  CHECK(half(65504) == 65519);   // the integer is converted to half first (65519 -> 65504)
  CHECK(half(65504) < 65519.0);  // a double is not
  CHECK(half(0.1f) != 0.1f);
}

TEST_CASE("kt::half classification and numeric_limits") {
  using L = std::numeric_limits<half>;
  static_assert(L::is_specialized && L::is_signed && !L::is_integer && L::is_iec559);
  static_assert(L::digits == 11 && L::radix == 2 && L::has_infinity && L::has_quiet_NaN);
  static_assert(L::max().to_bits() == 0x7bff && L::lowest().to_bits() == 0xfbff);
  static_assert(std::numeric_limits<const half>::max().to_bits() == 0x7bff);
  CHECK(static_cast<float>(L::max()) == 65504.0f);
  CHECK(static_cast<float>(L::lowest()) == -65504.0f);
  CHECK(static_cast<double>(L::min()) == std::ldexp(1.0, -14));
  CHECK(static_cast<double>(L::denorm_min()) == std::ldexp(1.0, -24));
  CHECK(static_cast<double>(L::epsilon()) == std::ldexp(1.0, 1 - L::digits));
  CHECK(half::from_bits(0x3c01) - half(1) == L::epsilon());
  CHECK(static_cast<float>(L::round_error()) == 0.5f);
  CHECK(static_cast<double>(L::max()) == (2 - std::ldexp(1.0, 1 - L::digits)) * std::ldexp(1.0, L::max_exponent - 1));
  CHECK(static_cast<double>(L::min()) == std::ldexp(1.0, L::min_exponent - 1));
  CHECK(std::pow(10.0, L::max_exponent10) <= 65504.0);
  CHECK(std::pow(10.0, L::max_exponent10 + 1) > 65504.0);
  CHECK(std::pow(10.0, L::min_exponent10) >= std::ldexp(1.0, -14));
  CHECK(std::pow(10.0, L::min_exponent10 - 1) < std::ldexp(1.0, -14));
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
  // Classification agrees with float's for every pattern.
  int bad = 0;
  for (std::uint32_t i = 0; i < 65536; ++i) {
    const half h = half::from_bits(static_cast<std::uint16_t>(i));
    const float f = h;
    bad += kt::isnan(h) != std::isnan(f) || kt::isinf(h) != std::isinf(f) || kt::isfinite(h) != std::isfinite(f);
  }
  CHECK(bad == 0);
}

TEST_CASE("kt::half printing") {
  const auto str = [](half h) {
    std::ostringstream os;
    os << h;
    return os.str();
  };
  CHECK(str(half(0.5f)) == "0.5");
  CHECK(str(half(-2)) == "-2");
  CHECK(str(half(65504)) == "65504");
  CHECK(str(half(0.1f)) == "0.0999756");
  CHECK(str(half(-0.0f)) == "-0");
  CHECK(str(std::numeric_limits<half>::infinity()) == "inf");
  CHECK(str(-std::numeric_limits<half>::infinity()) == "-inf");
}

TEST_CASE_TEMPLATE("kt::half conversions inside kernels match the host bit for bit", D, KT_DEVICES) {
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
  Kokkos::View<half*, mem> zeros("zeros", 65536);
  Kokkos::View<int*, mem> flags("flags", 65536);
  const int n = std::max({65536, nf, nd});
  Kokkos::parallel_for(
      "kt::test::half_kernel", Kokkos::RangePolicy<D, Kokkos::IndexType<int>>(0, n), KOKKOS_LAMBDA(const int i) {
        if (i < 65536) {
          const half h = half::from_bits(static_cast<std::uint16_t>(i));
          const float f = h;
          to_float(i) = kt::impl::bit_cast<std::uint32_t>(f);
          round_trip(i) = half(f).to_bits();
          sum(i) = (h * half::from_bits(static_cast<std::uint16_t>(i ^ 0x3c5a)) + 1).to_bits();
          flags(i) = (kt::isnan(h) ? 1 : 0) | (kt::isinf(h) ? 2 : 0) | (kt::isfinite(h) ? 4 : 0) |
                     (zeros(i).to_bits() == 0 ? 8 : 0);
        }
        if (i < nf) from_float(i) = half(floats_d(i)).to_bits();
        if (i < nd) from_double(i) = half(doubles_d(i)).to_bits();
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
    const half h = half::from_bits(static_cast<std::uint16_t>(i));
    const float f = h;
    if (to_float_h(i) != bits_of(f) && m.count++ == 0) m.first = "to float " + hex(i);
    if (round_trip_h(i) != half(f).to_bits() && m.count++ == 0) m.first = "round trip " + hex(i);
    if (sum_h(i) != (h * half::from_bits(static_cast<std::uint16_t>(i ^ 0x3c5a)) + 1).to_bits() && m.count++ == 0)
      m.first = "arithmetic " + hex(i);
    const int flag = (kt::isnan(h) ? 1 : 0) | (kt::isinf(h) ? 2 : 0) | (kt::isfinite(h) ? 4 : 0) | 8;
    if (flags_h(i) != flag && m.count++ == 0) m.first = "classification/zero-init " + hex(i);
  }
  for (int i = 0; i < nf; ++i)
    if (from_float_h(i) != half(floats[static_cast<std::size_t>(i)]).to_bits() && m.count++ == 0)
      m.first = "from float " + hex(bits_of(floats[static_cast<std::size_t>(i)]));
  for (int i = 0; i < nd; ++i)
    if (from_double_h(i) != half(doubles[static_cast<std::size_t>(i)]).to_bits() && m.count++ == 0)
      m.first = "from double " + hex(bits_of(doubles[static_cast<std::size_t>(i)]));
  INFO(m.first);
  CHECK(m.count == 0);
}
