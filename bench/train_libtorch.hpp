#pragma once
// The LibTorch twin of kt's training-step benchmark (bench_train.cpp): an MLP training step
// written with LibTorch's C++ frontend, behind a plain C++ interface — no torch and no Kokkos
// types here, so bench_train.cpp compiles without LibTorch's headers and train_libtorch.cpp
// without Kokkos'. Built only when CMake finds LibTorch (KT_BENCH_HAVE_LIBTORCH).
//
//   kt_bench::TorchMlpStep step({784, 512, 512, 10}, 256, "sgd", /*threads=*/2, /*seed=*/1);
//   step.step();   // zero_grad + forward + cross-entropy + backward + optimizer step

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kt_bench {

/// One training step of an MLP in LibTorch: torch::nn::Sequential(Linear, ReLU, ..., Linear),
/// cross-entropy on class indices, SGD (lr 0.01, momentum 0.9) or Adam (lr 1e-3), on a fixed
/// random batch created once (inputs N(0, 1), labels uniform over the last width's classes).
class TorchMlpStep {
public:
  /// widths: {in, hidden..., classes}; optimizer: "sgd" (with momentum) or "adam"; threads:
  /// torch::set_num_threads (process-wide, like LibTorch's own); seed: torch::manual_seed.
  TorchMlpStep(std::vector<int> widths, int batch, const std::string& optimizer, int threads, std::uint64_t seed);
  ~TorchMlpStep();
  TorchMlpStep(TorchMlpStep&&) noexcept;
  TorchMlpStep& operator=(TorchMlpStep&&) noexcept;
  TorchMlpStep(const TorchMlpStep&) = delete;
  TorchMlpStep& operator=(const TorchMlpStep&) = delete;

  /// zero_grad + forward + loss + backward + optimizer.step() (synchronous on the CPU).
  void step();
  /// The loss of the last step (NaN before the first).
  double last_loss() const;

  /// "1.13.1" (TORCH_VERSION).
  static std::string version();
  /// LibTorch's intra-op threads (torch::get_num_threads()), its BLAS and parallel back-end.
  static std::string config();

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kt_bench
