// The kt side of every snippet in docs/guide.md, compiled and run by ctest ("docs: the
// snippets of guide.md run", "docs: guide.md shows the snippets of docs/snippets/guide.cpp"). A region between
// two `// [name]` lines is what guide.md shows under `<!-- snippet: name -->`, without the
// indentation of its marker line; edit here, then copy into guide.md (the second test fails
// until the two agree).

#include <kt/io/checkpoint.hpp>
#include <kt/io/module_io.hpp>
#include <kt/kt.hpp>

#include "run_page.hpp"

#include <cstdint>
#include <iostream>
#include <memory>
#include <string>

namespace {

// [devices]
int run_on_best_device() {
  // torch.device("cuda" if torch.cuda.is_available() else "cpu"), among the compiled-in devices
  return kt::dispatch_device("auto", [](auto tag) {
    using D = typename decltype(tag)::type;    // kt::Cuda with a GPU, else kt::OpenMP, else kt::Serial
    std::cout << "training on " << kt::device_name<D>() << " (" << kt::device_info<D>().concurrency << " threads)\n";
    return 0;                                  // ... the program, written once for any D
  });
}
// [devices]

// [custom_module]
template <class D>
struct Residual : kt::nn::Module<float, D> {   // class Residual(nn.Module)
  std::shared_ptr<kt::nn::Linear<float, D>> fc1, fc2;
  Residual(std::int64_t n, std::int64_t hidden) {
    fc1 = this->register_module("fc1", kt::nn::Linear<float, D>(kt::nn::LinearOptions(n, hidden)));
    fc2 = this->register_module("fc2", kt::nn::Linear<float, D>(kt::nn::LinearOptions(hidden, n)));
  }
  kt::Var<float, D> forward(const kt::Var<float, D>& x) override { return x + (*fc2)(kt::relu((*fc1)(x))); }
};
// [custom_module]

void tensors() {
  // [tensors]
  using D = kt::DefaultDevice;
  auto x = kt::randn<float, kt::Host>({64, 784});      // torch.randn(64, 784), kt::manual_seed(s) seeds it
  auto xd = x.to<D>();                                 // x.to(device): a deep_copy (none if D shares x's memory)
  auto y = kt::relu(kt::matmul(xd, kt::ones<float, D>({784, 10})));
  std::cout << y.device() << " " << y.shape() << "\n";  // where it lives, at run time
  std::vector<float> values = y.to_vector();           // y.cpu().tolist()
  // [tensors]
  (void)values;
}

void moving_models() {
  // [moving_models]
  using D = kt::DefaultDevice;
  auto net = kt::nn::make_module<Residual<kt::Host>>(4, 8);   // std::make_shared<Residual>(4, 8)
  auto model = kt::nn::to<D>(net);                    // model = net.to(device): a copy on D (D may be the host)
  kt::optim::Adam<float, D> opt(model->parameters()); // build the optimizer after the move

  kt::nn::Sequential<float, kt::Host> stack;          // nn.Sequential(Residual(4, 8), nn.Tanh())
  stack.push_back(net);
  stack.push_back(kt::nn::Tanh<float, kt::Host>());
  auto stack_on_d = stack.to<D>();                    // every child rebuilt on D, state copied
  // [moving_models]
  KT_REQUIRE(model->parameters()[0].data().to_vector() == net->parameters()[0].data().to_vector() &&
                 stack_on_d.parameter_count() == net->parameter_count(),
             "guide: a moved model lost its state");
  (void)opt;
}

void data_loader() {
  // [data_loader]
  using D = kt::DefaultDevice;
  kt::TensorDataset data(kt::randn<float, kt::Host>({1000, 8}), kt::randint<std::int64_t, kt::Host>(0, 3, {1000}));
  auto loader = kt::make_data_loader<D>(data, kt::DataLoaderOptions()
                                                  .batch_size(64)
                                                  .shuffle(true)
                                                  .seed(0)
                                                  .num_workers(2)
                                                  .pin_memory(true));
  for (int epoch = 0; epoch < 2; ++epoch) {
    loader.set_epoch(epoch);                           // this pass's order (each pass also advances it)
    for (auto [x, y] : loader) {                       // (64, 8) float and (64) int64, already on D
      (void)x, (void)y;
    }
  }
  // [data_loader]
}

void training() {
  // [training]
  using D = kt::DefaultDevice;
  Residual<D> model(8, 32);
  kt::optim::SGD<float, D> opt(model.parameters(), kt::optim::SGDOptions(0.05).momentum(0.9));
  const auto x = kt::randn<float, D>({256, 8});
  const auto target = x * 2.0f;
  model.train();
  for (int step = 0; step < 100; ++step) {
    auto loss = kt::mse_loss(model(x), target);        // F.mse_loss: Tensors and Vars mix
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  model.eval();
  kt::NoGradGuard no_grad;                             // with torch.no_grad():
  const float error = kt::mse_loss(model(x), target).item();
  std::cout << "mse after training: " << error << "\n";
  // [training]
  KT_REQUIRE(error < 0.05f, "guide: the training snippet did not train (mse ", error, ")");
}

void memory() {
  // [memory]
  using D = kt::DefaultDevice;
  kt::reset_peak_memory_stats<D>();
  {
    auto big = kt::zeros<float, D>({1024, 1024});
  }                                                    // freed into kt's cache, not to the system
  kt::MemoryStats s = kt::memory_stats<D>();           // torch.cuda.memory_stats()
  std::cout << "peak " << s.peak_allocated << " B, cached " << s.cached() << " B\n";
  kt::empty_cache<D>();                                // torch.cuda.empty_cache()
  // [memory]
}

void modes() {
  // [modes]
  kt::tuning::set_benchmark(true);       // torch.backends.cudnn.benchmark = True: time the GEMM back-ends once per shape
  kt::tuning::set_deterministic(true);   // torch.use_deterministic_algorithms(True): same bits for any thread count
  // [modes]
  kt::tuning::set_benchmark(false);
  kt::tuning::set_deterministic(false);
}

void profiling() {
  // [profiling]
  using D = kt::DefaultDevice;
  kt::Profiler profiler;                               // with torch.profiler.profile() as prof:
  {
    kt::ScopedRegion region("my_app::step");           // with torch.profiler.record_function("my_app::step"):
    auto y = kt::softmax(kt::randn<float, D>({512, 512}), 1);
  }
  profiler.stop();
  std::cout << profiler.table(kt::ProfileSort::Total, 5);   // prof.key_averages().table(row_limit=5)
  profiler.export_chrome_trace("guide_trace.json");         // prof.export_chrome_trace(...)
  // [profiling]
  std::remove("guide_trace.json");
}

void saving() {
  // [saving]
  using D = kt::DefaultDevice;
  Residual<D> model(4, 8), restored(4, 8);
  kt::io::save(model, "guide_model.safetensors");          // torch.save(model.state_dict(), ...) as safetensors
  kt::io::load(restored, "guide_model.safetensors");       // strict: every key, shape and dtype must match
  auto file = kt::io::load_safetensors("guide_model.safetensors");
  auto w = file.get<float, D>("fc1.weight");               // one tensor, read on request
  // [saving]
  KT_REQUIRE(w.shape() == kt::Shape({8, 4}), "guide: fc1.weight has shape ", w.shape());
  std::remove("guide_model.safetensors");
}

void mixed_precision() {
  using D = kt::DefaultDevice;
  // [mixed_precision]
  Residual<D> model(8, 32);                              // fp32 master weights
  kt::optim::SGD<float, D> opt(model.parameters(), 0.05);
  kt::amp::GradScaler scaler;                            // 65536, x2 after 2000 clean steps, x0.5 on Inf/NaN
  const auto x = kt::randn<float, D>({256, 8}, 1);
  const auto target = x * 2.0f;
  for (int step = 0; step < 5; ++step) {
    opt.zero_grad();
    kt::Var<float, D> loss;
    {
      kt::amp::autocast<D, kt::half> guard;              // torch.autocast(device_type, dtype=torch.float16)
      loss = kt::mse_loss(model(x), target);             // Linear in fp16 (fp32 accumulation), the loss in fp32
    }
    scaler.scale(loss).backward();                       // the fp32 weights get fp32 gradients, scaled
    scaler.step(opt);                                    // unscales; skipped if a gradient is Inf/NaN
    scaler.update();
  }
  // [mixed_precision]
  KT_REQUIRE(scaler.get_scale() == 65536.0, "guide: the scale changed to ", scaler.get_scale());
}

void resuming() {
  using D = kt::DefaultDevice;
  Residual<D> model(4, 8);
  kt::optim::Adam<float, D> opt(model.parameters(), 1e-3);
  kt::optim::StepLR sched(opt, /*step_size=*/10);
  auto loader = kt::make_data_loader<D>(kt::TensorDataset(kt::randn<float, kt::Host>({64, 4}), kt::randn<float, kt::Host>({64, 8})),
                                        kt::DataLoaderOptions().batch_size(16).shuffle(true));
  const int epoch = 3;
  // [resuming]
  kt::io::Checkpoint().add("model", model).add("optimizer", opt).add("scheduler", sched)
      .add("loader", loader).set("epoch", std::to_string(epoch)).save("guide_run.safetensors");
  // ... a new process builds the same objects, then:
  const auto saved = kt::io::load_checkpoint("guide_run.safetensors");
  kt::io::Restore()                      // all or nothing: every part checked first
      .add("model", model)               // strict, as kt::io::load
      .add("optimizer", opt)             // exp_avg, exp_avg_sq, step; lr, betas, ...
      .add("scheduler", sched)
      .add("loader", loader)             // the epoch; refuses another seed or batch size
      .from(saved);
  const int next_epoch = std::stoi(saved.get("epoch"));
  // [resuming]
  KT_REQUIRE(next_epoch == epoch, "guide: the checkpoint's epoch is ", next_epoch);
  std::remove("guide_run.safetensors");
}

}  // namespace

// Outside the anonymous namespace: nvcc wants an extended lambda's enclosing function to
// have external linkage.
void custom_kernel() {
  // [custom_kernel]
  using D = kt::DefaultDevice;
  auto x = kt::randn<float, D>({256, 100});
  auto norms = kt::empty<float, D>({256});
  const auto xv = x.view<2>();                         // Kokkos::View<float**> over the tensor's memory
  const auto nv = norms.view<1>();
  Kokkos::parallel_for("my_app::row_norms", Kokkos::RangePolicy<D>(0, 256), KOKKOS_LAMBDA(int i) {
    float s = 0;
    for (int j = 0; j < 100; ++j) s += xv(i, j) * xv(i, j);
    nv(i) = s;
  });
  auto check = kt::sum(x * x, 1);                      // kt ops on D run after the kernel above
  // [custom_kernel]
  KT_REQUIRE(kt::max(kt::abs(norms - check)).item() < 1e-3f, "guide: the custom kernel disagrees with kt ops");
}

int main(int argc, char* argv[]) {
  return kt_docs::run_page(argc, argv, "guide.md", [&] {
    run_on_best_device();
    tensors();
    moving_models();
    data_loader();
    training();
    memory();
    modes();
    custom_kernel();
    profiling();
    mixed_precision();
    saving();
    resuming();
  });
}
