// kt::dist's collectives on 2+ ranks, for every device and dtype, against serial references:
// each rank's values are a known function of (rank, index), so every rank can compute what
// the sum, maximum, gathered or scattered result must be without communication.

#include "kt_test.hpp"

#include <kt/dist/dist.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace {

// Rank r's element i: small non-negative integers, exact in every dtype (uint8 and bfloat16
// included) and in their sums over a few ranks.
double value(int rank, std::int64_t i) { return static_cast<double>((i * 5 + 3) % 11 + 2 * rank); }

template <class T, class D>
kt::Tensor<T, D> rank_tensor(int rank, std::int64_t n, std::int64_t offset = 0) {
  std::vector<T> host(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) host[static_cast<std::size_t>(i)] = static_cast<T>(value(rank, offset + i));
  return kt::from_host<T, D>(host, {n});
}

}  // namespace

#define KT_DIST_CASES KT_ALL_FLOAT_CASES, KT_CASES(std::int32_t), KT_CASES(std::int64_t), KT_CASES(std::uint8_t)

TEST_CASE_TEMPLATE("all_reduce sums, maximises, minimises and averages over the ranks", C, KT_DIST_CASES) {
  using D = typename C::device;
  using T = typename C::dtype;
  const auto& world = kt::dist::world();
  const int size = world.size();
  const std::int64_t n = 1000;  // several MPI fragments, odd remainder
  for (auto op : {kt::dist::ReduceOp::sum, kt::dist::ReduceOp::max, kt::dist::ReduceOp::min, kt::dist::ReduceOp::avg}) {
    CAPTURE(kt::dist::reduce_op_name(op));
    auto t = rank_tensor<T, D>(world.rank(), n);
    if (op == kt::dist::ReduceOp::avg && !kt::is_floating_dtype_v<T>) {
      CHECK(kt_test::error_of([&] { kt::dist::all_reduce(t, op); }).find("avg needs a floating dtype") !=
            std::string::npos);
      continue;
    }
    std::vector<double> want(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      double acc = op == kt::dist::ReduceOp::min ? 1e300 : op == kt::dist::ReduceOp::max ? -1e300 : 0;
      for (int r = 0; r < size; ++r) {
        const double v = value(r, i);
        acc = op == kt::dist::ReduceOp::max ? std::max(acc, v) : op == kt::dist::ReduceOp::min ? std::min(acc, v) : acc + v;
      }
      want[static_cast<std::size_t>(i)] = op == kt::dist::ReduceOp::avg ? acc / size : acc;
    }
    kt::dist::all_reduce(t, op);
    CHECK(kt_test::all_close(kt_test::as_double(t.to_vector()), want, kt_test::tolerance<T>()));
  }
}

TEST_CASE_TEMPLATE("16-bit all_reduce works in fp32: an average of large halves does not overflow", D, KT_DEVICES) {
  // 60000 on every rank: the sum (120000 on 2 ranks) is past half's largest value (65504), so
  // a reduction kept in half would give inf; in fp32 the average is 60000, which half holds.
  auto t = kt::from_host<kt::half, D>({kt::half(60000.0f), kt::half(-60000.0f)}, {2});
  kt::dist::all_reduce(t, kt::dist::ReduceOp::avg);
  const auto got = t.to_vector();
  CHECK(static_cast<float>(got[0]) == 60000.0f);
  CHECK(static_cast<float>(got[1]) == -60000.0f);
}

TEST_CASE_TEMPLATE("broadcast copies the root's tensor to every rank", C, KT_DIST_CASES) {
  using D = typename C::device;
  using T = typename C::dtype;
  const auto& world = kt::dist::world();
  const int root = world.size() - 1;
  auto t = rank_tensor<T, D>(world.rank(), 77);
  kt::dist::broadcast(t, root);
  CHECK(kt_test::as_double(t.to_vector()) == kt_test::as_double(rank_tensor<T, D>(root, 77).to_vector()));
  CHECK(kt_test::error_of([&] { kt::dist::broadcast(t, world.size()); }).find("is not a rank") != std::string::npos);
}

TEST_CASE_TEMPLATE("all_gather concatenates the ranks' tensors in rank order", C, KT_DIST_CASES) {
  using D = typename C::device;
  using T = typename C::dtype;
  const auto& world = kt::dist::world();
  auto mine = rank_tensor<T, D>(world.rank(), 6).reshape({2, 3});
  auto all = kt::dist::all_gather(mine);
  CHECK(all.shape() == kt::Shape{2 * world.size(), 3});
  std::vector<double> want;
  for (int r = 0; r < world.size(); ++r)
    for (double v : kt_test::as_double(rank_tensor<T, D>(r, 6).to_vector())) want.push_back(v);
  CHECK(kt_test::as_double(all.to_vector()) == want);
  auto wrong = kt::Tensor<T, D>(kt::Shape{5}, D());
  CHECK(kt_test::error_of([&] { kt::dist::all_gather(wrong, mine); }).find("must hold") != std::string::npos);
}

TEST_CASE_TEMPLATE("reduce_scatter gives each rank its block of the reduction", C, KT_DIST_CASES) {
  using D = typename C::device;
  using T = typename C::dtype;
  const auto& world = kt::dist::world();
  const std::int64_t block = 5;
  auto input = rank_tensor<T, D>(world.rank(), block * world.size());
  auto output = kt::Tensor<T, D>(kt::Shape{block}, D());
  kt::dist::reduce_scatter(output, input, kt::dist::ReduceOp::sum);
  std::vector<double> want;
  for (std::int64_t i = 0; i < block; ++i) {
    double sum = 0;
    for (int r = 0; r < world.size(); ++r) sum += value(r, world.rank() * block + i);
    want.push_back(sum);
  }
  CHECK(kt_test::as_double(output.to_vector()) == want);
}

TEST_CASE_TEMPLATE("non-blocking collectives complete on wait, in any number at once", D, KT_DEVICES) {
  const auto& world = kt::dist::world();
  std::vector<kt::Tensor<float, D>> tensors;
  std::vector<kt::dist::Work> works;
  for (int k = 0; k < 8; ++k) {
    tensors.push_back(rank_tensor<float, D>(world.rank(), 1 << 14, k));
    works.push_back(kt::dist::all_reduce_async(tensors.back(), kt::dist::ReduceOp::avg));
  }
  works.push_back(kt::dist::barrier_async());
  for (auto& w : works) w.wait();
  for (auto& w : works) CHECK(w.is_completed());
  for (int k = 0; k < 8; ++k) {
    const auto got = tensors[static_cast<std::size_t>(k)].to_vector();
    double want = 0;
    for (int r = 0; r < world.size(); ++r) want += value(r, k + 100);
    CHECK(got[100] == doctest::Approx(want / world.size()));
  }
  kt::dist::barrier();
}

TEST_CASE("process group facts: rank, size, local rank and a group over another communicator") {
  const auto& world = kt::dist::world();
  CHECK(world.size() >= 2);  // the tests are run by mpiexec -n 2
  CHECK(world.rank() >= 0);
  CHECK(world.rank() < world.size());
  CHECK(world.local_size() == world.size());  // one node
  CHECK(world.local_rank() == world.rank());
  // A group of its own communicator: its collectives never match the world group's.
  kt::dist::ProcessGroup other(MPI_COMM_WORLD);
  auto t = kt::from_host<double, Kokkos::Serial>({1.0}, {1});
  other.all_reduce(t);
  CHECK(t.to_vector()[0] == world.size());
}
