// examples/fashion_mnist/fashion_mnist.hpp: what the example's files share — the options, the
// shape of the MPI job, one epoch's figures — and the functions one file calls in another.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fashion_mnist {

struct Config {
  std::string device;  // empty: "auto" (kt::dispatch_device: a GPU when present)
  std::string data = "/usr/share/datasets/fashion-mnist";
  std::string summary;  // empty: next to the executable; "none": no summary
  int epochs = 10;
  int threads = -1;  // -1: Kokkos' default (OMP_NUM_THREADS or all cores)
  std::int64_t batch_size = 256;
  int workers = -1;  // -1: "auto", kt::recommended_num_workers<D>() (kt/data/worker_count.hpp)
  std::uint64_t seed = 0;
  std::int64_t limit = 0;  // train on the first `limit` samples only (0: all)
  std::string profile;     // non-empty: profile the training, print the table, write this Chrome trace
  std::string save;        // non-empty: a checkpoint after every epoch
  std::string resume;      // non-empty: continue from this checkpoint
  std::string amp = "none";  // none, bf16 or fp16
  bool distributed = false;  // data-parallel over the MPI job's ranks
  std::string step_mode = "auto";  // graph, eager, or auto: graph on a GPU unless fp16 or distributed
};

// The MPI job's shape: one rank of one without --distributed.
struct Ranks {
  int rank = 0, size = 1;
  bool main() const { return rank == 0; }
};

struct EpochResult {
  int epoch;
  double train_loss, test_accuracy, samples_per_s, train_seconds, eval_seconds;
};

// Fashion-MNIST's training-set pixel mean and standard deviation (after scaling to [0, 1]).
constexpr double kMean = 0.2860, kStd = 0.3530;

// main.cpp: `value` as an integer >= min, or a kt::Error naming `flag`.
std::int64_t to_int(const std::string& flag, const std::string& value, std::int64_t min);

// train.cpp: starts MPI (--distributed) and Kokkos, trains on the device that c.device names
// and returns the exit status, an error reported (and, under MPI, every rank ended).
int start(const Config& c, const std::string& summary_path, int argc, char* argv[]);

// main.cpp: the run summary as JSON text (nlohmann-json).
std::string summary_json(const Config& c, const std::string& device, int threads, std::int64_t train_samples,
                         std::int64_t parameters, const std::vector<EpochResult>& epochs, double total_seconds);

}  // namespace fashion_mnist
