// kt's checksums in safetensors files: XXH64 against the reference implementation's values
// (`xxhsum -H1`), one flipped bit in any tensor of any dtype or in the metadata is a kt::Error
// naming what and both values, files without checksums still load, and the opt-outs.

#include "kt_test.hpp"
#include "io/io_files.hpp"

#include <kt/io/safetensors.hpp>
#include <nlohmann/json.hpp>  // an independent reader of what kt writes

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

using namespace kt_test::io_files;

namespace {

/// Flips bit `bit` of byte `offset` of the file at `path`.
void flip_bit(const std::string& path, std::uint64_t offset, int bit) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(offset));
  char c = 0;
  f.read(&c, 1);
  c = static_cast<char>(c ^ (1 << bit));
  f.seekp(static_cast<std::streamoff>(offset));
  f.write(&c, 1);
}

std::uint64_t data_start(const std::string& path) {
  const std::string bytes = read_all(path);
  std::uint64_t n = 0;
  for (int b = 7; b >= 0; --b) n = (n << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(b)]);
  return 8 + n;
}

template <class T>
void one_flipped_bit_is_caught(const std::string& tag) {
  const auto path = scratch("flip_" + tag + ".safetensors");
  kt::io::NamedTensors t;
  t.add("first", kt::full<T, kt::Host>({3}, T(1)));
  t.add("w", kt::arange<T, kt::Host>(0, 40).reshape({5, 8}));
  kt::io::save_safetensors(path, t);
  const std::uint64_t w_at = data_start(path) + 3 * sizeof(T);
  for (const std::uint64_t byte : {std::uint64_t{0}, std::uint64_t{17}, 40 * sizeof(T) - 1}) {
    for (const int bit : {0, 7}) {
      flip_bit(path, w_at + byte, bit);
      const auto file = kt::io::load_safetensors(path);  // the header is intact
      CHECK(file.get<T>("first").to_vector() == std::vector<T>(3, T(1)));
      const std::string error = kt_test::error_of([&] { (void)file.get<T>("w"); });
      INFO(tag, " byte ", byte, " bit ", bit, ": ", error);
      CHECK(error.find("kt::io::SafetensorsFile::get: tensor 'w' in '" + path + "' does not match its checksum: the "
                       "file records xxh64 ") == 0);
      CHECK(error.find(", its " + std::to_string(40 * sizeof(T)) + " bytes hash to ") != std::string::npos);
      // Opted out, the damaged bytes load as they are.
      const auto unchecked = kt::io::load_safetensors(path, kt::io::SafetensorsOptions().verify_checksums(false));
      CHECK(unchecked.get<T>("w").to_vector() != kt::arange<T, kt::Host>(0, 40).to_vector());
      flip_bit(path, w_at + byte, bit);
      CHECK(kt::io::load_safetensors(path).get<T>("w").to_vector() == kt::arange<T, kt::Host>(0, 40).to_vector());
    }
  }
}

}  // namespace

TEST_CASE("XXH64 gives the reference implementation's values, whole or streamed in pieces") {
  const std::vector<std::pair<std::string, std::uint64_t>> reference = {
      {"", 0xef46db3751d8e999ULL},
      {"a", 0xd24ec4f1a98c6e5bULL},
      {"abc", 0x44bc2cf5ad770999ULL},
      {"0123456789abcdef0123456789abcdef", 0x642a94958e71e6c5ULL},
      {std::string(100, 'x') + "tail", 0x6ab5fdba89b32067ULL}};  // xxhsum -H1
  for (const auto& [text, value] : reference) {
    CHECK(kt::impl::Xxh64::of(text.data(), text.size()) == value);
    for (const std::size_t piece : {std::size_t{1}, std::size_t{5}, std::size_t{31}, std::size_t{33}}) {
      kt::impl::Xxh64 h;
      for (std::size_t at = 0; at < text.size(); at += piece) h.update(text.data() + at, std::min(piece, text.size() - at));
      CHECK(h.digest() == value);
    }
  }
}

TEST_CASE("kt records each tensor's XXH64 and the metadata's in the metadata entry kt.xxh64") {
  const auto path = scratch("sums.safetensors");
  kt::io::save_safetensors(path, std::vector<std::pair<std::string, kt::Tensor<std::uint8_t, kt::Host>>>{
                                     {"abc", kt::from_host<std::uint8_t, kt::Host>(std::vector<std::uint8_t>{'a', 'b', 'c'}, {3})}},
                           {{"format", "pt"}, {"kt.xxh64", "a stale value is replaced"}});
  const auto file = kt::io::load_safetensors(path);
  const auto sums = nlohmann::json::parse(file.metadata().at("kt.xxh64"));
  CHECK(sums["abc"] == "44bc2cf5ad770999");
  CHECK(sums["__metadata__"].get<std::string>().size() == 16);
  CHECK(file.has_checksum("abc"));
  // Without checksums (PyTorch's and the reference library's files) tensors load unverified.
  kt::io::save_safetensors(scratch("no_sums.safetensors"),
                           std::vector<std::pair<std::string, kt::Tensor<float, kt::Host>>>{{"w", kt::ones<float, kt::Host>({2})}},
                           {}, kt::io::SafetensorsOptions().write_checksums(false));
  const auto plain = kt::io::load_safetensors(scratch("no_sums.safetensors"));
  CHECK(plain.metadata().count("kt.xxh64") == 0);
  CHECK_FALSE(plain.has_checksum("w"));
  CHECK(plain.get<float>("w").to_vector() == std::vector<float>{1, 1});
}

TEST_CASE("one flipped bit in a tensor of any dtype is a kt::Error naming the tensor and both checksums") {
  one_flipped_bit_is_caught<double>("f64");
  one_flipped_bit_is_caught<float>("f32");
  one_flipped_bit_is_caught<kt::half>("f16");
  one_flipped_bit_is_caught<kt::bfloat16>("bf16");
  one_flipped_bit_is_caught<std::int64_t>("i64");
  one_flipped_bit_is_caught<std::int32_t>("i32");
  one_flipped_bit_is_caught<std::uint8_t>("u8");
}

TEST_CASE("damaged metadata or a malformed checksum entry is a kt::Error when the file is opened") {
  const auto path = scratch("meta.safetensors");
  kt::io::save_safetensors(path, std::vector<std::pair<std::string, kt::Tensor<float, kt::Host>>>{{"w", kt::ones<float, kt::Host>({2})}},
                           {{"epoch", "7"}});
  const std::string good = read_all(path);
  std::string bad = good;
  bad[bad.find("\"7\"") + 1] = '9';  // "epoch": "9", same length: the JSON stays valid
  write_all(path, bad);
  const std::string error = kt_test::error_of([&] { (void)kt::io::load_safetensors(path); });
  CHECK(error.find("': the metadata does not match its checksum: the file records xxh64 ") != std::string::npos);
  CHECK(kt::io::load_safetensors(path, kt::io::SafetensorsOptions().verify_checksums(false)).metadata().at("epoch") == "9");

  const auto with_sums = [&](const std::string& sums) {
    const auto p = scratch("sums_entry.safetensors");
    kt::io::NamedTensors t;
    t.add("w", kt::ones<float, kt::Host>({2}));
    kt::io::save_safetensors(p, t, {}, kt::io::SafetensorsOptions().write_checksums(false));
    // Rewrite the header by hand with the given entry (kt would replace it).
    std::string json = R"({"__metadata__":{"kt.xxh64":)" + nlohmann::json(sums).dump() +
                       R"(},"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
    std::string out;
    for (int b = 0; b < 8; ++b) out += static_cast<char>((json.size() >> (8 * b)) & 0xff);
    write_all(p, out + json + read_all(p).substr(data_start(p)));
    return kt_test::error_of([&] { (void)kt::io::load_safetensors(p); });
  };
  CHECK(with_sums("not json").find("the metadata entry 'kt.xxh64' is not a JSON object") != std::string::npos);
  CHECK(with_sums(R"({"w": "xyz"})").find("gives 'w' the value \"xyz\", not 16 lowercase hex digits") != std::string::npos);
  CHECK(with_sums(R"({"v": "0123456789abcdef"})").find("has a checksum for 'v', a tensor the file does not hold") !=
        std::string::npos);
}
