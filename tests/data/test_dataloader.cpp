#include "kt_test.hpp"

#include <kt/data/dataloader.hpp>
#include <kt/data/tensor_dataset.hpp>

#include <algorithm>
#include <atomic>
#include <exception>
#include <stdexcept>

#include <pthread.h>

namespace {

/// n samples: input row i is (i, i+0.5), target i.
kt::TensorDataset<float, std::int64_t> numbered(std::int64_t n) {
  std::vector<float> x;
  for (std::int64_t i = 0; i < n; ++i) {
    x.push_back(float(i));
    x.push_back(float(i) + 0.5f);
  }
  return {kt::from_host<float, kt::Host>(x, {n, 2}), kt::arange<std::int64_t, kt::Host>(double(n))};
}

/// A dataset without gather, whose get() throws for one index.
struct Faulty {
  std::int64_t bad;
  std::int64_t size() const { return 50; }
  kt::Sample<float, std::int64_t> get(std::int64_t i) const {
    if (i == bad) throw std::runtime_error("sample " + std::to_string(i) + " is unreadable");
    return {kt::full<float, kt::Host>({3}, float(i)), kt::full<std::int64_t, kt::Host>({}, i)};
  }
};

/// Every batch's targets, in order, of one pass.
template <class Loader>
std::vector<std::vector<std::int64_t>> batches_of(Loader& loader) {
  std::vector<std::vector<std::int64_t>> out;
  for (auto [x, y] : loader) out.push_back(y.to_vector());
  return out;
}

}  // namespace

TEST_CASE_TEMPLATE("DataLoader batch counts with and without drop_last", D, KT_DEVICES) {
  for (int workers : {0, 2}) {
    auto opts = kt::DataLoaderOptions().batch_size(16).num_workers(workers);
    auto loader = kt::make_data_loader<D>(numbered(100), opts);
    CHECK(loader.size() == 7);
    std::vector<std::int64_t> sizes;
    for (auto [x, y] : loader) sizes.push_back(x.size(0));
    CHECK(sizes == std::vector<std::int64_t>{16, 16, 16, 16, 16, 16, 4});
    auto dropping = kt::make_data_loader<D>(numbered(100), opts.drop_last(true));
    CHECK(dropping.size() == 6);
    CHECK(batches_of(dropping).size() == 6);
    auto exact = kt::make_data_loader<D>(numbered(96), kt::DataLoaderOptions().batch_size(16).drop_last(true));
    CHECK(batches_of(exact).size() == 6);
    auto empty = kt::make_data_loader<D>(numbered(0), opts);
    CHECK(empty.size() == 0);
    CHECK(batches_of(empty).empty());
  }
}

TEST_CASE_TEMPLATE("DataLoader batches land on the requested device with collated rows", D, KT_DEVICES) {
  auto loader = kt::make_data_loader<D>(numbered(10), kt::DataLoaderOptions().batch_size(4));
  static_assert(std::is_same_v<decltype(loader), kt::DataLoader<D, float, std::int64_t>>);
  int n = 0;
  for (const auto& batch : loader) {
    static_assert(std::is_same_v<decltype(batch.inputs), kt::Tensor<float, D>>);
    static_assert(std::is_same_v<decltype(batch.targets), kt::Tensor<std::int64_t, D>>);
    CHECK(batch.inputs.shape() == kt::Shape{n < 2 ? 4 : 2, 2});
    const auto x = batch.inputs.to_vector();
    const auto y = batch.targets.to_vector();
    for (std::size_t r = 0; r < y.size(); ++r) {
      CHECK(x[2 * r] == float(y[r]));
      CHECK(x[2 * r + 1] == float(y[r]) + 0.5f);
      CHECK(y[r] == 4 * n + std::int64_t(r));
    }
    ++n;
  }
  CHECK(n == 3);
}

TEST_CASE_TEMPLATE("DataLoader shuffles every index exactly once differently per epoch", D, KT_DEVICES) {
  auto loader = kt::make_data_loader<D>(numbered(1000),
                                        kt::DataLoaderOptions().batch_size(64).shuffle(true).seed(7).num_workers(2));
  std::vector<std::vector<std::int64_t>> orders;
  for (int epoch = 0; epoch < 3; ++epoch) {
    std::vector<std::int64_t> order;
    for (auto [x, y] : loader)
      for (auto v : y.to_vector()) order.push_back(v);
    auto sorted = order;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::int64_t> expected(1000);
    std::iota(expected.begin(), expected.end(), 0);
    CHECK(sorted == expected);
    orders.push_back(order);
  }
  CHECK(orders[0] != orders[1]);
  CHECK(orders[1] != orders[2]);
  CHECK(orders[0] != std::vector<std::int64_t>(orders[0].size()));
  CHECK(loader.epoch() == 3);  // each pass advanced the epoch
  loader.set_epoch(1);
  std::vector<std::int64_t> again;
  for (auto [x, y] : loader)
    for (auto v : y.to_vector()) again.push_back(v);
  CHECK(again == orders[1]);
}

TEST_CASE_TEMPLATE("DataLoader gives the same batches for 0 1 and 2 workers", D, KT_DEVICES) {
  std::vector<std::vector<std::vector<std::int64_t>>> runs;
  for (int workers : {0, 1, 2}) {
    auto loader = kt::make_data_loader<D>(
        numbered(777), kt::DataLoaderOptions().batch_size(50).shuffle(true).seed(3).num_workers(workers).prefetch(3));
    loader.set_epoch(5);
    runs.push_back(batches_of(loader));
  }
  CHECK(runs[0].size() == 16);
  CHECK(runs[0] == runs[1]);
  CHECK(runs[0] == runs[2]);
  // without gather (per-sample collation) too
  auto a = kt::make_data_loader<D>(Faulty{-1}, kt::DataLoaderOptions().batch_size(8).shuffle(true).num_workers(0));
  auto b = kt::make_data_loader<D>(Faulty{-1}, kt::DataLoaderOptions().batch_size(8).shuffle(true).num_workers(2));
  CHECK(batches_of(a) == batches_of(b));
}

TEST_CASE_TEMPLATE("DataLoader sampler hook and batch transform", D, KT_DEVICES) {
  auto opts = kt::DataLoaderOptions().batch_size(3).num_workers(1).sampler([](std::int64_t n, std::uint64_t epoch) {
    std::vector<std::int64_t> order;
    for (std::int64_t i = n - 1; i >= 0; i -= 2) order.push_back(i - std::int64_t(epoch % 2));
    return order;
  });
  auto loader = kt::make_data_loader<D>(numbered(10), opts);
  CHECK(loader.size() == 2);
  loader.set_batch_transform([](kt::Tensor<float, kt::Host>& x, kt::Tensor<std::int64_t, kt::Host>& y) {
    x = x.flatten();
    y.data()[0] = -1;
  });
  auto batches = batches_of(loader);
  CHECK(batches == std::vector<std::vector<std::int64_t>>{{-1, 7, 5}, {-1, 1}});
  auto second = batches_of(loader);  // epoch 1: odd shift
  CHECK(second == std::vector<std::vector<std::int64_t>>{{-1, 6, 4}, {-1, 0}});
  for (auto [x, y] : loader) CHECK(x.rank() == 1);
  auto bad = kt::make_data_loader<D>(numbered(4), kt::DataLoaderOptions().sampler([](std::int64_t, std::uint64_t) {
    return std::vector<std::int64_t>{0, 9};
  }));
  CHECK(kt_test::error_of([&] { bad.begin(); }) ==
        "kt::DataLoader: the sampler returned index 9 (position 1) for a dataset of 4 samples");
}

TEST_CASE_TEMPLATE("DataLoader stops its workers when the loop is left early", D, KT_DEVICES) {
  for (int workers : {0, 1, 2}) {
    auto loader = kt::make_data_loader<D>(numbered(5000),
                                          kt::DataLoaderOptions().batch_size(10).shuffle(true).num_workers(workers));
    int seen = 0;
    for (auto [x, y] : loader) {
      if (++seen == 3) break;
    }
    CHECK(seen == 3);
    auto it = loader.begin();  // an iterator kept past the loader's loop, then dropped
    CHECK(it != loader.end());
    kt::Tensor<float, D> held = it->inputs;
    it = loader.end();
    CHECK(held.shape() == kt::Shape{10, 2});  // the batch outlives the pass
  }
  {
    auto loader = std::make_unique<kt::DataLoader<D>>(numbered(1000), kt::DataLoaderOptions().num_workers(2));
    auto it = loader->begin();
    loader.reset();  // the pass keeps what it needs
    CHECK((*it).inputs.size(0) == 1);
    ++it;
  }
}

TEST_CASE_TEMPLATE("an exception in a worker reaches the loop as kt::Error", D, KT_DEVICES) {
  for (int workers : {0, 1, 2}) {
    auto loader = kt::make_data_loader<D>(Faulty{37}, kt::DataLoaderOptions().batch_size(5).num_workers(workers));
    int delivered = 0;
    std::string message;
    try {
      for (auto [x, y] : loader) {
        (void)x;
        ++delivered;
      }
    } catch (const kt::Error& e) {
      message = e.message();
    }
    CHECK(delivered == 7);  // batches 0..6; batch 7 holds sample 37
    CHECK(message == "kt::DataLoader: building batch 7 failed: sample 37 is unreadable");
  }
  auto transform_fails = kt::make_data_loader<D>(numbered(20), kt::DataLoaderOptions().batch_size(4).num_workers(2));
  transform_fails.set_batch_transform([](kt::Tensor<float, kt::Host>& x, kt::Tensor<std::int64_t, kt::Host>&) {
    x = x.reshape({3, -1});  // 8 elements: cannot
  });
  CHECK(kt_test::error_of([&] { batches_of(transform_fails); })
            .find("kt::DataLoader: building batch 0 failed: kt::Tensor::reshape: cannot infer dimension 1") == 0);
}

TEST_CASE("a failed batch carries the original exception nested in its kt::Error") {
  auto loader = kt::make_data_loader<kt::Serial>(Faulty{12}, kt::DataLoaderOptions().batch_size(5).num_workers(2));
  std::string original;
  try {
    batches_of(loader);
  } catch (const kt::Error& e) {
    CHECK(e.message() == "kt::DataLoader: building batch 2 failed: sample 12 is unreadable");
    try {
      std::rethrow_if_nested(e);
    } catch (const std::runtime_error& inner) {  // the dataset's own type
      original = inner.what();
    }
  }
  CHECK(original == "sample 12 is unreadable");
}

namespace {
/// A dataset whose first sample throws something that is not a std::exception.
struct ThrowsInt {
  std::int64_t size() const { return 4; }
  kt::Sample<float, std::int64_t> get(std::int64_t) const { throw 42; }
};
}  // namespace

TEST_CASE("sample 0 failing reaches the caller as kt::Error like every other sample") {
  // Sample 0 is read when the loader is built (it fixes the batch shapes).
  const std::string error =
      kt_test::error_of([] { (void)kt::make_data_loader<kt::Serial>(Faulty{0}, kt::DataLoaderOptions().batch_size(5)); });
  CHECK(error == "kt::DataLoader: reading sample 0 (for the batch shapes) failed: sample 0 is unreadable");
  const std::string not_std =
      kt_test::error_of([] { (void)kt::make_data_loader<kt::Serial>(ThrowsInt{}, kt::DataLoaderOptions()); });
  CHECK(not_std == "kt::DataLoader: reading sample 0 (for the batch shapes) failed: an exception that is not a std::exception");
}

TEST_CASE("a worker thread that cannot start is a kt::Error and the process goes on") {
  // Every new thread's stack made larger than the address space: pthread_create fails, as it
  // does when many workers meet a memory limit.
  pthread_attr_t saved, huge;
  REQUIRE(pthread_getattr_default_np(&saved) == 0);
  REQUIRE(pthread_attr_init(&huge) == 0);
  REQUIRE(pthread_attr_setstacksize(&huge, std::size_t(1) << 50) == 0);
  REQUIRE(pthread_setattr_default_np(&huge) == 0);
  auto loader = kt::make_data_loader<kt::Serial>(numbered(40), kt::DataLoaderOptions().batch_size(4).num_workers(8));
  const std::string error = kt_test::error_of([&] { batches_of(loader); });
  REQUIRE(pthread_setattr_default_np(&saved) == 0);
  pthread_attr_destroy(&huge);
  pthread_attr_destroy(&saved);
  CHECK(error.find("kt::DataLoader: cannot start worker thread 1 of 8 (use fewer num_workers): ") == 0);
  CHECK(batches_of(loader).size() == 10);  // threads can start again: the loader works
}

namespace {

/// Wide rows (4 KiB each) whose gather is a plain copy and throws for one index: batches big
/// enough for the consuming thread to split them over the host's threads.
struct WideRows {
  static constexpr bool gather_is_plain_copy = true;
  static constexpr std::int64_t kWidth = 1024;
  std::int64_t bad = -1;
  std::int64_t size() const { return 640; }
  kt::Shape input_shape() const { return kt::Shape({kWidth}); }
  kt::Shape target_shape() const { return kt::Shape({}); }
  kt::Sample<float, std::int64_t> get(std::int64_t i) const {
    std::vector<float> row(kWidth);
    for (std::int64_t j = 0; j < kWidth; ++j) row[std::size_t(j)] = float(i * kWidth + j);
    return {kt::from_host<float, kt::Host>(row, {kWidth}), kt::full<std::int64_t, kt::Host>({}, i)};
  }
  void gather(const std::int64_t* indices, std::int64_t count, float* inputs, std::int64_t* targets) const {
    for (std::int64_t k = 0; k < count; ++k) {
      if (indices[k] == bad) throw std::runtime_error("row " + std::to_string(bad) + " is unreadable");
      for (std::int64_t j = 0; j < kWidth; ++j) inputs[k * kWidth + j] = float(indices[k] * kWidth + j);
      targets[k] = indices[k];
    }
  }
};

}  // namespace

TEST_CASE_TEMPLATE("without workers, large batches are collated on the host's threads, same rows, same errors", D,
                   KT_DEVICES) {
  // Batch 320 x 4 KiB = 1.3 MB: split over the host's threads when there are several.
  std::vector<std::vector<float>> split, threaded;
  for (int workers : {0, 1}) {
    auto loader = kt::make_data_loader<D>(
        WideRows{}, kt::DataLoaderOptions().batch_size(320).shuffle(true).seed(1).num_workers(workers));
    for (auto [x, y] : loader) {
      const auto rows = x.to_vector();
      const auto ids = y.to_vector();
      REQUIRE(rows.size() == ids.size() * WideRows::kWidth);
      for (std::size_t k = 0; k < ids.size(); ++k)  // every row is its index's row
        CHECK(rows[k * WideRows::kWidth + 5] == float(ids[k] * WideRows::kWidth + 5));
      (workers == 0 ? split : threaded).push_back(rows);
    }
  }
  CHECK(split.size() == 2);
  CHECK(split == threaded);
  // A failure in the batch's second half (a later piece) reaches the loop as unsplit.
  auto failing = kt::make_data_loader<D>(WideRows{600}, kt::DataLoaderOptions().batch_size(320).num_workers(0));
  auto it = failing.begin();
  CHECK_THROWS_WITH_AS(++it, doctest::Contains("kt::DataLoader: building batch 1 failed: row 600 is unreadable"),
                       kt::Error);
}
