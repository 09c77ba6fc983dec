// kt::read_idx against hostile files: size claims the data does not back, element values the
// target dtype cannot hold, rank and empty-dimension policy, damaged or extended gzip streams,
// and paths that would flood or corrupt a message. Every case checks the kt::Error's exact
// message prefix.

#include "data_test_files.hpp"
#include "kt_test.hpp"

#include <kt/data/idx.hpp>

#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <sys/resource.h>

#if defined(__SANITIZE_ADDRESS__)
#define KT_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KT_TEST_ASAN 1
#endif
#endif

namespace {

using Bytes = std::vector<unsigned char>;

/// True when `message` starts with `prefix` (and says what it was otherwise).
bool starts_with(const std::string& message, const std::string& prefix) {
  const bool ok = message.compare(0, prefix.size(), prefix) == 0;
  if (!ok) MESSAGE("message: ", message, "\nexpected prefix: ", prefix);
  return ok;
}

/// "kt::read_idx: '<path>': " -- how every message about a file's content starts.
std::string about(const std::string& path, const char* who = "kt::read_idx") {
  return std::string(who) + ": '" + path + "': ";
}

void put_be(Bytes& out, std::uint64_t v, int bytes) {
  for (int s = 8 * (bytes - 1); s >= 0; s -= 8) out.push_back(static_cast<unsigned char>(v >> s));
}
/// `values` as big-endian `Stored` elements (int8 ... double), the IDX data layout.
template <class Stored, class V>
Bytes be(std::initializer_list<V> values) {
  Bytes out;
  for (V v : values) {
    const auto stored = static_cast<Stored>(v);
    std::uint64_t bits = 0;
    std::memcpy(&bits, &stored, sizeof(Stored));  // the low bytes on a little-endian host
    put_be(out, bits, static_cast<int>(sizeof(Stored)));
  }
  return out;
}
Bytes be_int8(std::initializer_list<int> values) { return be<std::int8_t>(values); }
Bytes be_int16(std::initializer_list<int> values) { return be<std::int16_t>(values); }
Bytes be_int32(std::initializer_list<std::int64_t> values) { return be<std::int32_t>(values); }
Bytes be_float32(std::initializer_list<float> values) { return be<float>(values); }
Bytes be_float64(std::initializer_list<double> values) { return be<double>(values); }

/// `data` as one gzip member, in memory (zlib's deflate with the gzip wrapper).
Bytes gzip_bytes(const Bytes& data) {
  z_stream zs{};
  REQUIRE(deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  Bytes out(deflateBound(&zs, static_cast<uLong>(data.size())) + 64);
  zs.next_in = const_cast<Bytef*>(data.data());
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = out.data();
  zs.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&zs, Z_FINISH) == Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

Bytes concat(Bytes a, const Bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

/// Writes `bytes` to a scratch file named `name` and returns its path.
std::string file_of(const std::string& name, const Bytes& bytes) {
  const auto path = kt_test::scratch_path(name);
  kt_test::write_bytes(path, bytes);
  return path;
}

Bytes pattern(std::size_t n) {
  Bytes v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<unsigned char>((i * 7 + i / 251) % 256);
  return v;
}

// ---- memory: the process's peak resident set over a call ---------------------------------

long status_kb(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string key = std::string(field) + ":";
  while (std::getline(in, line))
    if (line.compare(0, key.size(), key) == 0) return std::stol(line.substr(key.size()));
  return -1;
}

/// How much the peak resident set grew (KiB) while `f` ran. Linux: the peak (VmHWM) is reset
/// to the current resident set first (/proc/self/clear_refs "5"), so the result is exact;
/// elsewhere getrusage's ru_maxrss (a high-water mark since the start: a lower bound).
template <class F>
long peak_rss_growth_kb(F&& f) {
  bool reset = false;
  {
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
    clear.flush();
    reset = clear.good();
  }
  const long rss_before = status_kb("VmRSS");
  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  f();
  if (reset && rss_before >= 0 && status_kb("VmHWM") >= 0) return status_kb("VmHWM") - rss_before;
  rusage after{};
  getrusage(RUSAGE_SELF, &after);
  return after.ru_maxrss - before.ru_maxrss;
}

}  // namespace

// ============================================================================================
// 1. Size claims
// ============================================================================================

TEST_CASE("read_idx rejects size claims over IdxOptions::max_bytes before allocating anything") {
  CHECK(kt::IdxOptions().max_bytes() == std::int64_t{1} << 31);  // 2 GiB by default

  SUBCASE("a gzip file claiming 3 GiB") {
    const auto path = file_of("claim_3g.idx.gz", gzip_bytes(kt_test::idx_bytes(0x08, {3, 1024, 1048576}, pattern(100))));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(path); }),
                      about(path) + "the header declares uint8 (3, 1024, 1048576) = 3221225472 data bytes from byte "
                                    "offset 16, over the limit of 2147483648 bytes (raise it with "
                                    "kt::IdxOptions().max_bytes(n))"));
  }
  SUBCASE("a gzip file claiming 1 TiB, read as float") {
    const auto path = file_of("claim_1t.idx.gz", gzip_bytes(kt_test::idx_bytes(0x08, {1024, 1024, 1024, 1024}, pattern(10))));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx_float(path); }),
                      about(path, "kt::read_idx_float") +
                          "the header declares uint8 (1024, 1024, 1024, 1024) = 1099511627776 data bytes from byte "
                          "offset 20, over the limit of 2147483648 bytes"));
  }
  SUBCASE("one byte over the default cap, and float64 elements counted as 8 bytes") {
    const auto one = file_of("claim_cap_plus_1.idx.gz", gzip_bytes(kt_test::idx_bytes(0x08, {2147483649u}, pattern(10))));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(one); }),
                      about(one) + "the header declares uint8 (2147483649) = 2147483649 data bytes from byte offset 8, "
                                   "over the limit of 2147483648 bytes"));
    const auto wide = file_of("claim_f64.idx.gz", gzip_bytes(kt_test::idx_bytes(0x0E, {268435457u}, pattern(16))));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx<double>(wide); }),
                      about(wide) + "the header declares float64 (268435457) = 2147483656 data bytes from byte "
                                    "offset 8, over the limit of 2147483648 bytes"));
    // exactly the cap is allowed: the (lying) claim then fails on the missing data
    const auto exact = file_of("claim_cap.idx.gz", gzip_bytes(kt_test::idx_bytes(0x08, {2147483648u}, pattern(10))));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(exact); }),
                      about(exact) + "truncated file: the header declares uint8 (2147483648) = 2147483648 data bytes "
                                     "from byte offset 8 but the data ends at byte offset 18"));
  }
  SUBCASE("a claim that overflows 64 bits") {
    const std::vector<std::uint32_t> dims(6, 0xFFFFFFFFu);
    const auto path = file_of("claim_overflow.idx.gz", gzip_bytes(kt_test::idx_bytes(0x0C, dims, pattern(4))));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx<std::int32_t>(path, kt::IdxOptions().max_bytes(
                                                                                 std::numeric_limits<std::int64_t>::max())); }),
                      about(path) + "the header declares int32 (4294967295, 4294967295, 4294967295, 4294967295, "
                                    "4294967295, 4294967295) = more than 9223372036854775807 data bytes from byte "
                                    "offset 28, over the limit of 9223372036854775807 bytes"));
  }
  SUBCASE("a custom cap, plain and gzip, one byte over and exactly at it") {
    const auto bytes = kt_test::idx_bytes(0x08, {10, 100}, pattern(1000));
    const auto plain = file_of("cap1000.idx", bytes), gz = file_of("cap1000.idx.gz", gzip_bytes(bytes));
    for (const auto& path : {plain, gz}) {
      CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(path, kt::IdxOptions().max_bytes(999)); }),
                        about(path) + "the header declares uint8 (10, 100) = 1000 data bytes from byte offset 12, "
                                      "over the limit of 999 bytes"));
      CHECK(kt::read_idx(path, kt::IdxOptions().max_bytes(1000)).to_vector() == pattern(1000));
    }
    CHECK(starts_with(kt_test::error_of([&] { kt::IdxOptions().max_bytes(-1); }),
                      "kt::IdxOptions::max_bytes: must be non-negative, got -1"));
  }
}

TEST_CASE("read_idx: a lying gzip header costs memory proportional to the real data") {
  // 8 MiB of real data behind headers claiming 3 GiB and 1 TiB, with the cap raised so the
  // claims get through: the reader must fail on the missing data without ever allocating
  // (or touching) memory in proportion to the claim.
  const auto real = pattern(std::size_t{8} << 20);
  const auto three_g = file_of("lying_3g.idx.gz", gzip_bytes(kt_test::idx_bytes(0x08, {3, 1024, 1048576}, real)));
  const auto one_t = file_of("lying_1t.idx.gz", gzip_bytes(kt_test::idx_bytes(0x08, {1024, 1024, 1024, 1024}, real)));
  const auto options = kt::IdxOptions().max_bytes(std::int64_t{2} << 40);
  std::string m1, m2, m3;
  const long vm_peak_before = status_kb("VmPeak");
  const long grown_kb = peak_rss_growth_kb([&] {
    m1 = kt_test::error_of([&] { kt::read_idx(three_g, options); });             // uint8: straight copy
    m2 = kt_test::error_of([&] { kt::read_idx<std::int64_t>(one_t, options); });  // int64: 8x the claim
    m3 = kt_test::error_of([&] { kt::read_idx_float(one_t, options); });
  });
  const long vm_peak_after = status_kb("VmPeak");
  CHECK(starts_with(m1, about(three_g) + "truncated file: the header declares uint8 (3, 1024, 1048576) = 3221225472 "
                                         "data bytes from byte offset 16 but the data ends at byte offset 8388624"));
  CHECK(starts_with(m2, about(one_t) + "truncated file: the header declares uint8 (1024, 1024, 1024, 1024) = "
                                       "1099511627776 data bytes from byte offset 20 but the data ends at byte offset "
                                       "8388628"));
  CHECK(starts_with(m3, about(one_t, "kt::read_idx_float") + "truncated file: the header declares uint8"));
  INFO("peak resident set grew by ", grown_kb, " KiB for 3 reads of 8 MiB of data behind 3 GiB / 1 TiB claims");
  CHECK(grown_kb < 256 * 1024);
#if defined(KT_TEST_ASAN)
  // AddressSanitizer reserves terabytes of shadow memory: the virtual size says nothing.
  (void)vm_peak_before;
  (void)vm_peak_after;
#else
  // The virtual peak cannot be reset, but reserving a claim (3 GiB, let alone 1 TiB) would
  // push it up by gigabytes even if the pages were never touched.
  if (vm_peak_before >= 0 && vm_peak_after >= 0) CHECK(vm_peak_after - vm_peak_before < 1024 * 1024);
#endif
}

TEST_CASE("read_idx reads an honest gzip file larger than its first buffer exactly") {
  // 5 MiB of int16 and uint8 data: the growing buffer reallocates several times.
  const auto data = pattern(std::size_t{5} << 20);
  const auto u8 = file_of("honest_u8.idx.gz", gzip_bytes(kt_test::idx_bytes(0x08, {5, 1024, 1024}, data)));
  auto t = kt::read_idx(u8);
  CHECK(t.shape() == kt::Shape{5, 1024, 1024});
  CHECK(t.to_vector() == data);
  const auto i16 = file_of("honest_i16.idx.gz", gzip_bytes(kt_test::idx_bytes(0x0B, {5, 512, 1024}, data)));
  const auto v = kt::read_idx<std::int32_t>(i16).to_vector();
  REQUIRE(v.size() == data.size() / 2);
  bool same = true;
  for (std::size_t k = 0; k < v.size(); ++k)
    same = same && v[k] == static_cast<std::int16_t>(static_cast<std::uint16_t>((data[2 * k] << 8) | data[2 * k + 1]));
  CHECK(same);
}

// ============================================================================================
// 2. Conversions
// ============================================================================================

TEST_CASE("read_idx rejects element values the target dtype cannot hold and names the element") {
  SUBCASE("int8 -> uint8: a negative value") {
    const auto path = file_of("i8.idx", kt_test::idx_bytes(0x09, {4}, be_int8({1, 127, -1, 5})));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(path); }),
                      about(path) + "element 2 at byte offset 10: int8 value -1 is out of range for uint8"));
    CHECK(kt::read_idx<std::int32_t>(path).to_vector() == std::vector<std::int32_t>{1, 127, -1, 5});
  }
  SUBCASE("int16 -> uint8: 300, and 256 just over; 255 fits") {
    const auto path = file_of("i16.idx.gz", gzip_bytes(kt_test::idx_bytes(0x0B, {2, 2}, be_int16({0, 255, 7, 300}))));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(path); }),
                      about(path) + "element 3 at byte offset 18: int16 value 300 is out of range for uint8"));
    const auto edge = file_of("i16_256.idx", kt_test::idx_bytes(0x0B, {2}, be_int16({255, 256})));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(edge); }),
                      about(edge) + "element 1 at byte offset 10: int16 value 256 is out of range for uint8"));
  }
  SUBCASE("float32 NaN and inf -> int64, 2.5 -> int32") {
    const auto path = file_of("nan.idx", kt_test::idx_bytes(0x0D, {3}, be_float32({1.0f, std::nanf(""), 2.0f})));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx<std::int64_t>(path); }),
                      about(path) + "element 1 at byte offset 12: float32 value nan is not a finite number, which "
                                    "cannot convert to int64"));
    const auto inf = file_of("inf.idx.gz", gzip_bytes(kt_test::idx_bytes(
                                               0x0D, {2}, be_float32({-std::numeric_limits<float>::infinity(), 0}))));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx<std::int64_t>(inf); }),
                      about(inf) + "element 0 at byte offset 8: float32 value -inf is not a finite number"));
    const auto half = file_of("half.idx", kt_test::idx_bytes(0x0E, {2}, be_float64({3.0, 2.5})));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx<std::int32_t>(half); }),
                      about(half) + "element 1 at byte offset 16: float64 value 2.5 is not an integer, which cannot "
                                    "convert to int32"));
  }
  SUBCASE("integer range edges: int32 -5 -> uint8, float64 3e9 -> int32, 2^63 -> int64") {
    const auto neg = file_of("i32neg.idx", kt_test::idx_bytes(0x0C, {1, 1}, be_int32({-5})));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(neg); }),
                      about(neg) + "element 0 at byte offset 12: int32 value -5 is out of range for uint8"));
    const auto big = file_of("f64big.idx", kt_test::idx_bytes(0x0E, {2}, be_float64({2147483647.0, 3e9})));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx<std::int32_t>(big); }),
                      about(big) + "element 1 at byte offset 16: float64 value 3e+09 is out of range for int32"));
    CHECK(kt::read_idx<std::int64_t>(big).to_vector() == std::vector<std::int64_t>{2147483647, 3000000000});
    const auto p63 = file_of("f64p63.idx", kt_test::idx_bytes(0x0E, {2}, be_float64({-9223372036854775808.0,
                                                                                     9223372036854775808.0})));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx<std::int64_t>(p63); }),
                      about(p63) + "element 1 at byte offset 16: float64 value 9223372036854775808 is out of range "
                                   "for int64"));
  }
  SUBCASE("floating targets: float64 1e300 -> float32, int32 100000 -> float16, a scale that overflows") {
    const auto path = file_of("f64huge.idx.gz", gzip_bytes(kt_test::idx_bytes(0x0E, {3}, be_float64({1.0, -1e300, 0}))));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx<float>(path); }),
                      about(path) + "element 1 at byte offset 16: float64 value -1e+300 is out of range for float32"));
    CHECK(kt::read_idx<double>(path).to_vector()[1] == -1e300);
    const auto ints = file_of("i32half.idx", kt_test::idx_bytes(0x0C, {2}, be_int32({65504, 100000})));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx<kt::half>(ints); }),
                      about(ints) + "element 1 at byte offset 12: int32 value 100000 is out of range for float16"));
    const auto u8 = file_of("u8scale.idx", kt_test::idx_bytes(0x08, {2}, {0, 200}));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx_float(u8, 1e38); }),
                      about(u8, "kt::read_idx_float") + "element 1 at byte offset 9: uint8 value 200 times the scale "
                                                        "1e+38 is out of range for float32"));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx_float(u8, std::nan("")); }),
                      "kt::read_idx_float: the scale must be finite, got nan"));
  }
  SUBCASE("what still converts: NaN and inf stay themselves in floating targets, underflow rounds") {
    const auto path = file_of("specials.idx", kt_test::idx_bytes(0x0E, {4}, be_float64({std::nan(""),
                                                                                        std::numeric_limits<double>::infinity(),
                                                                                        1e-300, -0.5})));
    const auto f = kt::read_idx<float>(path).to_vector();
    CHECK(std::isnan(f[0]));
    CHECK(f[1] == std::numeric_limits<float>::infinity());
    CHECK(f[2] == 0.0f);
    CHECK(f[3] == -0.5f);
    const auto i8 = file_of("i8ok.idx", kt_test::idx_bytes(0x09, {3}, be_int8({-128, 0, 127})));
    const auto b = kt::read_idx<kt::bfloat16>(i8).to_vector();
    CHECK(static_cast<float>(b[0]) == -128.0f);
    CHECK(static_cast<float>(b[2]) == 127.0f);
  }
}

// ============================================================================================
// 3. Policy: rank, empty dimensions, what may follow a gzip member, the CRC
// ============================================================================================

TEST_CASE("read_idx with IdxOptions().rank(r) rejects files of another rank") {
  const auto rank2 = file_of("rank2.idx", kt_test::idx_bytes(0x08, {6, 4}, pattern(24)));
  const auto rank1 = file_of("rank1.idx.gz", gzip_bytes(kt_test::idx_bytes(0x08, {24}, pattern(24))));
  const auto rank4 = file_of("rank4.idx", kt_test::idx_bytes(0x08, {1, 2, 3, 4}, pattern(24)));
  SUBCASE("2 where 3 is required") {
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(rank2, kt::IdxOptions().rank(3)); }),
                      about(rank2) + "the header declares rank 2 at byte offset 3, but rank 3 is required "
                                     "(kt::IdxOptions().rank(3))"));
  }
  SUBCASE("1 where 2 is required (gzip, read as float)") {
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx_float(rank1, kt::IdxOptions().rank(2)); }),
                      about(rank1, "kt::read_idx_float") + "the header declares rank 1 at byte offset 3, but rank 2 is "
                                                           "required"));
  }
  SUBCASE("4 where 3 is required") {
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx<std::int64_t>(rank4, kt::IdxOptions().rank(3)); }),
                      about(rank4) + "the header declares rank 4 at byte offset 3, but rank 3 is required"));
  }
  SUBCASE("the right rank reads; rank(0) accepts any; invalid ranks are refused") {
    CHECK(kt::read_idx(rank2, kt::IdxOptions().rank(2)).shape() == kt::Shape{6, 4});
    CHECK(kt::read_idx(rank4, kt::IdxOptions().rank(0)).shape() == kt::Shape{1, 2, 3, 4});
    CHECK(kt::read_idx_float(rank1, 0.5, kt::IdxOptions().rank(1)).shape() == kt::Shape{24});
    CHECK(starts_with(kt_test::error_of([&] { kt::IdxOptions().rank(7); }),
                      "kt::IdxOptions::rank: must be 0 (any) or 1 to 6, got 7"));
    CHECK(starts_with(kt_test::error_of([&] { kt::IdxOptions().rank(-1); }),
                      "kt::IdxOptions::rank: must be 0 (any) or 1 to 6, got -1"));
  }
}

TEST_CASE("read_idx rejects zero dimensions unless IdxOptions().allow_empty(true)") {
  const auto first = file_of("zero_first.idx", kt_test::idx_bytes(0x08, {0, 28, 28}, {}));
  const auto middle = file_of("zero_middle.idx.gz", gzip_bytes(kt_test::idx_bytes(0x0C, {5, 0, 3}, {})));
  const auto last = file_of("zero_last.idx", kt_test::idx_bytes(0x0D, {7, 0}, {}));
  SUBCASE("first") {
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(first); }),
                      about(first) + "dimension 0 is 0 at byte offset 4: the header declares an empty tensor "
                                     "(kt::IdxOptions().allow_empty(true) accepts one)"));
  }
  SUBCASE("middle") {
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx<std::int32_t>(middle); }),
                      about(middle) + "dimension 1 is 0 at byte offset 8: the header declares an empty tensor"));
  }
  SUBCASE("last") {
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx_float(last); }),
                      about(last, "kt::read_idx_float") + "dimension 1 is 0 at byte offset 8: the header declares an "
                                                          "empty tensor"));
  }
  SUBCASE("allowed") {
    const auto empty = kt::IdxOptions().allow_empty(true);
    CHECK(kt::read_idx(first, empty).shape() == kt::Shape{0, 28, 28});
    CHECK(kt::read_idx<std::int32_t>(middle, empty).shape() == kt::Shape{5, 0, 3});
    CHECK(kt::read_idx_float(last, empty).shape() == kt::Shape{7, 0});
    // empty, yet with data behind it: the size check still applies
    const auto extra = file_of("zero_extra.idx", kt_test::idx_bytes(0x08, {0, 4}, {1, 2}));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(extra, empty); }),
                      about(extra) + "the header declares uint8 (0, 4) = 0 data bytes from byte offset 12 (12 bytes in "
                                     "all) but the file has 14 bytes (wrong dimensions or trailing data)"));
    // huge nonzero extents next to a zero one
    const auto wild = file_of("zero_wild.idx", kt_test::idx_bytes(0x08, {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0}, {}));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(wild, empty); }),
                      about(wild) + "the header declares uint8 (4294967295, 4294967295, 4294967295, 0), whose nonzero "
                                    "dimensions overflow 64-bit sizes"));
  }
}

TEST_CASE("read_idx rejects anything after the gzip member and reports a bad trailer at the end of the stream") {
  const auto payload = pattern(3000);
  const auto member = gzip_bytes(kt_test::idx_bytes(0x08, {30, 100}, payload));
  const auto end = std::to_string(member.size());
  REQUIRE(member.size() > 20);
  SUBCASE("junk bytes after the member") {
    const auto path = file_of("junk.idx.gz", concat(member, {'j', 'u', 'n', 'k', '!'}));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(path); }),
                      about(path) + "trailing data after the gzip stream: 5 unexpected bytes from compressed byte "
                                    "offset " + end + " to the end of the file (a gzip file ends with its 8-byte "
                                    "trailer)"));
  }
  SUBCASE("one zero byte of padding") {
    const auto path = file_of("pad.idx.gz", concat(member, {0}));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx_float(path); }),
                      about(path, "kt::read_idx_float") + "trailing data after the gzip stream: 1 unexpected byte "
                                                          "from compressed byte offset " + end));
  }
  SUBCASE("a second gzip member after a complete file") {
    const auto path = file_of("two_members.idx.gz", concat(member, gzip_bytes(pattern(10))));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(path); }),
                      about(path) + "a second gzip member starts at compressed byte offset " + end + ", where the first "
                                    "one ends (kt reads single-member gzip files"));
  }
  SUBCASE("the data split over two members (what `cat a.gz b.gz` makes)") {
    const auto whole = kt_test::idx_bytes(0x08, {30, 100}, payload);
    const auto head = gzip_bytes(Bytes(whole.begin(), whole.begin() + 1000));
    const auto path = file_of("split_members.idx.gz", concat(head, gzip_bytes(Bytes(whole.begin() + 1000, whole.end()))));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(path); }),
                      about(path) + "a second gzip member starts at compressed byte offset " +
                          std::to_string(head.size()) + ", where the first one ends"));
  }
  SUBCASE("a bad CRC-32, reported where the trailer is") {
    for (std::size_t flip : {8, 5}) {  // the CRC's first and last bytes
      auto bytes = member;
      bytes[bytes.size() - flip] ^= 0x01;
      const auto path = file_of("crc" + std::to_string(flip) + ".idx.gz", bytes);
      CHECK(starts_with(kt_test::error_of([&] { kt::read_idx<std::int64_t>(path); }),
                        about(path) + "corrupt gzip stream: the gzip trailer's CRC-32 at compressed byte offset " +
                            std::to_string(member.size() - 8) + " does not match the data (detected at the end of the "
                            "stream, after 3012 uncompressed bytes; zlib: incorrect data check)"));
    }
  }
  SUBCASE("a bad length in the trailer") {
    auto bytes = member;
    bytes[bytes.size() - 1] ^= 0x10;
    const auto path = file_of("isize.idx.gz", bytes);
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(path); }),
                      about(path) + "corrupt gzip stream: the gzip trailer's length at compressed byte offset " +
                          std::to_string(member.size() - 4) + " does not match the 3012 bytes of data"));
  }
  SUBCASE("a trailer cut short") {
    const auto path = file_of("cut_trailer.idx.gz", Bytes(member.begin(), member.end() - 3));
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(path); }),
                      about(path) + "truncated gzip stream at uncompressed byte offset 3012 (the file's " +
                          std::to_string(member.size() - 3) + " bytes end before the gzip trailer"));
  }
  SUBCASE("a damaged gzip header") {
    auto bytes = member;
    bytes[2] = 7;  // compression method: only 8 (deflate) exists
    const auto path = file_of("bad_method.idx.gz", bytes);
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(path); }),
                      about(path) + "corrupt gzip stream at uncompressed byte offset 0 (compressed byte offset"));
  }
  SUBCASE("the intact member reads") {
    const auto path = file_of("intact.idx.gz", member);
    CHECK(kt::read_idx(path).to_vector() == payload);
  }
}

// ============================================================================================
// 4. Messages: what they echo is bounded and printable
// ============================================================================================

TEST_CASE("read_idx messages escape control bytes and shorten long paths") {
  SUBCASE("control bytes and invalid UTF-8 in the file name") {
    const auto path = kt_test::scratch_path(std::string("ctl\x01name\n\xff.idx"));
    kt_test::write_bytes(path, {0x12, 0x34, 0x08, 0x01});
    const auto shown = kt_test::scratch_path("ctl\\x01name\\x0A\\xFF.idx");
    const auto message = kt_test::error_of([&] { kt::read_idx(path); });
    CHECK(starts_with(message, about(shown) + "bad magic number 0x12340801 at byte offset 0"));
    CHECK(message.find('\n') == std::string::npos);
    CHECK(message.find('\x01') == std::string::npos);
  }
  SUBCASE("a path of 300 characters: '...' and its last 80") {
    const auto dir = kt_test::scratch_path(std::string(200, 'd'));
    std::filesystem::create_directories(dir);
    const std::string path = dir + "/" + std::string(60, 'f') + "_final_name.idx";
    kt_test::write_bytes(path, kt_test::idx_bytes(0x08, {2}, {1}));
    const std::string tail = path.substr(path.size() - 80);
    const auto message = kt_test::error_of([&] { kt::read_idx(path); });
    CHECK(starts_with(message, "kt::read_idx: '..." + tail + "': the header declares uint8 (2) = 2 data bytes"));
    CHECK(message.size() < 400);
    const auto missing = kt_test::error_of([&] { kt::read_idx(path + ".missing"); });
    CHECK(starts_with(missing, "kt::read_idx: cannot open '..." + (path + ".missing").substr(path.size() + 8 - 80) +
                                   "': No such file or directory"));
  }
  SUBCASE("a directory") {
    const auto dir = kt_test::scratch_path("a_directory.idx");
    std::filesystem::create_directories(dir);
    CHECK(starts_with(kt_test::error_of([&] { kt::read_idx(dir); }),
                      "kt::read_idx: '" + dir + "' is a directory, not a file"));
  }
}
