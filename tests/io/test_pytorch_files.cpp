// Files written by PyTorch (tests/io/pytorch/make_fixtures.py, Debian's python3-torch 1.13.1,
// committed): an nn.Sequential MLP's state_dict loads into the matching kt::nn::Sequential
// and gives PyTorch's outputs to 1e-6 on every device; every dtype and rank 0 to 6 loads with
// the values PyTorch wrote. (The other direction, PyTorch reading kt's files, is the ctest
// "io: PyTorch reads kt's files".)

#include "kt_test.hpp"
#include "io/pytorch_mlp.hpp"

#include <kt/io/module_io.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#ifndef KT_IO_PYTORCH_FILES
#error "KT_IO_PYTORCH_FILES (the folder tests/io/pytorch) is set by tests/CMakeLists.txt"
#endif

namespace {
std::string fixture(const char* name) { return std::string(KT_IO_PYTORCH_FILES) + "/" + name; }

template <class T>
void check_dtype(const kt::io::SafetensorsFile& file, const char* dtype) {
  for (int rank = 0; rank <= 6; ++rank) {
    const std::string name = std::string(dtype) + ".rank" + std::to_string(rank);
    INFO(name);
    REQUIRE(file.contains(name));
    CHECK(file.shape(name).rank() == rank);
    const auto v = file.get<T>(name).to_vector();
    for (std::size_t i = 0; i < v.size(); ++i) {
      const double expected = std::string(dtype) == "BOOL" ? double(i % 2) : std::string(dtype) == "U8" ? double(i % 7) : double(i % 7) - 3;
      CHECK(static_cast<double>(static_cast<kt::compute_t<T>>(v[i])) == expected);
    }
  }
}
}  // namespace

TEST_CASE_TEMPLATE("a PyTorch nn.Sequential's state_dict loads into kt and gives PyTorch's outputs", D, KT_DEVICES) {
  auto model = kt_test::pytorch_mlp<float, D>(100);
  kt::io::load(model, fixture("pytorch_mlp.safetensors"));  // strict: every key, dtype and shape
  const auto io = kt::io::load_safetensors(fixture("pytorch_mlp_io.safetensors"));
  const auto y = model(io.get<float, D>("x")).data().to_vector();
  const auto expected = io.get<float>("y").to_vector();
  REQUIRE(y.size() == expected.size());
  for (std::size_t i = 0; i < y.size(); ++i) CHECK(std::abs(y[i] - expected[i]) <= 1e-6 * (1 + std::abs(expected[i])));
  // Without the load the outputs differ (the check can fail).
  CHECK(kt_test::pytorch_mlp<float, D>(100)(io.get<float, D>("x")).data().to_vector() != expected);
}

TEST_CASE("PyTorch's tensors of every dtype and rank 0 to 6 load with the values it wrote") {
  const auto file = kt::io::load_safetensors(fixture("pytorch_dtypes.safetensors"));
  CHECK(file.metadata().at("writer").rfind("torch ", 0) == 0);
  check_dtype<float>(file, "F32");
  check_dtype<double>(file, "F64");
  check_dtype<kt::half>(file, "F16");
  check_dtype<kt::bfloat16>(file, "BF16");
  check_dtype<std::int64_t>(file, "I64");
  check_dtype<std::int32_t>(file, "I32");
  check_dtype<std::uint8_t>(file, "U8");
  check_dtype<std::uint8_t>(file, "BOOL");
  CHECK(file.names().size() == 8 * 7);
}
