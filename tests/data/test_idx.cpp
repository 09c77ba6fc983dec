#include "data_test_files.hpp"
#include "kt_test.hpp"

#include <kt/data/idx.hpp>

#include <cstring>
#include <filesystem>
#include <numeric>

using kt_test::mentions;

namespace {
std::vector<unsigned char> iota_bytes(std::size_t n) {
  std::vector<unsigned char> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<unsigned char>(i * 7 % 256);
  return v;
}
}  // namespace

TEST_CASE("read_idx round-trips uint8 files written plain and gzip-compressed") {
  const auto payload = iota_bytes(5 * 3 * 4);
  const auto bytes = kt_test::idx_bytes(0x08, {5, 3, 4}, payload);
  const auto plain = kt_test::scratch_path("images.idx"), gz = kt_test::scratch_path("images.idx.gz");
  kt_test::write_bytes(plain, bytes);
  kt_test::write_gzip(gz, bytes);
  for (const auto& path : {plain, gz}) {
    auto t = kt::read_idx(path);
    static_assert(std::is_same_v<decltype(t), kt::Tensor<std::uint8_t, kt::Host>>);
    CHECK(t.shape() == kt::Shape{5, 3, 4});
    CHECK(t.to_vector() == payload);
    auto f = kt::read_idx_float(path);
    CHECK(f.shape() == kt::Shape{5, 3, 4});
    CHECK(f.to_vector()[1] == doctest::Approx(7.0 / 255.0));
    auto l = kt::read_idx<std::int64_t>(path);
    CHECK(l.to_vector()[2] == 14);
  }
}

TEST_CASE("read_idx decodes big-endian int32 and float32 elements") {
  std::vector<unsigned char> payload;
  for (std::int32_t v : {1, -2, 70000}) {
    const auto u = static_cast<std::uint32_t>(v);
    for (int s = 24; s >= 0; s -= 8) payload.push_back(static_cast<unsigned char>(u >> s));
  }
  const auto p = kt_test::scratch_path("ints.idx");
  kt_test::write_bytes(p, kt_test::idx_bytes(0x0C, {3}, payload));
  CHECK(kt::read_idx<std::int64_t>(p).to_vector() == std::vector<std::int64_t>{1, -2, 70000});
  std::vector<unsigned char> fl;
  for (float v : {0.5f, -3.25f}) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    for (int s = 24; s >= 0; s -= 8) fl.push_back(static_cast<unsigned char>(u >> s));
  }
  const auto q = kt_test::scratch_path("floats.idx.gz");
  kt_test::write_gzip(q, kt_test::idx_bytes(0x0D, {1, 2}, fl));
  CHECK(kt::read_idx<float>(q).to_vector() == std::vector<float>{0.5f, -3.25f});
  CHECK(kt::read_idx<float>(q).shape() == kt::Shape{1, 2});
}

TEST_CASE("read_idx rejects a missing file bad magic and unknown type codes naming the file") {
  const auto missing = kt_test::scratch_path("no_such_file.idx");
  CHECK(mentions(kt_test::error_of([&] { kt::read_idx(missing); }), "kt::read_idx: cannot open '", missing,
                 "No such file"));
  const auto bad = kt_test::scratch_path("bad_magic.idx");
  kt_test::write_bytes(bad, {0x12, 0x34, 0x08, 0x01, 0, 0, 0, 0});
  CHECK(mentions(kt_test::error_of([&] { kt::read_idx(bad); }), bad, "bad magic number 0x12340801",
                 "byte offset 0"));
  const auto code = kt_test::scratch_path("bad_code.idx");
  kt_test::write_bytes(code, kt_test::idx_bytes(0x07, {1}, {5}));
  CHECK(mentions(kt_test::error_of([&] { kt::read_idx(code); }), code, "unknown IDX type code 0x07",
                 "byte offset 2"));
  const auto tiny = kt_test::scratch_path("tiny.idx");
  kt_test::write_bytes(tiny, {0, 0});
  CHECK(mentions(kt_test::error_of([&] { kt::read_idx(tiny); }), tiny, "truncated", "byte offset 2"));
}

TEST_CASE("read_idx checks the declared dimensions against the data present") {
  const auto payload = iota_bytes(10 * 4);
  const auto short_plain = kt_test::scratch_path("short.idx");
  kt_test::write_bytes(short_plain, kt_test::idx_bytes(0x08, {10, 5}, payload));  // 50 declared, 40 present
  CHECK(mentions(kt_test::error_of([&] { kt::read_idx(short_plain); }), short_plain, "(10, 5) = 50 data bytes",
                 "from byte offset 12", "the file has 52 bytes", "truncated"));
  const auto long_plain = kt_test::scratch_path("long.idx");
  kt_test::write_bytes(long_plain, kt_test::idx_bytes(0x08, {10, 3}, payload));  // 30 declared, 40 present
  CHECK(mentions(kt_test::error_of([&] { kt::read_idx(long_plain); }), long_plain, "the file has 52 bytes",
                 "wrong dimensions"));
  const auto short_gz = kt_test::scratch_path("short.idx.gz");
  kt_test::write_gzip(short_gz, kt_test::idx_bytes(0x08, {10, 5}, payload));
  CHECK(mentions(kt_test::error_of([&] { kt::read_idx(short_gz); }), short_gz, "truncated file",
                 "data ends at byte offset 52"));
  const auto long_gz = kt_test::scratch_path("long.idx.gz");
  kt_test::write_gzip(long_gz, kt_test::idx_bytes(0x08, {10, 3}, payload));
  CHECK(mentions(kt_test::error_of([&] { kt::read_idx(long_gz); }), long_gz, "unexpected data after byte offset 42"));
  const auto header = kt_test::scratch_path("short_header.idx");
  kt_test::write_bytes(header, {0, 0, 0x08, 3, 0, 0, 0, 2});
  CHECK(mentions(kt_test::error_of([&] { kt::read_idx(header); }), header, "declares 3 dimensions",
                 "byte offset 8"));
}

TEST_CASE("read_idx reports truncated and corrupt gzip streams with the offset") {
  const auto payload = iota_bytes(4000);
  const auto good = kt_test::scratch_path("good.idx.gz");
  kt_test::write_gzip(good, kt_test::idx_bytes(0x08, {1000, 4}, payload));
  auto bytes = kt_test::read_bytes(good);
  REQUIRE(bytes.size() > 40);

  const auto cut = kt_test::scratch_path("cut.idx.gz");
  kt_test::write_bytes(cut, std::vector<unsigned char>(bytes.begin(), bytes.begin() + static_cast<long>(bytes.size() / 2)));
  const auto cut_msg = kt_test::error_of([&] { kt::read_idx(cut); });
  CHECK(mentions(cut_msg, "kt::read_idx: '", cut, "': truncated gzip stream at uncompressed byte offset"));

  const auto no_trailer = kt_test::scratch_path("no_trailer.idx.gz");  // all data, CRC missing
  kt_test::write_bytes(no_trailer, std::vector<unsigned char>(bytes.begin(), bytes.end() - 8));
  CHECK(mentions(kt_test::error_of([&] { kt::read_idx(no_trailer); }), no_trailer, "truncated gzip stream"));

  auto corrupt = bytes;
  for (std::size_t i = 20; i < 30; ++i) corrupt[i] ^= 0xA5;
  const auto bad = kt_test::scratch_path("corrupt.idx.gz");
  kt_test::write_bytes(bad, corrupt);
  CHECK(mentions(kt_test::error_of([&] { kt::read_idx(bad); }), bad, "gzip stream", "uncompressed byte offset",
                 "zlib: "));

  auto bad_crc = bytes;
  bad_crc[bad_crc.size() - 6] ^= 0xFF;  // the CRC-32 of the trailer
  const auto crc = kt_test::scratch_path("bad_crc.idx.gz");
  kt_test::write_bytes(crc, bad_crc);
  CHECK(mentions(kt_test::error_of([&] { kt::read_idx(crc); }), crc, "corrupt gzip stream", "zlib: "));
}

TEST_CASE("read_idx reads the real Fashion-MNIST files when installed") {
  const std::string dir = "/usr/share/datasets/fashion-mnist/";
  if (!std::filesystem::exists(dir + "train-images-idx3-ubyte.gz")) {
    MESSAGE("skipped: Fashion-MNIST is not installed in ", dir, " (apt-get install dataset-fashion-mnist)");
    return;
  }
  auto images = kt::read_idx(dir + "train-images-idx3-ubyte.gz");
  CHECK(images.shape() == kt::Shape{60000, 28, 28});
  auto labels = kt::read_idx<std::int64_t>(dir + "train-labels-idx1-ubyte.gz");
  CHECK(labels.shape() == kt::Shape{60000});
  const auto y = labels.to_vector();
  std::vector<std::int64_t> counts(10, 0);
  bool in_range = true;
  for (auto v : y) {
    in_range = in_range && v >= 0 && v <= 9;
    if (v >= 0 && v <= 9) ++counts[static_cast<std::size_t>(v)];
  }
  CHECK(in_range);
  CHECK(counts == std::vector<std::int64_t>(10, 6000));
  auto test_images = kt::read_idx_float(dir + "t10k-images-idx3-ubyte.gz");
  CHECK(test_images.shape() == kt::Shape{10000, 28, 28});
  CHECK(kt::read_idx(dir + "t10k-labels-idx1-ubyte.gz").shape() == kt::Shape{10000});
}
