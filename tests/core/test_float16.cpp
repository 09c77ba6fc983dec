// Tests of kt's two 16-bit floating types, each test typed over both: kt::half
// (kt/core/half.hpp, IEEE binary16) and kt::bfloat16 (kt/core/bfloat16.hpp, the upper 16 bits
// of a float). Every bit pattern, every rounding boundary, sweeps of the float and double
// spaces and of integers against an independent reference, the same conversions inside Kokkos
// kernels, and arithmetic, comparisons, limits and printing with hand-computed values. What
// differs between the formats (bit layout, reference, hand-computed values) is in HalfTraits
// and BFloat16Traits; checks that exist for one format only sit under `if constexpr`.
//
// The references never use kt's conversion code. half: GCC/Clang's _Float16 (the CPU's F16C
// for floats, where it has it) or, without _Float16, the hand-written nearest-value search
// below. bfloat16: exact float bit manipulation (a float is the bfloat16 bits shifted left by
// 16; encoding truncates to float toward zero, keeps the upper 16 bits and takes the nearer of
// that pattern and the next, compared in wider arithmetic, ties to even).

#include "kt_test.hpp"

#include <kt/core/bfloat16.hpp>
#include <kt/core/half.hpp>

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

template <class Fmt>
bool is_nan_bits(std::uint16_t p) {
  return (p & 0x7fffu) > Fmt::inf;
}

/// 2^k for a normal double's exponent k, built from its bits (std::ldexp, but fast: the
/// sweeps decode twice per value).
double pow2(int k) { return double_from(static_cast<std::uint64_t>(k + 1023) << 52); }

/// Reference decoder written from the definition, independent of kt: the value of a finite
/// pattern of a format with Fmt::exponent_bits and Fmt::mantissa_bits, as a double (exact).
template <class Fmt>
double ref_decode(std::uint16_t p) {
  constexpr int M = Fmt::mantissa_bits, bias = (1 << (Fmt::exponent_bits - 1)) - 1;
  const int e = (p & 0x7fff) >> M, m = p & ((1 << M) - 1);
  const double mag = e == 0 ? m * pow2(1 - bias - M) : ((1 << M) + m) * pow2(e - bias - M);
  return (p & 0x8000u) ? -mag : mag;
}

/// The largest finite pattern with value <= a (0 <= a < Fmt::overflow): binary search over
/// ref_decode.
template <class Fmt, class W>
std::uint16_t floor_by_search(W a) {
  std::uint16_t lo = 0, hi = Fmt::max;
  while (lo < hi) {
    const auto mid = static_cast<std::uint16_t>((lo + hi + 1) / 2);
    if (static_cast<W>(ref_decode<Fmt>(mid)) <= a) lo = mid;
    else hi = static_cast<std::uint16_t>(mid - 1);
  }
  return lo;
}

/// Reference encoder: the nearer of the two patterns around |v| (Fmt::floor_bits(|v|), or the
/// binary search with by_search, and the next one), ties to the even one. The successor of max
/// stands for Fmt::overflow, whose pattern is Inf's, so rounding past max gives Inf; NaN gives
/// the quiet NaN of its sign. The distances are computed in arithmetic wider than v's (double
/// for float, long double for double and integers): exact by Sterbenz wherever a tie is possible.
template <class Fmt, bool by_search = false, class V>
std::uint16_t ref_nearest(V v) {
  using W = std::conditional_t<std::is_same_v<V, float>, double, long double>;
  const std::uint16_t sign = std::signbit(v) ? 0x8000u : 0u;
  if (std::isnan(v)) return static_cast<std::uint16_t>(sign | Fmt::qnan);
  const W a = std::fabs(static_cast<W>(v)), overflow = Fmt::overflow;
  if (a >= overflow) return static_cast<std::uint16_t>(sign | Fmt::inf);
  std::uint16_t lo;
  if constexpr (by_search) lo = floor_by_search<Fmt>(a);
  else lo = Fmt::floor_bits(a);
  const W vlo = ref_decode<Fmt>(lo), vhi = lo == Fmt::max ? overflow : ref_decode<Fmt>(lo + 1);
  const W dlo = a - vlo, dhi = vhi - a;
  const bool up = dhi < dlo || (dhi == dlo && (lo & 1));
  return static_cast<std::uint16_t>(sign | (up ? lo + 1 : lo));
}

#if defined(__FLT16_MANT_DIG__) && !defined(KT_TEST_NO_FLOAT16)
#define KT_TEST_FLOAT16_REFERENCE 1
float float16_to_float(std::uint16_t h) {
  _Float16 x;
  std::memcpy(&x, &h, 2);
  return static_cast<float>(x);
}
template <class F>
std::uint16_t soft_float16_from(F v) {
  const _Float16 x = static_cast<_Float16>(v);
  std::uint16_t h;
  std::memcpy(&h, &x, 2);
  return h;
}
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
// Without -mf16c, (_Float16)f is libgcc's soft-float (~80 ns, most of the sweep's time); with
// F16C it is one vcvtps2ph (the CPU's own rounding: just as independent of kt). Test-only,
// chosen at run time.
__attribute__((target("f16c"))) std::uint16_t f16c_float16_from(float v) { return soft_float16_from(v); }
const bool have_f16c = __builtin_cpu_supports("f16c");
#else
std::uint16_t f16c_float16_from(float v) { return soft_float16_from(v); }
const bool have_f16c = false;
#endif
#endif

/// kt::half, IEEE binary16: layout, reference and hand-computed values.
struct HalfTraits {
  using type = kt::half;
  static constexpr int exponent_bits = 5, mantissa_bits = 10, digits = 11, denorm_min_exponent = -24;
  static constexpr bool is_iec559 = true;
  static constexpr std::uint16_t one = 0x3c00, max = 0x7bff, inf = 0x7c00, qnan = 0x7e00, min_normal = 0x0400;
  /// overflow: what max's successor would be worth (2^16); max + ulp/2 ties to it, i.e. to Inf.
  static constexpr double max_value = 65504, min_value = 0x1p-14, overflow = 65536;
  /// 0.1f rounded, 1/3, 3.14159f (= 3.140625), and results of the arithmetic test.
  static constexpr double tenth = 0.0999755859375;
  static constexpr std::uint16_t tenth_bits = 0x2e66, third = 0x3555, pi = 0x4248, three = 0x4200, six = 0x4600,
                                 three_and_half = 0x4300, two_and_half = 0x4100, one_and_quarter = 0x3d00,
                                 one_plus_tenth = 0x3c66 /* 1.0999755859375 -> 1.099609375 */,
                                 one_minus_tenth = 0x3b33 /* 0.9000244140625 -> 0.89990234375 */,
                                 three_tenths = 0x34cc /* 0.2999267578125 -> 0.2998046875 */;
  /// int_tie lies halfway between 2048 and 2050 (-> 2048), int_tie + 2 between 2050 and 2052
  /// (-> 2052); inexact_int becomes inexact_value as a half.
  static constexpr int int_tie = 2049, inexact_int = 65519, inexact_value = 65504;
  static constexpr std::uint16_t int_tie_bits = 0x6800, next_int_tie_bits = 0x6802, uint8_max_bits = 0x5bf8,
                                 int64_min_bits = 0xfc00, int64_max_bits = 0x7c00, uint64_max_bits = 0x7c00;
  static constexpr std::int64_t exact_big_int = 65504;
  static constexpr const char *tenth_string = "0.0999756", *max_string = "65504";
  static constexpr std::uint16_t kernel_partner = 0x3c5a;  // the other operand of the kernel's product: i ^ this
  static constexpr float extra_floats[] = {65519.99f, 65520.0f, 1e-8f, 2.9802322e-8f /* 2^-25 */};
  static constexpr double extra_doubles[] = {65519.999999, 65520.0};
  /// Sweep of doubles: the high 32 bits every 997th pattern (98% of it is far outside half's
  /// range, and the reference conversion, libgcc's soft-float, costs ~80 ns), then denser where
  /// halves live: |d| in [2^-26, 2^17), exponents 997..1039.
  static constexpr std::uint64_t double_step = 997, dense_begin = 0x3e500000, dense_end = 0x41000000, dense_step = 7;

  template <class W>
  static std::uint16_t floor_bits(W a) {
    return floor_by_search<HalfTraits>(a);
  }
  /// Does the reference's float define the payload of NaNs? (_Float16's may quiet them.)
  static constexpr bool reference_keeps_nan_payload = false;
#ifdef KT_TEST_FLOAT16_REFERENCE
  static constexpr const char* reference_name = "_Float16";
  static float ref_to_float(std::uint16_t h) { return float16_to_float(h); }
  static std::uint16_t ref_from(float v) { return have_f16c ? f16c_float16_from(v) : soft_float16_from(v); }
  static std::uint16_t ref_from(double v) { return soft_float16_from(v); }
#else
  static constexpr const char* reference_name = "hand-written nearest-value search";
  static float ref_to_float(std::uint16_t h) {
    if ((h & 0x7fffu) == inf) return (h & 0x8000u) ? -INFINITY : INFINITY;
    if (is_nan_bits<HalfTraits>(h)) return (h & 0x8000u) ? -NAN : NAN;
    return static_cast<float>(ref_decode<HalfTraits>(h));
  }
  template <class F>
  static std::uint16_t ref_from(F v) {
    return ref_nearest<HalfTraits>(v);
  }
#endif
};

/// kt::bfloat16, float's upper 16 bits: layout, reference and hand-computed values.
struct BFloat16Traits {
  using type = kt::bfloat16;
  static constexpr int exponent_bits = 8, mantissa_bits = 7, digits = 8, denorm_min_exponent = -133;
  static constexpr bool is_iec559 = false;  // not an IEEE 754 interchange format
  static constexpr std::uint16_t one = 0x3f80, max = 0x7f7f, inf = 0x7f80, qnan = 0x7fc0, min_normal = 0x0080;
  /// max = (2 - 2^-7) * 2^127; min = FLT_MIN (the same range as float); overflow: 2^128.
  static constexpr double max_value = 0x1.fep127, min_value = FLT_MIN, overflow = 0x1p128;
  static constexpr double tenth = 0.10009765625;
  static constexpr std::uint16_t tenth_bits = 0x3dcd, third = 0x3eab /* 0.333984375 */, pi = 0x4049, three = 0x4040,
                                 six = 0x40c0, three_and_half = 0x4060, two_and_half = 0x4020,
                                 one_and_quarter = 0x3fa0, one_plus_tenth = 0x3f8d /* 1.10009765625 -> 1.1015625 */,
                                 one_minus_tenth = 0x3f66 /* 0.89990234375 -> 0.8984375 */,
                                 three_tenths = 0x3e9a /* 0.30029296875 -> 0.30078125 */;
  /// int_tie: halfway between 256 and 258 (-> 256), int_tie + 2 between 258 and 260 (-> 260).
  static constexpr int int_tie = 257, inexact_int = 257, inexact_value = 256;
  static constexpr std::uint16_t int_tie_bits = 0x4380, next_int_tie_bits = 0x4382, uint8_max_bits = 0x437f,
                                 int64_min_bits = 0xdf00 /* -2^63 */, int64_max_bits = 0x5f00 /* 2^63 */,
                                 uint64_max_bits = 0x5f80 /* 2^64 */;
  static constexpr std::int64_t exact_big_int = std::int64_t(1) << 40;
  static constexpr const char *tenth_string = "0.100098", *max_string = "3.38953e+38";
  static constexpr std::uint16_t kernel_partner = 0x3f5a;
  static constexpr float extra_floats[] = {1e-40f, 1e38f};
  static constexpr double extra_doubles[] = {0x1.ffp127 /* the overflow tie */, 1e-45};
  /// Sweep of doubles: the high 32 bits every 97th pattern, then denser where bfloat16s live:
  /// |d| in [2^-135, 2^129), exponents 888..1151.
  static constexpr std::uint64_t double_step = 97, dense_begin = 0x37800000, dense_end = 0x48000000, dense_step = 61;

  /// Truncation toward zero: to float toward zero, then its upper 16 bits.
  template <class W>
  static std::uint16_t floor_bits(W a) {
    float ft = static_cast<float>(a);
    if (static_cast<W>(ft) > a) ft = std::nextafter(ft, 0.0f);
    return static_cast<std::uint16_t>(bits_of(ft) >> 16);
  }
  static constexpr bool reference_keeps_nan_payload = true;
  static constexpr const char* reference_name = "float bit manipulation";
  static float ref_to_float(std::uint16_t b) { return float_from(std::uint32_t{b} << 16); }
  template <class F>
  static std::uint16_t ref_from(F v) {
    return ref_nearest<BFloat16Traits>(v);
  }
};

/// The hand-written layout constants agree with the bit counts.
template <class F>
constexpr bool layout_matches_bit_counts() {
  constexpr int E = F::exponent_bits, M = F::mantissa_bits, bias = (1 << (E - 1)) - 1;
  return 1 + E + M == 16 && F::digits == M + 1 && F::inf == ((1 << E) - 1) << M && F::max == F::inf - 1 &&
         F::qnan == (F::inf | 1 << (M - 1)) && F::one == bias << M && F::min_normal == 1 << M &&
         F::denorm_min_exponent == 1 - bias - M;
}

template <class T>
using traits_of = std::conditional_t<std::is_same_v<T, kt::half>, HalfTraits, BFloat16Traits>;

/// Counts disagreements between kt and the reference; remembers the first for the report.
template <class F>
struct Mismatches {
  std::uint64_t count = 0, checked = 0;
  std::string first;
  /// Same bits, or both NaN with the same sign (NaN payloads are not specified).
  /// `input` (bits or value) is formatted only for the first mismatch: sweeps stay fast.
  void compare(std::uint16_t got, std::uint16_t want, std::uint64_t input) {
    ++checked;
    const bool ok =
        got == want || (is_nan_bits<F>(got) && is_nan_bits<F>(want) && (got & 0x8000u) == (want & 0x8000u));
    if (!ok && count++ == 0) first = "input " + hex(input) + ": kt " + hex(got) + ", reference " + hex(want);
  }
};

/// Every value, every midpoint between neighbours (the one above max is the tie with Inf), and
/// one ULP of V either side of each midpoint, for both signs: where a rounding bug shows. (For
/// doubles, one double ULP off the midpoint rounds to the midpoint in float, so this catches a
/// double -> float -> 16-bit double rounding.) Then special values: Inf, NaNs (signalling ones
/// with the payload only in bits that are dropped), V's extremes, ties with 0 and Inf, and the
/// format's extras.
template <class F, class V>
std::vector<V> boundary_values() {
  std::vector<V> v;
  const auto both = [&v](V x) {
    v.push_back(x);
    v.push_back(-x);
  };
  for (std::uint32_t p = 0; p <= F::max; ++p) {
    const double lo = ref_decode<F>(static_cast<std::uint16_t>(p));
    const double hi = p == F::max ? F::overflow : ref_decode<F>(static_cast<std::uint16_t>(p + 1));
    const auto mid = static_cast<V>((lo + hi) / 2);  // exact: mantissa_bits + 2 significant bits
    const auto inf = std::numeric_limits<V>::infinity();
    for (V x : {static_cast<V>(lo), mid, std::nextafter(mid, V(0)), std::nextafter(mid, inf)}) both(x);
  }
  if constexpr (std::is_same_v<V, float>) {
    for (std::uint32_t x : {0x7f800000u, 0x7fc00000u, 0x7f800001u, 0x7f80ffffu, 0x7fa00000u, 0x7fbfffffu, 0x7fffffffu,
                            0x7f7fffffu /* FLT_MAX */, 0x00800000u /* FLT_MIN */, 0x00000001u /* denorm_min */})
      both(float_from(x));
    for (float x : F::extra_floats) both(x);
  } else {
    const double zero_tie = std::ldexp(1.0, F::denorm_min_exponent - 1);  // halfway to denorm_min
    for (double x : {static_cast<double>(INFINITY), static_cast<double>(NAN), 1e300, 1e-300, 4.9e-324,
                     double_from(0x7ff0000000000001u), double_from(0x7ff8000000000000u), F::overflow, zero_tie,
                     std::nextafter(zero_tie, 1.0), zero_tie / 64, static_cast<double>(FLT_MAX) * 1.5})
      both(x);
    for (double x : F::extra_doubles) both(x);
  }
  return v;
}

/// kt and the references on boundary_values<F, V>(): `m` counts kt's disagreements with
/// F::ref_from, `search` those of the nearest-value search (half's fallback reference).
template <class F, class V>
void compare_boundaries(Mismatches<F>& m, Mismatches<F>& search) {
  using T = typename F::type;
  for (V x : boundary_values<F, V>()) {
    m.compare(T(x).to_bits(), F::ref_from(x), bits_of(x));
    search.compare(ref_nearest<F, true>(x), F::ref_from(x), bits_of(x));
  }
}

}  // namespace

TYPE_TO_STRING_AS("kt::half", HalfTraits);
TYPE_TO_STRING_AS("kt::bfloat16", BFloat16Traits);

TEST_CASE_TEMPLATE("16-bit float is a trivial 2-byte type", F, HalfTraits, BFloat16Traits) {
  using T = typename F::type;
  static_assert(layout_matches_bit_counts<F>());
  static_assert(sizeof(T) == 2 && alignof(T) == 2);
  static_assert(std::is_trivially_copyable_v<T>);
  static_assert(std::is_trivially_default_constructible_v<T>);
  static_assert(std::is_standard_layout_v<T>);
  static_assert(T::from_bits(F::one).to_bits() == F::one);  // constexpr
  static_assert(std::is_same_v<decltype(T(1.0f) * 2.0f), float>);
  static_assert(std::is_same_v<decltype(T(1.0f) * 2.0), double>);
  static_assert(std::is_same_v<decltype(T(1.0f) + 1), T>);
  static_assert(std::is_same_v<decltype(1u + T(1.0f)), T>);
  static_assert(std::is_same_v<decltype(T(1.0f) + T(1.0f)), T>);
  CHECK(T{}.to_bits() == 0);  // value-initialised: +0
}

TEST_CASE_TEMPLATE("16-bit float -> float is exact for all 65536 bit patterns", F, HalfTraits, BFloat16Traits) {
  using T = typename F::type;
  MESSAGE("reference: " << std::string(F::reference_name));
  Mismatches<F> m;
  for (std::uint32_t i = 0; i < 65536; ++i) {
    const auto p = static_cast<std::uint16_t>(i);
    const float got = T::from_bits(p), want = F::ref_to_float(p);
    const bool nan = is_nan_bits<F>(p);
    ++m.checked;
    // NaNs: a NaN of the same sign, and the reference's bits where it defines them (bfloat16).
    const bool ok = nan && !F::reference_keeps_nan_payload
                        ? std::isnan(got) && std::signbit(got) == ((p & 0x8000u) != 0)
                        : bits_of(got) == bits_of(want);
    if (!ok && m.count++ == 0) m.first = "bits " + hex(p) + ": kt " + hex(bits_of(got)) + ", reference " + hex(bits_of(want));
    // The hand-written decoder agrees too (this checks it, for the nearest-value search).
    if (!nan && (p & 0x7fffu) != F::inf && static_cast<double>(got) != ref_decode<F>(p) && m.count++ == 0)
      m.first = "bits " + hex(p) + ": kt " + hex(bits_of(got)) + " != decoded " + std::to_string(ref_decode<F>(p));
    // Round trip: every non-NaN comes back with the same bits; NaNs stay NaN, same sign, quiet.
    const std::uint16_t back = T(got).to_bits();
    m.compare(back, p, p);  // input: the 16-bit pattern
    if (nan && (back & (F::qnan ^ F::inf)) == 0 && m.count++ == 0) m.first = "NaN not quieted: " + hex(p);
  }
  INFO(m.first);
  CHECK(m.count == 0);
  CHECK(static_cast<double>(T::from_bits(0x0001)) == std::ldexp(1.0, F::denorm_min_exponent));
}

TEST_CASE_TEMPLATE("16-bit float from float: values, midpoints (ties to even) and their neighbours", F, HalfTraits,
                   BFloat16Traits) {
  Mismatches<F> m, search;
  compare_boundaries<F, float>(m, search);
  CHECK(m.checked > 250000);
  CHECK_MESSAGE(search.count == 0, search.first);  // the nearest-value search agrees with the reference
  INFO(m.first);
  CHECK(m.count == 0);
}

TEST_CASE_TEMPLATE("16-bit float from float: sweep of every 97th 32-bit pattern", F, HalfTraits, BFloat16Traits) {
  using T = typename F::type;
  Mismatches<F> m;
  for (std::uint64_t i = 0; i < (std::uint64_t(1) << 32); i += 97) {
    const float f = float_from(static_cast<std::uint32_t>(i));
    m.compare(T(f).to_bits(), F::ref_from(f), i);
  }
  INFO(m.first);
  CHECK(m.count == 0);
}

TEST_CASE_TEMPLATE("16-bit float from double: values, midpoints and neighbours, and sweeps", F, HalfTraits,
                   BFloat16Traits) {
  using T = typename F::type;
  Mismatches<F> m, search;
  compare_boundaries<F, double>(m, search);
  CHECK_MESSAGE(search.count == 0, search.first);  // the nearest-value search agrees with the reference
  // Whole space: the high 32 bits every F::double_step-th pattern, the low 32 bits 0, 1 or random.
  for (std::uint64_t i = 0; i < (std::uint64_t(1) << 32); i += F::double_step) {
    const std::uint64_t low = i % 4 == 0 ? 0 : i % 4 == 1 ? 1 : splitmix64(i) >> 32;
    const double d = double_from((i << 32) | low);
    m.compare(T(d).to_bits(), F::ref_from(d), bits_of(d));
  }
  // Denser where the format's values live.
  for (std::uint64_t hi = F::dense_begin; hi < F::dense_end; hi += F::dense_step) {
    const double d = double_from((hi << 32) | (splitmix64(hi) >> 32));
    m.compare(T(d).to_bits(), F::ref_from(d), bits_of(d));
    m.compare(T(-d).to_bits(), F::ref_from(-d), bits_of(-d));
  }
  INFO(m.first);
  CHECK(m.count == 0);
}

TEST_CASE_TEMPLATE("16-bit float rounding boundaries by hand", F, HalfTraits, BFloat16Traits) {
  using T = typename F::type;
  const std::uint16_t neg = 0x8000;
  // Around max: max + ulp/2 is the tie with 2^16 (half) or 2^128 (bfloat16), which is even: Inf.
  const double tie = (F::max_value + F::overflow) / 2;
  CHECK(T(F::max_value).to_bits() == F::max);
  CHECK(T(static_cast<float>(F::max_value)).to_bits() == F::max);
  CHECK(T(std::nextafter(static_cast<float>(tie), 0.0f)).to_bits() == F::max);  // just below the tie
  CHECK(T(static_cast<float>(tie)).to_bits() == F::inf);
  CHECK(T(-tie).to_bits() == (F::inf | neg));
  CHECK(T(std::nextafter(tie, 0.0)).to_bits() == F::max);
  CHECK(T(std::numeric_limits<float>::max()).to_bits() == F::inf);
  CHECK(T(1e300).to_bits() == F::inf);
  // Around zero: denorm_min, the tie with 0 (-> even 0), 1.5 ulp (tie -> even 2).
  const int dme = F::denorm_min_exponent;
  CHECK(T(std::ldexp(1.0f, dme)).to_bits() == 0x0001);  // smallest subnormal
  CHECK(T(std::ldexp(1.0f, dme - 1)).to_bits() == 0x0000);
  CHECK(T(std::nextafter(std::ldexp(1.0f, dme - 1), 1.0f)).to_bits() == 0x0001);
  CHECK(T(std::ldexp(1.0, dme - 1)).to_bits() == 0x0000);
  CHECK(T(std::nextafter(std::ldexp(1.0, dme - 1), 1.0)).to_bits() == 0x0001);
  CHECK(T(std::ldexp(3.0, dme - 1)).to_bits() == 0x0002);
  // The tie between the largest subnormal and min normal goes up to min normal (even); so
  // does the float just below min normal.
  CHECK(T(std::ldexp((1 << F::mantissa_bits) - 0.5, dme)).to_bits() == F::min_normal);
  CHECK(T(std::nextafter(static_cast<float>(F::min_value), 0.0f)).to_bits() == F::min_normal);
  CHECK(T(-0.0f).to_bits() == 0x8000);
  CHECK(T(-0.0).to_bits() == 0x8000);
  CHECK(T(0.0).to_bits() == 0x0000);
  CHECK(T(std::numeric_limits<float>::denorm_min()).to_bits() == 0x0000);
  CHECK(T(1e-300).to_bits() == 0x0000);
  CHECK(T(-1e-300).to_bits() == 0x8000);
  CHECK(T(0.1f).to_bits() == F::tenth_bits);
  CHECK(T(1.0 / 3.0).to_bits() == F::third);
  CHECK(T(3.14159f).to_bits() == F::pi);
  CHECK(T(static_cast<float>(F::int_tie)).to_bits() == F::int_tie_bits);  // tie -> even, down
  CHECK(T(static_cast<float>(F::int_tie + 2)).to_bits() == F::next_int_tie_bits);  // tie -> even, up
  CHECK(T(static_cast<double>(F::int_tie)).to_bits() == F::int_tie_bits);
  // A double just above a midpoint: rounding via float would land on the tie and go to even.
  CHECK(T(std::nextafter(static_cast<double>(F::int_tie), 1e9)).to_bits() == F::int_tie_bits + 1);
  // NaN: stays NaN with its sign, quiet, even when the payload sits only in dropped bits.
  CHECK(kt::isnan(T(float_from(0x7f800001u))));
  CHECK(T(float_from(0x7f800001u)).to_bits() == F::qnan);
  CHECK(T(float_from(0xff800001u)).to_bits() == (F::qnan | neg));
  CHECK(T(float_from(0xffc00000u)).to_bits() == (F::qnan | neg));
  CHECK(kt::isnan(T(double_from(0x7ff0000000000001u))));
  CHECK(T(double_from(0x7ff0000000000001u)).to_bits() == F::qnan);
  CHECK(T(double_from(0xfff0000000000001u)).to_bits() == (F::qnan | neg));
  CHECK(T(std::numeric_limits<float>::infinity()).to_bits() == F::inf);
  CHECK(T(std::numeric_limits<double>::infinity()).to_bits() == F::inf);
  if constexpr (std::is_same_v<T, kt::half>) {
    CHECK(T(65519.99f).to_bits() == 0x7bff);  // just below 65504 + ulp/2
    CHECK(T(65519.999999).to_bits() == 0x7bff);
    CHECK(T(1e10f).to_bits() == 0x7c00);
    CHECK(T(1e-30f).to_bits() == 0x0000);
    CHECK(T(-1e-30).to_bits() == 0x8000);
  } else {
    CHECK(T(float_from(0x7f7f7fffu)).to_bits() == 0x7f7f);  // just below max + ulp/2
    CHECK(T(float_from(0x7f7f8000u)).to_bits() == 0x7f80);  // the tie itself -> Inf
    CHECK(T(std::ldexp(255.0, 120)).to_bits() == 0x7f7f);  // max = (2 - 2^-7) * 2^127
    CHECK(T(float_from(0x007fffffu)).to_bits() == 0x0080);  // largest float subnormal -> min normal
    CHECK(T(float_from(0x7fa00000u)).to_bits() == 0x7fe0);  // signalling: payload kept, quieted
  }
}

TEST_CASE_TEMPLATE("16-bit float from integers, 64-bit ones rounded once", F, HalfTraits, BFloat16Traits) {
  using T = typename F::type;
  CHECK(T(0).to_bits() == 0x0000);
  CHECK(T(1).to_bits() == F::one);
  CHECK(T(-2).to_bits() == 0xc000);
  CHECK(T(F::int_tie).to_bits() == F::int_tie_bits);
  CHECK(T(F::int_tie + 2).to_bits() == F::next_int_tie_bits);
  CHECK(T(std::size_t{3}).to_bits() == F::three);
  CHECK(T(static_cast<std::uint8_t>(255)).to_bits() == F::uint8_max_bits);
  CHECK(T(std::numeric_limits<std::int64_t>::min()).to_bits() == F::int64_min_bits);
  CHECK(T(std::numeric_limits<std::int64_t>::max()).to_bits() == F::int64_max_bits);
  CHECK(T(std::numeric_limits<std::uint64_t>::max()).to_bits() == F::uint64_max_bits);
  if constexpr (std::is_same_v<T, kt::half>) {
    CHECK(T(65519).to_bits() == 0x7bff);
    CHECK(T(65520).to_bits() == 0x7c00);
  } else {
    // 2^60 + 2^52 is the tie between 2^60 (0x5d80) and 2^60 + 2^53 (0x5d81). One above it
    // rounds up; converting to double first would land on the tie and go down to even.
    const std::int64_t two60 = std::int64_t(1) << 60, two52 = std::int64_t(1) << 52;
    CHECK(T(two60 + two52).to_bits() == 0x5d80);
    CHECK(T(two60 + two52 + 1).to_bits() == 0x5d81);
    CHECK(T(two60 + two52 - 1).to_bits() == 0x5d80);
    CHECK(T(two60 + 3 * two52).to_bits() == 0x5d82);
    CHECK(T(-(two60 + two52 + 1)).to_bits() == 0xdd81);
    CHECK(T(std::uint64_t(two60 + two52 + 1)).to_bits() == 0x5d81);
  }
  Mismatches<F> m;
  for (int i = -70000; i <= 70000; ++i)
    m.compare(T(i).to_bits(), F::ref_from(static_cast<double>(i)), static_cast<std::uint64_t>(i));
#if LDBL_MANT_DIG >= 64
  // Against the nearest-value reference in long double (exact for 64-bit integers): random
  // magnitudes, and the ties, one either side, at every bit length.
  for (std::uint64_t k = 0; k < 200000; ++k) {
    const std::uint64_t r = splitmix64(k);
    const auto u = r >> (splitmix64(~k) % 64);
    const auto s = static_cast<std::int64_t>(u >> 1) * ((k & 1) ? -1 : 1);
    m.compare(T(u).to_bits(), ref_nearest<F>(static_cast<long double>(u)), u);
    m.compare(T(s).to_bits(), ref_nearest<F>(static_cast<long double>(s)), static_cast<std::uint64_t>(s));
  }
  constexpr int M = F::mantissa_bits;
  for (int len = M + 3; len <= 64; ++len) {
    const std::uint64_t base = std::uint64_t(1) << (len - 1), ulp = base >> M;
    for (std::uint64_t k : {std::uint64_t(0), std::uint64_t(1), std::uint64_t(1) << (M - 1), (std::uint64_t(1) << M) - 1}) {
      const std::uint64_t tie = base + k * ulp + ulp / 2;
      for (std::uint64_t u : {tie - 1, tie, tie + 1}) m.compare(T(u).to_bits(), ref_nearest<F>(static_cast<long double>(u)), u);
    }
  }
#endif
  INFO(m.first);
  CHECK(m.count == 0);
}

TEST_CASE_TEMPLATE("16-bit float arithmetic, mixed expressions and casts", F, HalfTraits, BFloat16Traits) {
  using T = typename F::type;
  const T one = 1, two = 2.0f, three = 3.0;
  CHECK((one + two).to_bits() == F::three);
  CHECK((one - two).to_bits() == (F::one | 0x8000));
  CHECK((two * three).to_bits() == F::six);
  CHECK((one / three).to_bits() == F::third);
  CHECK((-two).to_bits() == 0xc000);
  CHECK((+two).to_bits() == 0x4000);
  CHECK((-T(0.0f)).to_bits() == 0x8000);
  CHECK((T(F::int_tie - 1) + one).to_bits() == F::int_tie_bits);  // ties to even
  CHECK((std::numeric_limits<T>::max() * two).to_bits() == F::inf);
  CHECK(kt::isnan(T(0.0f) / T(0.0f)));
  CHECK((one / T(0.0f)).to_bits() == F::inf);
  CHECK((one / T(-0.0f)).to_bits() == (F::inf | 0x8000));
  // Mixed: T op float -> float, T op double -> double, T op integer -> T.
  const T h = 0.1f;  // F::tenth
  CHECK(h * 2.0f == static_cast<float>(2 * F::tenth));
  CHECK(2.0f * h == static_cast<float>(2 * F::tenth));
  CHECK(h * 0.5 == F::tenth / 2);
  CHECK((h + 1).to_bits() == T(1 + F::tenth).to_bits());
  CHECK((h + 1).to_bits() == F::one_plus_tenth);
  CHECK((1 - h).to_bits() == F::one_minus_tenth);
  CHECK((h * 3u).to_bits() == F::three_tenths);
  CHECK((T(7) / 2).to_bits() == F::three_and_half);
  T a = 1;
  a += 1;
  CHECK(a.to_bits() == 0x4000);
  a *= 1.5f;
  CHECK(a.to_bits() == F::three);
  a -= 0.5;
  CHECK(a.to_bits() == F::two_and_half);
  a /= T(2);
  CHECK(a.to_bits() == F::one_and_quarter);
  a += h;
  CHECK(a.to_bits() == T(1.25f + static_cast<float>(F::tenth)).to_bits());
  // Explicit casts are unambiguous.
  CHECK(static_cast<int>(T(-2.75f)) == -2);
  CHECK(static_cast<double>(h) == F::tenth);
  CHECK(static_cast<std::int64_t>(T(static_cast<float>(F::exact_big_int))) == F::exact_big_int);
  CHECK(static_cast<bool>(T(0.5f)));
  CHECK(!static_cast<bool>(T(-0.0f)));
  const double d = h;  // implicit via float: exact
  CHECK(d == F::tenth);
  if constexpr (std::is_same_v<T, kt::half>) {
    CHECK(static_cast<std::int64_t>(T(65504)) == 65504);
    CHECK((T(65504) + T(8)).to_bits() == 0x7bff);   // 65512
    CHECK((T(65504) + T(16)).to_bits() == 0x7c00);  // 65520 -> Inf
  }
}

TEST_CASE_TEMPLATE("16-bit float comparisons", F, HalfTraits, BFloat16Traits) {
  using T = typename F::type;
  const T nan = std::numeric_limits<T>::quiet_NaN(), one = 1, two = 2;
  CHECK(one < two);
  CHECK(one <= two);
  CHECK(two > one);
  CHECK(two >= two);
  CHECK(one != two);
  CHECK(one == T(1.0));
  CHECK(T(0.0f) == T(-0.0f));
  CHECK_FALSE(T(0.0f) < T(-0.0f));
  CHECK_FALSE(nan == nan);
  CHECK(nan != nan);
  CHECK_FALSE(nan < one);
  CHECK_FALSE(nan > one);
  CHECK_FALSE(nan >= one);
  CHECK_FALSE(nan <= nan);
  CHECK(-std::numeric_limits<T>::infinity() < std::numeric_limits<T>::lowest());
  // Mixed with numbers.
  CHECK(one == 1);
  CHECK(1 == one);
  CHECK(one < 1.5f);
  CHECK(2.5 > two);
  CHECK(two >= 2u);
  CHECK(T(F::inexact_value) == F::inexact_int);  // the integer is converted to T first
  CHECK(T(F::inexact_value) < static_cast<double>(F::inexact_int));  // a double is not
  CHECK(T(0.1f) != 0.1f);
}

TEST_CASE_TEMPLATE("16-bit float classification and numeric_limits", F, HalfTraits, BFloat16Traits) {
  using T = typename F::type;
  using L = std::numeric_limits<T>;
  static_assert(L::is_specialized && L::is_signed && !L::is_integer && L::is_iec559 == F::is_iec559);
  static_assert(L::digits == F::digits && L::radix == 2 && L::has_infinity && L::has_quiet_NaN);
  static_assert(L::max().to_bits() == F::max && L::lowest().to_bits() == (F::max | 0x8000));
  static_assert(std::numeric_limits<const T>::max().to_bits() == F::max);
  CHECK(static_cast<double>(L::max()) == F::max_value);
  CHECK(static_cast<float>(L::lowest()) == static_cast<float>(-F::max_value));
  CHECK(static_cast<double>(L::min()) == F::min_value);
  CHECK(static_cast<double>(L::denorm_min()) == std::ldexp(1.0, F::denorm_min_exponent));
  CHECK(static_cast<double>(L::epsilon()) == std::ldexp(1.0, 1 - L::digits));
  CHECK(T::from_bits(F::one + 1) - T(1) == L::epsilon());
  CHECK(static_cast<float>(L::round_error()) == 0.5f);
  CHECK(static_cast<double>(L::max()) == (2 - std::ldexp(1.0, 1 - L::digits)) * std::ldexp(1.0, L::max_exponent - 1));
  CHECK(static_cast<double>(L::min()) == std::ldexp(1.0, L::min_exponent - 1));
  CHECK(std::pow(10.0, L::max_exponent10) <= F::max_value);
  CHECK(std::pow(10.0, L::max_exponent10 + 1) > F::max_value);
  CHECK(std::pow(10.0, L::min_exponent10) >= F::min_value);
  CHECK(std::pow(10.0, L::min_exponent10 - 1) < F::min_value);
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
    const T x = T::from_bits(static_cast<std::uint16_t>(i));
    const float f = x;
    bad += kt::isnan(x) != std::isnan(f) || kt::isinf(x) != std::isinf(f) || kt::isfinite(x) != std::isfinite(f);
  }
  CHECK(bad == 0);
}

TEST_CASE_TEMPLATE("16-bit float printing", F, HalfTraits, BFloat16Traits) {
  using T = typename F::type;
  const auto str = [](T x) {
    std::ostringstream os;
    os << x;
    return os.str();
  };
  CHECK(str(T(0.5f)) == "0.5");
  CHECK(str(T(-2)) == "-2");
  CHECK(str(T(3.14159f)) == "3.14062");  // 3.140625 in both formats
  CHECK(str(T(0.1f)) == F::tenth_string);
  CHECK(str(std::numeric_limits<T>::max()) == F::max_string);
  CHECK(str(T(-0.0f)) == "-0");
  CHECK(str(-T(0.0f)) == "-0");
  CHECK(str(std::numeric_limits<T>::infinity()) == "inf");
  CHECK(str(-std::numeric_limits<T>::infinity()) == "-inf");
}

TEST_CASE_TEMPLATE("16-bit float conversions inside kernels match the host bit for bit", C, KT_CASES(kt::half),
                   KT_CASES(kt::bfloat16)) {
  using D = typename C::device;
  using T = typename C::dtype;
  using F = traits_of<T>;
  using mem = typename D::memory_space;
  const std::vector<float> floats = boundary_values<F, float>();
  const std::vector<double> doubles = boundary_values<F, double>();
  const auto nf = static_cast<int>(floats.size()), nd = static_cast<int>(doubles.size());
  const std::uint16_t partner = F::kernel_partner;

  Kokkos::View<float*, Kokkos::HostSpace> floats_h("floats", floats.size());
  Kokkos::View<double*, Kokkos::HostSpace> doubles_h("doubles", doubles.size());
  std::memcpy(floats_h.data(), floats.data(), floats.size() * sizeof(float));
  std::memcpy(doubles_h.data(), doubles.data(), doubles.size() * sizeof(double));
  auto floats_d = Kokkos::create_mirror_view_and_copy(mem(), floats_h);
  auto doubles_d = Kokkos::create_mirror_view_and_copy(mem(), doubles_h);

  Kokkos::View<std::uint32_t*, mem> to_float("to_float", 65536);
  Kokkos::View<std::uint16_t*, mem> round_trip("round_trip", 65536), sum("sum", 65536),
      from_float("from_float", floats.size()), from_double("from_double", doubles.size());
  Kokkos::View<T*, mem> zeros("zeros", 65536);
  Kokkos::View<int*, mem> flags("flags", 65536);
  const int n = std::max({65536, nf, nd});
  Kokkos::parallel_for(
      "kt::test::float16_kernel", Kokkos::RangePolicy<D, Kokkos::IndexType<int>>(0, n), KOKKOS_LAMBDA(const int i) {
        if (i < 65536) {
          const T x = T::from_bits(static_cast<std::uint16_t>(i));
          const float f = x;
          to_float(i) = kt::impl::bit_cast<std::uint32_t>(f);
          round_trip(i) = T(f).to_bits();
          sum(i) = (x * T::from_bits(static_cast<std::uint16_t>(i ^ partner)) + 1).to_bits();
          flags(i) = (kt::isnan(x) ? 1 : 0) | (kt::isinf(x) ? 2 : 0) | (kt::isfinite(x) ? 4 : 0) |
                     (zeros(i).to_bits() == 0 ? 8 : 0);
        }
        if (i < nf) from_float(i) = T(floats_d(i)).to_bits();
        if (i < nd) from_double(i) = T(doubles_d(i)).to_bits();
      });
  Kokkos::fence();
  const auto to_float_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), to_float);
  const auto round_trip_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), round_trip);
  const auto sum_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sum);
  const auto flags_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), flags);
  const auto from_float_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), from_float);
  const auto from_double_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), from_double);

  Mismatches<F> m;
  for (std::uint32_t i = 0; i < 65536; ++i) {
    const T x = T::from_bits(static_cast<std::uint16_t>(i));
    const float f = x;
    if (to_float_h(i) != bits_of(f) && m.count++ == 0) m.first = "to float " + hex(i);
    if (round_trip_h(i) != T(f).to_bits() && m.count++ == 0) m.first = "round trip " + hex(i);
    // Arithmetic on a NaN gives a NaN whose payload and sign the hardware picks (x86 keeps the
    // operand's, a GPU returns its canonical NaN): NaN results match as NaNs.
    const T want = x * T::from_bits(static_cast<std::uint16_t>(i ^ partner)) + 1, got = T::from_bits(sum_h(i));
    if (got.to_bits() != want.to_bits() && !(kt::isnan(got) && kt::isnan(want)) && m.count++ == 0)
      m.first = "arithmetic " + hex(i);
    const int flag = (kt::isnan(x) ? 1 : 0) | (kt::isinf(x) ? 2 : 0) | (kt::isfinite(x) ? 4 : 0) | 8;
    if (flags_h(i) != flag && m.count++ == 0) m.first = "classification/zero-init " + hex(i);
  }
  for (int i = 0; i < nf; ++i)
    if (from_float_h(i) != T(floats[static_cast<std::size_t>(i)]).to_bits() && m.count++ == 0)
      m.first = "from float " + hex(bits_of(floats[static_cast<std::size_t>(i)]));
  for (int i = 0; i < nd; ++i)
    if (from_double_h(i) != T(doubles[static_cast<std::size_t>(i)]).to_bits() && m.count++ == 0)
      m.first = "from double " + hex(bits_of(doubles[static_cast<std::size_t>(i)]));
  INFO(m.first);
  CHECK(m.count == 0);
}
