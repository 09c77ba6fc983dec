// The LibTorch side of bench_train: see train_libtorch.hpp. Compiled only when CMake finds
// LibTorch; no Kokkos in this translation unit.
#include "train_libtorch.hpp"

#include <torch/torch.h>
#include <torch/version.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace kt_bench {

struct TorchMlpStep::Impl {
  torch::nn::Sequential model;
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  torch::Tensor x, labels, loss;
};

TorchMlpStep::TorchMlpStep(std::vector<int> widths, int batch, const std::string& optimizer, int threads,
                           std::uint64_t seed)
    : impl_(std::make_unique<Impl>()) {
  if (widths.size() < 2) throw std::invalid_argument("kt_bench::TorchMlpStep: needs at least {in, classes}");
  if (threads > 0) torch::set_num_threads(threads);
  torch::manual_seed(seed);
  for (std::size_t l = 0; l + 1 < widths.size(); ++l) {
    impl_->model->push_back(torch::nn::Linear(widths[l], widths[l + 1]));
    if (l + 2 < widths.size()) impl_->model->push_back(torch::nn::ReLU());
  }
  impl_->x = torch::randn({batch, widths.front()});
  impl_->labels = torch::randint(0, widths.back(), {batch}, torch::kLong);
  if (optimizer == "sgd")
    impl_->optimizer = std::make_unique<torch::optim::SGD>(impl_->model->parameters(),
                                                           torch::optim::SGDOptions(0.01).momentum(0.9));
  else if (optimizer == "adam")
    impl_->optimizer = std::make_unique<torch::optim::Adam>(impl_->model->parameters(), torch::optim::AdamOptions(1e-3));
  else
    throw std::invalid_argument("kt_bench::TorchMlpStep: optimizer must be \"sgd\" or \"adam\", got \"" + optimizer +
                                "\"");
}

TorchMlpStep::~TorchMlpStep() = default;
TorchMlpStep::TorchMlpStep(TorchMlpStep&&) noexcept = default;
TorchMlpStep& TorchMlpStep::operator=(TorchMlpStep&&) noexcept = default;

void TorchMlpStep::step() {
  Impl& s = *impl_;
  s.optimizer->zero_grad();
  s.loss = torch::nn::functional::cross_entropy(s.model->forward(s.x), s.labels);
  s.loss.backward();
  s.optimizer->step();
}

double TorchMlpStep::last_loss() const {
  return impl_->loss.defined() ? impl_->loss.item<double>() : std::numeric_limits<double>::quiet_NaN();
}

std::string TorchMlpStep::version() { return TORCH_VERSION; }

std::string TorchMlpStep::config() {
  std::ostringstream out;
  out << "intra-op threads=" << torch::get_num_threads() << " interop threads=" << at::get_num_interop_threads();
  // at::show_config() is a long report; keep the settings that bear on CPU speed.
  const std::string config = at::show_config();
  for (const char* key : {"BLAS_INFO=", "USE_MKLDNN=", "USE_OPENMP="}) {
    const auto at = config.find(key);
    if (at != std::string::npos) out << " " << config.substr(at, config.find_first_of(",\n", at) - at);
  }
  out << (at::hasOpenMP() ? " parallel=OpenMP" : " parallel=native");
  return out.str();
}

}  // namespace kt_bench
