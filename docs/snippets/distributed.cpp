// The kt side of every snippet in docs/distributed.md, compiled and run by ctest ("docs: the
// snippets of distributed.md run", "docs: distributed.md shows the snippets of
// docs/snippets/distributed.cpp"). A region between two `// [name]` lines is what
// distributed.md shows under `<!-- snippet: name -->`, without the indentation of its marker
// line; edit here, then copy into distributed.md (the second test fails until the two agree).
//
// Built when kt::dist is (KT_ENABLE_MPI), and run as one process without mpirun (an MPI
// singleton: a world of one rank), which every kt::dist program also is.

#include <kt/dist/dist.hpp>
#include <kt/kt.hpp>

#include <cstdint>
#include <iostream>
#include <vector>

namespace pieces_program {

// The same model on every rank: seeded layers.
kt::nn::Sequential<float, kt::DefaultDevice> make_model() {
  using D = kt::DefaultDevice;
  kt::nn::Sequential<float, D> model;
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(16, 32).seed(1)));
  model.push_back(kt::nn::ReLU<float, D>());
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(32, 4).seed(2)));
  return model;
}

// The same samples on every rank: 512 of 16 features, 4 classes.
kt::TensorDataset<float, std::int64_t> load_training_set() {
  return {kt::randn<float, kt::Host>({512, 16}, /*seed=*/3), kt::randint<std::int64_t, kt::Host>(0, 4, {512}, /*seed=*/4)};
}

// [pieces]
int main(int argc, char** argv) {
  auto mpi = kt::dist::init(argc, argv);                 // MPI_Init unless the app did it
  kt::Runtime runtime(kt::dist::runtime_options());      // one GPU per rank on Cuda
  using D = kt::DefaultDevice;
  const auto& world = kt::dist::world();                 // rank(), size(), local_rank()

  kt::nn::Sequential<float, D> model = make_model();     // the same on every rank
  kt::dist::DistributedDataParallel ddp(model);          // rank 0's weights everywhere
  kt::optim::Adam<float, D> opt(model.parameters(), kt::optim::AdamOptions(1e-3));
  const auto train = load_training_set();                // a kt::TensorDataset, the same on every rank
  auto loader = kt::make_data_loader<D>(train, kt::DataLoaderOptions().batch_size(256 / world.size())
                                                   .sampler(kt::dist::DistributedSampler(world)));
  for (int epoch = 0; epoch < 10; ++epoch) {
    loader.set_epoch(epoch);
    for (auto [x, y] : loader) {
      auto loss = kt::cross_entropy(ddp(kt::Var<float, D>(x)), y);
      opt.zero_grad();
      loss.backward();                                   // gradients averaged while it runs
      opt.step();
    }
    kt::dist::print0("epoch ", epoch, " done");          // rank 0 only
  }
  return 0;
}
// [pieces]

}  // namespace pieces_program

namespace {

void collectives() {
  // [collectives]
  using D = kt::DefaultDevice;
  const auto& world = kt::dist::world();
  auto t = kt::full<float, D>({4}, float(world.rank() + 1));
  kt::dist::all_reduce(t, kt::dist::ReduceOp::sum);      // blocking, in place: 1 + 2 + ... + R everywhere
  auto all = kt::dist::all_gather(t);                    // (R * 4): every rank's t, in rank order
  auto block = kt::empty<float, D>({4});
  kt::dist::reduce_scatter(block, all, kt::dist::ReduceOp::max);   // this rank's block of the maximum
  kt::dist::broadcast(t, /*root=*/0);                    // rank 0's t on every rank
  kt::dist::barrier();
  std::cout << kt::dist::reduce_op_name(kt::dist::ReduceOp::avg) << "\n";   // "avg"
  // [collectives]
  const float want = float(world.size() * (world.size() + 1) / 2);
  KT_REQUIRE(t.to_vector()[0] == want && block.to_vector()[3] == want && all.numel() == 4 * world.size(),
             "distributed: the collectives gave ", t, ", ", block, " and ", all.shape());
}

void async_collectives() {
  // [async_collectives]
  using D = kt::DefaultDevice;
  const auto& world = kt::dist::world();
  const std::int64_t R = world.size();
  auto grads = kt::randn<float, D>({1 << 16}, /*seed=*/world.rank());
  auto weights = kt::randn<float, D>({1000}, /*seed=*/7);
  auto local = kt::full<float, D>({8}, float(world.rank()));
  auto gathered = kt::empty<float, D>({8 * R});
  auto shard = kt::empty<float, D>({(1 << 16) / R});
  std::vector<kt::dist::Work> pending;                   // torch.distributed's async_op=True
  pending.push_back(kt::dist::all_reduce_async(grads, kt::dist::ReduceOp::avg));
  pending.push_back(kt::dist::broadcast_async(weights, /*root=*/0));
  pending.push_back(kt::dist::all_gather_async(gathered, local));
  pending.push_back(kt::dist::barrier_async());
  // ... other work, touching none of these tensors, then:
  for (auto& work : pending) work.wait();                // or poll work.is_completed()
  kt::dist::reduce_scatter_async(shard, grads).wait();   // the tensors' values are in place after wait()
  // [async_collectives]
  KT_REQUIRE(gathered.to_vector()[8 * (R - 1)] == float(R - 1), "distributed: all_gather_async gave ", gathered);
  KT_REQUIRE(shard.numel() * R == grads.numel(), "distributed: reduce_scatter_async's shard has ", shard.numel(),
             " elements");
}

void process_group() {
  using D = kt::DefaultDevice;
  auto t = kt::ones<float, D>({4});
  // [process_group]
  MPI_Comm halves = MPI_COMM_NULL;                       // e.g. the even and the odd ranks
  MPI_Comm_split(MPI_COMM_WORLD, kt::dist::world().rank() % 2, 0, &halves);
  {
    kt::dist::ProcessGroup group(halves);                // kt works on a duplicate of halves
    MPI_Comm own = group.comm();                         // that duplicate, for MPI calls of your own
    kt::dist::all_reduce(t, kt::dist::ReduceOp::sum, group);   // the group is the last argument
    int members = 0;
    MPI_Comm_size(own, &members);                        // group.size()
  }
  MPI_Comm_free(&halves);
  // [process_group]
  const int world_size = kt::dist::world().size();
  const float want = float(world_size / 2 + (world_size % 2 != 0 && kt::dist::world().rank() % 2 == 0 ? 1 : 0));
  KT_REQUIRE(t.to_vector()[0] == want, "distributed: the group's all_reduce gave ", t, ", not ", want);
}

void ddp_options() {
  using D = kt::DefaultDevice;
  using pieces_program::make_model;
  const auto x = kt::randn<float, D>({64, 16}, /*seed=*/5);
  const auto y = kt::randint<std::int64_t, D>(0, 4, {64}, /*seed=*/6);
  // [ddp_options]
  kt::nn::Sequential<float, D> model = make_model();
  auto options = kt::dist::DistributedDataParallelOptions()
      .bucket_cap_mb(4)             // gradient bytes per bucket (default 25 MiB)
      .first_bucket_cap_mb(0.25);   // the first bucket: the last layers' gradients (default 1 MiB)
  kt::dist::DistributedDataParallel ddp(model, options);   // on kt::dist::world(), or a group given third
  std::cout << ddp.bucket_count() << " buckets, closed at " << options.bucket_bytes() << " B, the first at "
            << options.first_bucket_bytes() << " B\n";
  {
    auto guard = ddp.no_sync();                            // backward accumulates, no communication
    kt::cross_entropy(ddp(kt::Var<float, D>(x)), y).backward();
  }
  kt::cross_entropy(ddp(kt::Var<float, D>(x)), y).backward();   // averages the two batches' sums
  // [ddp_options]
  KT_REQUIRE(ddp.bucket_count() >= 1 && options.first_bucket_bytes() == (std::size_t{1} << 18),
             "distributed: ", ddp.bucket_count(), " buckets, the first of ", options.first_bucket_bytes(), " B");
}

void sampler() {
  // [sampler]
  kt::dist::DistributedSampler sampler(/*num_replicas=*/4, /*rank=*/1, /*shuffle=*/true, /*seed=*/0,
                                       /*drop_last=*/false);
  std::int64_t per_rank = sampler.num_samples(10);          // 3: 10 samples padded to 12, 3 per rank
  std::vector<std::int64_t> shard = sampler(10, /*epoch=*/0);   // positions 1, 5, 9 of epoch 0's order
  sampler.set_epoch(5);                                     // pins epoch 5, for every copy of sampler
  std::cout << "rank " << sampler.rank() << " of " << sampler.num_replicas() << ": " << per_rank << " samples\n";
  // [sampler]
  KT_REQUIRE(per_rank == 3 && shard.size() == 3, "distributed: a shard of ", shard.size(), " samples");
  KT_REQUIRE(sampler(10, 0) == sampler(10, 7), "distributed: set_epoch did not pin the epoch");
}

}  // namespace

int main(int argc, char** argv) {
  // [environment]
  auto mpi = kt::dist::init(argc, argv);
  std::cout << (mpi.owns_mpi() ? "kt started MPI" : "the application had started MPI")   // and finalises it
            << ", thread level " << mpi.thread_level() << "\n";   // MPI_THREAD_FUNNELED is all kt needs
  // [environment]
  try {
    kt::Runtime runtime(argc, argv);
    KT_REQUIRE(pieces_program::main(argc, argv) == 0, "distributed: the program of the pieces failed");
    collectives();
    async_collectives();
    process_group();
    ddp_options();
    sampler();
  } catch (const kt::Error& e) {
    std::cerr << "error: " << e.message() << "\n";
    return 1;
  }
  kt::dist::print0("every snippet of docs/distributed.md ran");
  return 0;
}
