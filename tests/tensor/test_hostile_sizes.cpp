// Sizes from a user or a file that overflow int64 or memory: a kt::Error naming the request,
// never an overflowed size, a wrong result or a crash.

#include "kt_test.hpp"

#include <kt/data/dataloader.hpp>
#include <kt/data/tensor_dataset.hpp>

#include <cstdint>
#include <string>

namespace {
bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }
}  // namespace

TEST_CASE_TEMPLATE("reshape checks its element count for int64 overflow before anything else", D, KT_DEVICES) {
  const auto x = kt::zeros<float, D>({4, 6});
  CHECK(starts_with(kt_test::error_of([&] { (void)x.reshape({std::int64_t(1) << 62, 4, -1}); }),
                    "kt::Tensor::reshape: shape (4611686018427387904, 4, -1) has more elements than int64 can count"));
  CHECK(starts_with(kt_test::error_of([&] { (void)x.reshape({std::int64_t(1) << 40, std::int64_t(1) << 40}); }),
                    "kt::Tensor::reshape: shape (1099511627776, 1099511627776) has more elements than int64 can count "
                    "(a tensor of shape (4, 6) has 24)"));
  CHECK(starts_with(kt_test::error_of([&] { (void)x.reshape({INT64_MAX, 2, -1}); }),
                    "kt::Tensor::reshape: shape (9223372036854775807, 2, -1) has more elements"));
  CHECK(x.reshape({-1, 8}).shape() == kt::Shape{3, 8});  // control
}

TEST_CASE_TEMPLATE("factories refuse sizes no tensor can hold", D, KT_DEVICES) {
  CHECK(starts_with(kt_test::error_of([] { (void)kt::arange<float, D>(0, 1e30); }),
                    "kt::arange: [0, 1e+30) in steps of 1 has 1e+30 values, more than a tensor can hold"));
  CHECK(starts_with(kt_test::error_of([] { (void)kt::arange<float, D>(-1e300, 1e300, 1e-300); }), "kt::arange: "));
  CHECK(starts_with(kt_test::error_of([] { (void)kt::zeros<float, D>({std::int64_t(1) << 40, std::int64_t(1) << 40}); }),
                    "kt::Shape: "));
  // Representable but far beyond any memory: the allocator's error, with the size.
  const std::string oom = kt_test::error_of([] { (void)kt::empty<float, D>({std::int64_t(1) << 58}); });
  CHECK(starts_with(oom, "kt: out of memory in "));
  CHECK(oom.find("cannot allocate 1.00 EiB (1152921504606846976 bytes)") != std::string::npos);
}

TEST_CASE("a batch size near INT64_MAX gives one batch, not an overflowed count") {
  kt::TensorDataset data(kt::ones<float, kt::Host>({10, 2}), kt::zeros<std::int64_t, kt::Host>({10}));
  auto loader = kt::make_data_loader<kt::Host>(data, kt::DataLoaderOptions().batch_size(INT64_MAX));
  CHECK(loader.size() == 1);
  std::int64_t rows = 0;
  for (auto [x, y] : loader) rows += x.size(0);
  CHECK(rows == 10);
  auto dropped = kt::make_data_loader<kt::Host>(data, kt::DataLoaderOptions().batch_size(INT64_MAX - 1).drop_last(true));
  CHECK(dropped.size() == 0);
}
