#pragma once
/// \file kt/dist/distributed_data_parallel.hpp
/// Data-parallel training over MPI processes (`torch.nn.parallel.DistributedDataParallel`):
/// every rank holds the whole model and trains on its own shard of each global batch; the
/// gradients are averaged over the ranks during backward, so the optimizers (and GradScaler)
/// step exactly as one process would with the global batch — unchanged code after backward().
///
///     kt::nn::Sequential<float, D> model = ...;                // the same on every rank
///     kt::dist::DistributedDataParallel ddp(model);          // broadcasts rank 0's weights
///     kt::optim::Adam<float, D> opt(model.parameters(), ...);
///     for (auto [x, y] : loader) {                            // a DistributedSampler shard
///       auto loss = kt::cross_entropy(ddp(kt::Var<float, D>(x)), y);
///       opt.zero_grad();
///       loss.backward();                                      // all-reduces while it runs
///       opt.step();
///     }
///     { auto guard = ddp.no_sync(); loss.backward(); }        // accumulate, no communication
///
/// At construction every rank checks that it has rank 0's parameter names and shapes (a
/// kt::Error naming the first difference, on every rank), then takes rank 0's parameters and
/// buffers. The wrapper refers to the model, which must outlive it. kt/dist/impl/reducer.hpp
/// explains the buckets. The loss must be averaged over the local batch (the default of kt's
/// losses): the average of the ranks' averages is the global batch's average when the shards
/// are of equal size, which DistributedSampler guarantees.

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/impl/compiled.hpp"
#include "kt/dist/environment.hpp"
#include "kt/dist/impl/reducer.hpp"
#include "kt/dist/process_group.hpp"
#include "kt/nn/sequential.hpp"

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace kt::dist {

class DistributedDataParallelOptions {
public:
  /// Gradient bytes per bucket (PyTorch's bucket_cap_mb, default 25 MiB).
  DistributedDataParallelOptions& bucket_cap_mb(double mb) {
    KT_REQUIRE(mb > 0, "kt::dist::DistributedDataParallelOptions::bucket_cap_mb: must be > 0, got ", mb);
    bucket_bytes_ = static_cast<std::size_t>(mb * 1024 * 1024);
    return *this;
  }
  /// The first bucket's size (the last layers' gradients), small so communication starts
  /// early; default 1 MiB as PyTorch.
  DistributedDataParallelOptions& first_bucket_cap_mb(double mb) {
    KT_REQUIRE(mb > 0, "kt::dist::DistributedDataParallelOptions::first_bucket_cap_mb: must be > 0, got ", mb);
    first_bucket_bytes_ = static_cast<std::size_t>(mb * 1024 * 1024);
    return *this;
  }
  std::size_t bucket_bytes() const { return bucket_bytes_; }
  std::size_t first_bucket_bytes() const { return first_bucket_bytes_; }

private:
  std::size_t bucket_bytes_ = std::size_t{25} << 20;
  std::size_t first_bucket_bytes_ = std::size_t{1} << 20;
};

template <class Model>
class DistributedDataParallel {
public:
  using value_type = typename Model::value_type;
  using device_type = typename Model::device_type;
  using T = value_type;
  using D = device_type;

  explicit DistributedDataParallel(Model& module, DistributedDataParallelOptions options = {},
                                   ProcessGroup group = world())
      : module_(&module), group_(std::move(group)) {
    const auto named = module.named_parameters();
    check_same_parameters(named);
    for (const auto& [name, p] : named) group_.broadcast(p.data(), 0);
    for (const auto& [name, b] : module.named_buffers()) group_.broadcast(b, 0);
    std::vector<Var<T, D>> trained;
    for (const auto& [name, p] : named)
      if (p.requires_grad()) trained.push_back(p);
    reducer_ = std::make_unique<impl::Reducer<T, D>>(std::move(trained), group_, options.bucket_bytes(),
                                                     options.first_bucket_bytes());
  }

  /// The forward pass of the wrapped model.
  template <class X>
  Var<T, D> operator()(const X& input) {
    return (*module_)(input);
  }
  Model& module() { return *module_; }
  const Model& module() const { return *module_; }
  std::vector<Var<T, D>> parameters() const { return module_->parameters(); }
  const ProcessGroup& process_group() const { return group_; }
  std::size_t bucket_count() const { return reducer_->bucket_count(); }
  /// Timestamps of the last synchronised backward's all-reduces (for benchmarks).
  const SyncTimings& last_sync_timings() const { return reducer_->timings(); }

  /// While the returned guard lives, backward() only accumulates gradients locally
  /// (`with ddp.no_sync():`); the first backward after it averages the accumulated sums.
  class NoSync {
  public:
    explicit NoSync(impl::Reducer<T, D>& reducer) : reducer_(&reducer), previous_(reducer.sync()) {
      reducer.set_sync(false);
    }
    ~NoSync() {
      if (reducer_) reducer_->set_sync(previous_);
    }
    NoSync(NoSync&& other) noexcept : reducer_(std::exchange(other.reducer_, nullptr)), previous_(other.previous_) {}
    NoSync(const NoSync&) = delete;
    NoSync& operator=(const NoSync&) = delete;
    NoSync& operator=(NoSync&&) = delete;

  private:
    impl::Reducer<T, D>* reducer_;
    bool previous_;
  };
  [[nodiscard]] NoSync no_sync() { return NoSync(*reducer_); }

private:
  // Every rank compares its "name shape" list with rank 0's; all learn whether any differs, so
  // all throw together instead of some waiting forever in the next collective.
  void check_same_parameters(const std::vector<std::pair<std::string, Var<T, D>>>& named) const {
    std::vector<std::string> mine;
    for (const auto& [name, p] : named) mine.push_back(name + " " + p.shape().str());
    std::ostringstream joined;
    for (const auto& line : mine) joined << line << '\n';
    std::string text = joined.str();
    long long length = static_cast<long long>(text.size());
    KT_MPI(MPI_Bcast(&length, 1, MPI_LONG_LONG, 0, group_.comm()));
    std::string root_text(static_cast<std::size_t>(length), '\0');
    if (group_.rank() == 0) root_text = text;
    KT_MPI(MPI_Bcast(root_text.data(), static_cast<int>(length), MPI_CHAR, 0, group_.comm()));
    std::vector<std::string> root;
    std::istringstream lines(root_text);
    for (std::string line; std::getline(lines, line);) root.push_back(line);
    std::string difference;
    for (std::size_t i = 0; i < std::max(mine.size(), root.size()) && difference.empty(); ++i) {
      if (i >= mine.size()) difference = concat_parameter(i, "nothing", root[i]);
      else if (i >= root.size()) difference = concat_parameter(i, mine[i], "nothing");
      else if (mine[i] != root[i]) difference = concat_parameter(i, mine[i], root[i]);
    }
    int differs = difference.empty() ? 0 : 1, any = 0;
    KT_MPI(MPI_Allreduce(&differs, &any, 1, MPI_INT, MPI_MAX, group_.comm()));
    KT_REQUIRE(!differs, "kt::dist::DistributedDataParallel: rank ", group_.rank(), "'s model differs from rank 0's: ",
               difference, " (every rank must build the same model)");
    KT_REQUIRE(!any, "kt::dist::DistributedDataParallel: another rank's model differs from rank 0's (its own "
               "error names the parameter); every rank must build the same model");
  }
  std::string concat_parameter(std::size_t i, const std::string& mine, const std::string& root) const {
    return impl::concat("parameter ", i, " is '", mine, "' here but '", root, "' on rank 0");
  }

  Model* module_;
  ProcessGroup group_;
  std::unique_ptr<impl::Reducer<T, D>> reducer_;
};

}  // namespace kt::dist

// kt_compiled (kt/core/impl/compiled.hpp): data parallelism of an fp32 or fp64 Sequential, with
// its gradient reducer. Autocast keeps fp32 master weights, so a 16-bit model under DDP is rare:
// it instantiates in the program that has one, rather than costing every build of the library.
#define KT_ETI_DIST_ONE(T, D, KW)   \
  KW class kt::impl::Reducer<T, D>; \
  KW class kt::dist::DistributedDataParallel<kt::nn::Sequential<T, D>>;
#define KT_ETI_DIST_DEVICE(D, KW) KT_ETI_DIST_ONE(float, D, KW) KT_ETI_DIST_ONE(double, D, KW)
#define KT_ETI_DIST(KW) KT_ETI_EACH_DEVICE(KT_ETI_DIST_DEVICE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_DIST)
KT_ETI_DIST(extern template)
#endif

#include "kt/core/impl/public_end.hpp"
