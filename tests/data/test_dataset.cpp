#include "kt_test.hpp"

#include <kt/data/dataloader.hpp>
#include <kt/data/normalized_dataset.hpp>
#include <kt/data/subset.hpp>
#include <kt/data/tensor_dataset.hpp>
#include <kt/data/transform.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

namespace {
struct Squares {  // a user dataset without the gather fast path
  std::int64_t size() const { return 10; }
  kt::Sample<float, float> get(std::int64_t i) const {
    return {kt::full<float, kt::Host>({2}, float(i)), kt::full<float, kt::Host>({}, float(i * i))};
  }
};
static_assert(kt::is_dataset_v<Squares>);
static_assert(!kt::has_gather_v<Squares>);
static_assert(kt::is_dataset_v<kt::TensorDataset<float, std::int64_t>>);
static_assert(kt::has_gather_v<kt::TensorDataset<float, std::int64_t>>);
static_assert(kt::has_gather_v<kt::Subset<kt::TensorDataset<float, std::int64_t>>>);
static_assert(!kt::is_dataset_v<int>);
}  // namespace

TEST_CASE_TEMPLATE("TensorDataset pairs rows of inputs and targets of any dtypes", D, KT_HOST_DEVICES) {
  auto x = kt::arange<float, kt::Host>(12).reshape({4, 3});
  auto y = kt::arange<std::int64_t, kt::Host>(4);
  kt::TensorDataset ds(x, y);
  static_assert(std::is_same_v<decltype(ds), kt::TensorDataset<float, std::int64_t>>);
  CHECK(ds.size() == 4);
  auto [input, target] = ds.get(2);
  CHECK(input.to_vector() == std::vector<float>{6, 7, 8});
  CHECK(target.item() == 2);
  CHECK(ds.input_shape() == kt::Shape{3});
  CHECK(ds.target_shape() == kt::Shape{});
  std::vector<float> rows(6);
  std::vector<std::int64_t> labels(2);
  const std::int64_t idx[] = {3, 0};
  ds.gather(idx, 2, rows.data(), labels.data());
  CHECK(rows == std::vector<float>{9, 10, 11, 0, 1, 2});
  CHECK(labels == std::vector<std::int64_t>{3, 0});
  CHECK(kt_test::error_of([&] { ds.get(4); }) ==
        "kt::TensorDataset::get: index 4 is out of range for a dataset of 4 samples");
  CHECK(kt_test::error_of([&] { kt::TensorDataset(x, kt::arange<std::int64_t, kt::Host>(5)); }) ==
        "kt::TensorDataset: inputs have 4 samples but targets have 5 (inputs (4, 3), targets (5))");
  // tensors of any host device are accepted (shared, not copied)
  kt::TensorDataset on_d(kt::zeros<double, D>({2, 2}), kt::zeros<std::uint8_t, D>({2, 1}));
  CHECK(on_d.target_shape() == kt::Shape{1});
}

TEST_CASE("NormalizedDataset converts stored uint8 rows as read_idx_float + Normalize would") {
  // Every uint8 value once, 256 samples of one element, labels = the value.
  auto bytes = kt::arange<std::uint8_t, kt::Host>(256).reshape({256, 1});
  auto labels = kt::arange<std::int64_t, kt::Host>(256);
  const double mean = 0.2860, std = 0.3530, scale = 1.0 / 255;
  kt::NormalizedDataset ds(bytes, labels, scale, kt::Normalize(mean, std));
  static_assert(std::is_same_v<decltype(ds), kt::NormalizedDataset<std::uint8_t, std::int64_t, float>>);
  static_assert(kt::has_gather_v<decltype(ds)> && std::is_same_v<kt::input_t<decltype(ds)>, float>);
  CHECK(ds.size() == 256);
  CHECK(ds.input_shape() == kt::Shape{1});

  // The two-step path it replaces: floats s * scale, normalised in place. Same bits.
  auto two_step = kt::empty<float, kt::Host>({256});
  for (int s = 0; s < 256; ++s) two_step.data()[s] = static_cast<float>(s * scale);
  kt::Normalize(mean, std).apply_(two_step);
  std::vector<std::int64_t> all(256);
  for (int s = 0; s < 256; ++s) all[static_cast<std::size_t>(s)] = 255 - s;  // reversed order
  std::vector<float> rows(256);
  std::vector<std::int64_t> targets(256);
  ds.gather(all.data(), 256, rows.data(), targets.data());
  for (int k = 0; k < 256; ++k) {
    const int s = 255 - k;
    CHECK(std::memcmp(&rows[static_cast<std::size_t>(k)], &two_step.data()[s], sizeof(float)) == 0);
    CHECK(targets[static_cast<std::size_t>(k)] == s);
    // and close to the exact value (double, by hand)
    CHECK(rows[static_cast<std::size_t>(k)] == doctest::Approx((s / 255.0 - mean) / std).epsilon(1e-6));
  }
  auto [x, y] = ds.get(7);
  CHECK(x.shape() == kt::Shape{1});
  CHECK(x.to_vector() == std::vector<float>{two_step.data()[7]});
  CHECK(y.item() == 7);

  const std::int64_t bad[] = {3, 256};
  CHECK(kt_test::error_of([&] { ds.gather(bad, 2, rows.data(), targets.data()); }) ==
        "kt::NormalizedDataset::gather: index 256 is out of range for a dataset of 256 samples");
  CHECK(kt_test::error_of([&] { ds.get(-1); }) ==
        "kt::TensorDataset::get: index -1 is out of range for a dataset of 256 samples");
}

TEST_CASE_TEMPLATE("a DataLoader over a NormalizedDataset gives the normalised rows, split over threads or not", D,
                   KT_DEVICES) {
  // Rows of 3000 bytes: a batch of 64 is big enough for the loader to split its gather.
  const std::int64_t n = 100, row = 3000;
  auto bytes = kt::empty<std::uint8_t, kt::Host>({n, row});
  for (std::int64_t e = 0; e < n * row; ++e) bytes.data()[e] = static_cast<std::uint8_t>((e * 7) % 251);
  kt::NormalizedDataset ds(bytes, kt::arange<std::int64_t, kt::Host>(double(n)), 1.0 / 255, kt::Normalize(0.5, 0.25));
  for (int workers : {0, 2}) {
    auto loader = kt::make_data_loader<D>(ds, kt::DataLoaderOptions().batch_size(64).shuffle(true).seed(5).num_workers(workers));
    std::int64_t seen = 0;
    for (auto [x, y] : loader) {
      const auto xs = x.to_vector();
      const auto ys = y.to_vector();
      for (std::size_t r = 0; r < ys.size(); ++r) {
        const auto i = ys[r];
        for (std::int64_t j = 0; j < row; j += 499) {
          const double s = double((i * row + j) * 7 % 251);
          CHECK(xs[r * row + static_cast<std::size_t>(j)] == doctest::Approx((s / 255 - 0.5) / 0.25).epsilon(1e-6));
        }
      }
      seen += x.size(0);
    }
    CHECK(seen == n);
  }
}

TEST_CASE("random_split is seeded disjoint and covers the dataset") {
  kt::TensorDataset ds(kt::arange<float, kt::Host>(100), kt::arange<std::int64_t, kt::Host>(100));
  auto parts = kt::random_split(ds, {70, 20, 10}, 3);
  REQUIRE(parts.size() == 3);
  CHECK(parts[0].size() == 70);
  CHECK(parts[2].size() == 10);
  std::vector<std::int64_t> all;
  for (const auto& p : parts) all.insert(all.end(), p.indices().begin(), p.indices().end());
  std::sort(all.begin(), all.end());
  for (std::int64_t i = 0; i < 100; ++i) CHECK(all[static_cast<std::size_t>(i)] == i);
  CHECK(kt::random_split(ds, {70, 20, 10}, 3)[0].indices() == parts[0].indices());
  CHECK(kt::random_split(ds, {70, 20, 10}, 4)[0].indices() != parts[0].indices());
  auto fractions = kt::random_split(ds, {0.5, 0.25, 0.25}, 0);
  CHECK(fractions[1].size() == 25);
  auto [x, y] = parts[1].get(0);
  CHECK(x.item() == float(y.item()));
  CHECK(kt_test::error_of([&] { kt::random_split(ds, {50, 20}, 0); }).find("sum to 70 but the dataset has 100") !=
        std::string::npos);
  CHECK(kt_test::error_of([&] { kt::Subset<decltype(ds)>(ds, {1, 100}); }) ==
        "kt::Subset: index 100 (position 1) is out of range for a dataset of 100 samples");
}

TEST_CASE("transforms normalise and flatten per sample without touching the dataset") {
  kt::TensorDataset ds(kt::full<float, kt::Host>({4, 2, 2}, 3.0f), kt::zeros<std::int64_t, kt::Host>({4}));
  auto normalised = kt::map_inputs(ds, [](const kt::Tensor<float, kt::Host>& x) {
    return kt::Flatten()(kt::Normalize(1.0, 2.0)(x));
  });
  static_assert(kt::is_dataset_v<decltype(normalised)>);
  auto [x, y] = normalised.get(1);
  CHECK(x.shape() == kt::Shape{4});
  CHECK(x.to_vector() == std::vector<float>(4, 1.0f));
  CHECK(ds.inputs().to_vector()[0] == 3.0f);  // unchanged
  auto squares = kt::map_samples(Squares(), [](kt::Sample<float, float> s) {
    kt::Normalize(0.0, 0.5).apply_(s.target);
    return s;
  });
  CHECK(squares.get(3).target.item() == 18.0f);
  CHECK(squares.size() == 10);
  CHECK(kt_test::error_of([] { kt::Normalize(0, 0); }) == "kt::Normalize: std must be positive, got 0");
}
