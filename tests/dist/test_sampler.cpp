// DistributedSampler against PyTorch's semantics, worked by hand, and across the real ranks:
// shards are disjoint and cover the data set, every rank gets the same count, and the order
// follows the seed and epoch (the loader's, or a pinned one).

#include "kt_test.hpp"

#include <kt/dist/dist.hpp>

#include <algorithm>
#include <set>
#include <vector>

using Indices = std::vector<std::int64_t>;

TEST_CASE("DistributedSampler pads by repeating the start, or drops the tail, as PyTorch does") {
  // 10 samples on 3 ranks, in order: padded to 12 = 0..9,0,1; rank r takes r, r+3, r+6, r+9.
  CHECK(kt::dist::DistributedSampler(3, 0, false)(10, 0) == Indices{0, 3, 6, 9});
  CHECK(kt::dist::DistributedSampler(3, 1, false)(10, 0) == Indices{1, 4, 7, 0});
  CHECK(kt::dist::DistributedSampler(3, 2, false)(10, 0) == Indices{2, 5, 8, 1});
  // drop_last: cut to 9.
  CHECK(kt::dist::DistributedSampler(3, 1, false, 0, true)(10, 0) == Indices{1, 4, 7});
  CHECK(kt::dist::DistributedSampler(3, 0, false, 0, true).num_samples(10) == 3);
  // Fewer samples than ranks: the padding repeats the data set as often as needed.
  CHECK(kt::dist::DistributedSampler(4, 3, false)(2, 0) == Indices{1});
  CHECK(kt::dist::DistributedSampler(5, 4, false)(2, 0) == Indices{0});
  CHECK(kt::dist::DistributedSampler(4, 3, false, 0, true)(2, 0).empty());
  CHECK(kt::dist::DistributedSampler(2, 1)(0, 0).empty());
  CHECK(kt_test::error_of([] { kt::dist::DistributedSampler(2, 2); }).find("rank 2 is not in [0, 2)") !=
        std::string::npos);
}

TEST_CASE("shuffled shards are disjoint and covering, change with the epoch, and set_epoch pins it for every copy") {
  const std::int64_t n = 1001;
  for (std::uint64_t epoch : {0u, 1u, 7u}) {
    std::vector<std::int64_t> seen;
    for (int r = 0; r < 4; ++r) {
      const auto shard = kt::dist::DistributedSampler(4, r, true, 42, true)(n, epoch);
      CHECK(shard.size() == 250u);
      seen.insert(seen.end(), shard.begin(), shard.end());
    }
    CHECK(std::set<std::int64_t>(seen.begin(), seen.end()).size() == 1000u);  // disjoint; one dropped
  }
  kt::dist::DistributedSampler sampler(2, 0, true, 42);
  CHECK(sampler(n, 0) != sampler(n, 1));
  kt::Sampler copy = sampler;  // what DataLoaderOptions holds
  sampler.set_epoch(5);
  CHECK(copy(n, 0) == kt::dist::DistributedSampler(2, 0, true, 42)(n, 5));
}

TEST_CASE("across the ranks, a DataLoader with DistributedSampler visits every sample once per epoch") {
  using D = Kokkos::Serial;
  const auto& world = kt::dist::world();
  const std::int64_t n = 100 * world.size();
  auto data = kt::arange<float, D>(0, static_cast<double>(n)).reshape({n, 1});
  auto labels = kt::zeros<std::int64_t, D>({n});
  kt::TensorDataset dataset(data, labels);
  kt::dist::DistributedSampler sampler(world, true, 3);
  auto loader = kt::make_data_loader<D>(dataset, kt::DataLoaderOptions().batch_size(16).sampler(sampler));
  for (std::uint64_t epoch = 0; epoch < 2; ++epoch) {
    loader.set_epoch(epoch);
    std::vector<float> mine;
    for (auto [x, y] : loader)
      for (float v : x.to_vector()) mine.push_back(v);
    REQUIRE(static_cast<std::int64_t>(mine.size()) == 100);
    auto all = kt::dist::all_gather(kt::from_host<float, D>(mine, {100})).to_vector();
    std::sort(all.begin(), all.end());
    std::vector<float> want(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) want[static_cast<std::size_t>(i)] = static_cast<float>(i);
    CHECK(all == want);
  }
}
