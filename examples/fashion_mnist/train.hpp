// examples/fashion_mnist/train.hpp: the training itself — data, model, Adam, the epochs, the
// test accuracy, checkpoints, the profile — as run<D>, a template on the device. train.cpp
// starts MPI and Kokkos, compiles it and picks the device that --device names; in a
// header-only Cuda build, train_device.cpp compiles the GPU's, in parallel with train.cpp.
// main.cpp reads the command line and makes the run summary's JSON.
#pragma once

#include "fashion_mnist.hpp"
#include "layers.hpp"

#include <kt/io/checkpoint.hpp>
#include <kt/kt.hpp>
#if defined(KT_ENABLE_MPI)
#include <kt/dist/dist.hpp>
#endif

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace fashion_mnist {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// One of the four files, with an error that says how to get them when it is missing.
inline std::string data_file(const Config& c, const char* name) {
  const fs::path path = fs::path(c.data) / name;
  KT_REQUIRE(fs::exists(path), "fashion_mnist: ", path.string(),
             " not found. The example reads the real Fashion-MNIST: install Debian's "
             "dataset-fashion-mnist package (./scripts/setup.sh does, or: sudo apt-get install "
             "dataset-fashion-mnist), or pass --data DIR for a directory holding "
             "train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz "
             "and t10k-labels-idx1-ubyte.gz");
  return path.string();
}

// The autocast region of the forward pass for --amp (none: no guard).
template <class D>
struct AmpRegion {
  explicit AmpRegion(const std::string& mode) {
    if (mode == "bf16") bf16.emplace();
    else if (mode == "fp16") fp16.emplace();
  }
  std::optional<kt::amp::autocast<D, kt::bfloat16>> bf16;
  std::optional<kt::amp::autocast<D, kt::half>> fp16;
};

// Test accuracy in chunks of 1000 under no-grad, in eval mode (torch.no_grad() + model.eval()).
template <class D>
double evaluate(kt::nn::Sequential<float, D>& model, const kt::Tensor<float, D>& x,
                const kt::Tensor<std::int64_t, D>& y, const std::string& amp) {
  kt::NoGradGuard no_grad;
  const AmpRegion<D> region(amp);  // evaluate as trained
  model.eval();
  std::int64_t correct = 0;
  const std::int64_t n = x.size(0);
  for (std::int64_t b = 0; b < n; b += 1000) {
    const std::int64_t e = std::min(n, b + 1000);
    const auto logits = model(kt::Var<float, D>(x.slice(b, e)));
    correct += kt::sum(kt::argmax(logits.data(), 1) == y.slice(b, e)).item();
  }
  model.train();
  return static_cast<double>(correct) / static_cast<double>(n);
}

// printf into a string (the epoch lines go to rank 0's stream only).
template <class... Args>
std::string format(const char* fmt, Args... args) {
  char line[256];
  std::snprintf(line, sizeof line, fmt, args...);
  return line;
}

// Trains on device D and returns the exit status; explicitly instantiated in train.cpp and
// train_device.cpp.
template <class D>
int run(Config c, const std::string& summary_path, const Ranks& ranks) {
  if (c.workers < 0) c.workers = kt::recommended_num_workers<D>();
  std::ostream null_stream(nullptr);  // what the other ranks print to
  std::ostream& out = ranks.main() ? std::cout : null_stream;
  out << "fashion_mnist on " << kt::device_name<D>() << " (" << kt::device_info<D>().concurrency
            << " threads), Kokkos " << KOKKOS_VERSION / 10000 << "." << KOKKOS_VERSION / 100 % 100 << "."
            << KOKKOS_VERSION % 100 << "\n";

  // 1. Data: gzip IDX. The training images stay uint8, (N, 784) rows on the host, and become
  // normalised floats while the loader gathers a batch (ToTensor + Normalize, fused); the test
  // set is normalised once and moved to the device.
  const auto t_load = Clock::now();
  auto train_x = kt::read_idx<std::uint8_t>(data_file(c, "train-images-idx3-ubyte.gz")).reshape({-1, 784});
  auto train_y = kt::read_idx<std::int64_t>(data_file(c, "train-labels-idx1-ubyte.gz"));
  auto test_x = kt::read_idx_float(data_file(c, "t10k-images-idx3-ubyte.gz"));
  auto test_y = kt::read_idx<std::int64_t>(data_file(c, "t10k-labels-idx1-ubyte.gz"));
  const kt::Normalize normalize(kMean, kStd);
  normalize.apply_(test_x);
  if (c.limit > 0 && c.limit < train_x.size(0)) {
    train_x = train_x.slice(0, c.limit);
    train_y = train_y.slice(0, c.limit);
  }
  kt::NormalizedDataset train(train_x, train_y, 1.0 / 255, normalize);
  const auto test_xd = test_x.reshape({-1, 784}).template to<D>();  // the test set stays on the device
  const auto test_yd = test_y.template to<D>();
  out << "data: " << train.size() << " train / " << test_xd.size(0) << " test images from " << c.data
            << " (" << std::chrono::duration<double>(Clock::now() - t_load).count() << " s)\n";

  // --distributed: each rank loads its DistributedSampler shard, batch_size / ranks per step.
  KT_REQUIRE(c.batch_size % ranks.size == 0, "fashion_mnist: --batch-size ", c.batch_size,
             " is the global batch and must split evenly over the ", ranks.size, " ranks");
  auto options = kt::DataLoaderOptions()
                     .batch_size(c.batch_size / ranks.size)
                     .shuffle(true)
                     .seed(c.seed)
                     .num_workers(c.workers)
                     .prefetch(4)
                     .pin_memory(true);
#if defined(KT_ENABLE_MPI)
  if (c.distributed) options.sampler(kt::dist::DistributedSampler(kt::dist::world(), /*shuffle=*/true, c.seed));
#endif
  auto loader = kt::make_data_loader<D>(train, options);

  // 2. Model: 784-256-128-10 with ReLU fused into the first two Linear layers; Adam(1e-3).
  kt::nn::Sequential<float, D> model;
  model.push_back(kt::nn::Linear<float, D>(
      kt::nn::LinearOptions(784, 256).activation(kt::Activation::ReLU).seed(3 * c.seed + 1)));
  model.push_back(kt::nn::Linear<float, D>(
      kt::nn::LinearOptions(256, 128).activation(kt::Activation::ReLU).seed(3 * c.seed + 2)));
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(128, 10).seed(3 * c.seed + 3)));
#if defined(KT_ENABLE_MPI)
  // DDP takes rank 0's weights and averages the gradients over the ranks during backward.
  std::optional<kt::dist::DistributedDataParallel<kt::nn::Sequential<float, D>>> ddp;
  if (c.distributed) ddp.emplace(model);
  auto forward = [&](const kt::Var<float, D>& x) { return ddp ? (*ddp)(x) : model(x); };
#else
  auto forward = [&](const kt::Var<float, D>& x) { return model(x); };
#endif
  kt::optim::Adam<float, D> opt(model.parameters(), kt::optim::AdamOptions(1e-3));
  // fp16 gradients underflow without loss scaling; bf16 has fp32's range (a disabled scaler
  // passes through).
  kt::amp::GradScaler scaler(kt::amp::GradScalerOptions().enabled(c.amp == "fp16"));
  out << model << "\n" << model.parameter_count() << " parameters; Adam lr 1e-3, batch " << c.batch_size
      << (ranks.size > 1 ? " (" + std::to_string(ranks.size) + " ranks x " + std::to_string(c.batch_size / ranks.size) + ")"
                         : std::string())
      << ", " << loader.size() << " steps/epoch, " << c.workers << " loader workers"
            << (c.amp == "none" ? std::string() : ", autocast " + c.amp) << "\n";

  // --resume: the model, Adam's state and the loader's epoch as the saved run left them.
  int first_epoch = 0;
  if (!c.resume.empty()) {
    const auto saved = kt::io::load_checkpoint(c.resume);
    kt::io::Restore()  // all or nothing: a bad part leaves every object as it was
        .add("loader", loader)  // refuses another --seed, --batch-size or --limit
        .add("model", model)
        .add("optimizer", opt)
        .add("scaler", scaler)
        .from(saved);
    first_epoch = static_cast<int>(to_int("the checkpoint's epoch", saved.get("epoch"), 0));
    out << "resumed from " << c.resume << " after epoch " << first_epoch << "\n";
  }

  // 3. Train. The step is one function, run through kt::StepGraph (a CUDA graph on a GPU) or
  //    eagerly. On host devices loss.item() costs nothing (kernels are synchronous); on a GPU
  //    it would wait for the step, so there we read the loss every 20th step only, for the
  //    progress bar; the epoch's loss is summed on the device, in the step.
  constexpr bool host_memory = kt::is_host_accessible_v<D>;
  if (c.step_mode == "auto")
    c.step_mode = !host_memory && c.amp != "fp16" && !c.distributed && c.profile.empty() ? "graph" : "eager";
  out << "training step: " << (c.step_mode == "graph" ? "kt::StepGraph (a CUDA graph on a GPU)" : "eager") << "\n";
  kt::Tensor<float, D> loss_sum = kt::zeros<float, D>({});
  auto train_step = [&](const kt::Tensor<float, D>& x, const kt::Tensor<std::int64_t, D>& y) {
    kt::Var<float, D> loss;
    {
      const AmpRegion<D> region(c.amp);  // the forward pass and the loss, as PyTorch's recipe
      loss = kt::cross_entropy(forward(kt::Var<float, D>(x)), y);
    }
    opt.zero_grad();
    scaler.scale(loss).backward();
    scaler.step(opt);
    scaler.update();
    loss_sum += loss.data();
    return loss.data();
  };
  auto graph = kt::make_step_graph<D>(train_step, kt::StepGraphOptions().name("fashion_mnist step"));
  kt::ProgressBar bar(loader.size(), kt::ProgressOptions().num_epochs(c.epochs), out);
  std::vector<EpochResult> results;
  double training_seconds = 0;
  // --profile: kt::Profiler over the whole training (torch.profiler.profile()); it fences
  // around every kernel, so the epochs run slower while it records.
  std::optional<kt::Profiler> profiler;
  if (!c.profile.empty()) profiler.emplace();
  for (int epoch = first_epoch; epoch < c.epochs; ++epoch) {
    loader.set_epoch(static_cast<std::uint64_t>(epoch));
    bar.start_epoch(epoch);
    loss_sum.fill_(0.0f);
    const auto t0 = Clock::now();
    std::int64_t step = 0;
    for (auto [x, y] : loader) {
      // A graph replays one shape: the epoch's last, partial batch takes the eager step.
      const bool replay = c.step_mode == "graph" && x.size(0) == c.batch_size / ranks.size;
      const kt::Tensor<float, D> loss = replay ? graph(x, y) : train_step(x, y);
      if (host_memory || step % 20 == 0) bar.step(x.size(0), loss.item());
      else bar.step(x.size(0));
      ++step;
    }
    double train_loss = loss_sum.item() / static_cast<double>(step);  // this rank's shard
    const double train_s = std::chrono::duration<double>(Clock::now() - t0).count();
    bar.finish_epoch();
    training_seconds += train_s;

    const auto t1 = Clock::now();
    const double accuracy = evaluate(model, test_xd, test_yd, c.amp);
    const double eval_s = std::chrono::duration<double>(Clock::now() - t1).count();
#if defined(KT_ENABLE_MPI)
    if (c.distributed) {
      auto mean = kt::from_host<double, kt::Host>({train_loss}, {1});
      kt::dist::all_reduce(mean, kt::dist::ReduceOp::avg);
      train_loss = mean.to_vector()[0];
    }
#endif
    results.push_back({epoch + 1, train_loss, accuracy, static_cast<double>(train.size()) / train_s, train_s,
                       eval_s});
    out << format("epoch %2d/%d  train loss %.4f  test accuracy %.2f%%  %.0f samples/s  epoch %.2f s (+ eval %.2f s)\n",
                  epoch + 1, c.epochs, train_loss, 100.0 * accuracy, results.back().samples_per_s, train_s, eval_s)
        << std::flush;
    if (!c.save.empty())
      kt::io::Checkpoint().add("model", model).add("optimizer", opt).add("scaler", scaler).add("loader", loader)
          .set("epoch", std::to_string(epoch + 1)).save(c.save);
  }

  if (profiler) {
    profiler->stop();
    out << "profile of the training (kt::Profiler, heaviest 15 rows by total time):\n" << profiler->table(kt::ProfileSort::Total, 15);
    profiler->export_chrome_trace(c.profile);
    out << "Chrome trace: " << c.profile << " (open in ui.perfetto.dev or chrome://tracing)\n";
  }
  if (!summary_path.empty() && ranks.main()) {
    kt::write_file_atomically(summary_path, summary_json(c, kt::device_name<D>(), kt::device_info<D>().concurrency,
                                                       train.size(), model.parameter_count(), results,
                                                       training_seconds));
    out << "run summary: " << summary_path << "\n";
  }
  if (results.empty()) {
    std::printf("Nothing to train: the run resumed from %s had finished %d epochs already\n", c.resume.c_str(), first_epoch);
    return 0;
  }
  // Which back-ends ran the matrix products (kt passes over a BLAS whose kernels are narrower than its own).
  const auto gemm = kt::tuning::stats();
  out << "matrix products: blas " << gemm.blas_calls << ", kt kernel " << gemm.kokkos_calls << ", eigen "
      << gemm.eigen_calls << ", cublas " << gemm.cublas_calls
      << (gemm.blas_core.empty() ? std::string()
                                 : " (OpenBLAS core " + gemm.blas_core +
                                       (gemm.blas_bypassed ? ": narrower than kt's kernel here, passed over)" : ")"))
      << "\n";
  out << format("Final test accuracy %.1f%% after %d epoch%s, training time %.1f s\n",
                100.0 * results.back().test_accuracy, c.epochs, c.epochs == 1 ? "" : "s", training_seconds)
      << std::flush;
  return 0;
}

}  // namespace fashion_mnist
