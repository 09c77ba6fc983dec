// A distributed training job in which rank 1 fails in the middle of backward (its gradient
// hook throws) while rank 0 goes on into the all-reduce and waits there for rank 1. The job
// must end anyway, with rank 1's message: failure_check.cmake runs this through mpiexec and
// checks the exit status, the output, the time and that no process is left.
#include <kt/dist/dist.hpp>
#include <kt/kt.hpp>

int main(int argc, char** argv) {
  auto mpi = kt::dist::init(argc, argv);
  kt::Runtime runtime(kt::dist::runtime_options());
  using D = kt::Host;
  kt::nn::Sequential<float, D> model;
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(8, 8).seed(1)));
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(8, 2).seed(2)));
  kt::dist::DistributedDataParallel ddp(model, kt::dist::DistributedDataParallelOptions().first_bucket_cap_mb(1e-5));
  const auto& world = kt::dist::world();
  if (world.rank() == 1)  // the first layer's gradient: after the first bucket started
    model.parameters()[0].register_post_accumulate_grad_hook([](const kt::Var<float, D>&) {
      KT_THROW("injected failure on rank 1 during backward");
    });
  auto x = kt::randn<float, D>({4, 8}, 7);
  auto y = kt::zeros<std::int64_t, D>({4});
  kt::cross_entropy(ddp(kt::Var<float, D>(x)), y).backward();
  kt::dist::print0("not reached: rank 0 waits for rank 1 in the all-reduce");
  return 0;
}
