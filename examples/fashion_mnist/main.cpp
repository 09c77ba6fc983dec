// examples/fashion_mnist: kt's main example — train a classifier on the real Fashion-MNIST.
//
// The C++ twin of the classic PyTorch script
//
//   train = FashionMNIST(root, train=True, transform=Compose([ToTensor(), Normalize(0.2860, 0.3530)]))
//   loader = DataLoader(train, batch_size=256, shuffle=True, num_workers=2, pin_memory=True)
//   model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(),
//                         nn.Linear(128, 10)).to(device)
//   opt = torch.optim.Adam(model.parameters(), lr=1e-3)
//   for epoch in range(10):
//       for x, y in loader:
//           loss = F.cross_entropy(model(x.flatten(1).to(device)), y.to(device))
//           opt.zero_grad(); loss.backward(); opt.step()
//       with torch.no_grad(): accuracy = (model(test_x).argmax(1) == test_y).float().mean()
//
// reading the gzip IDX files of Debian's dataset-fashion-mnist package, and printing per epoch
// the train loss, test accuracy, samples/s and epoch time, then a JSON run summary.
//
//   OMP_PROC_BIND=false ./build/examples/fashion_mnist/fashion_mnist [--epochs 10]
//       [--device auto|openmp|cuda] [--threads N] [--batch-size 256] [--workers auto]
//       [--seed 0] [--limit N] [--data DIR] [--summary PATH] [--profile TRACE.json]
//       [--save RUN.safetensors] [--resume RUN.safetensors] [--amp none|bf16|fp16]
//       [--graph | --eager] [--distributed]
//
// --save writes a checkpoint (model, Adam state, loader epoch) after every epoch, atomically;
// --resume continues such a run up to --epochs, bit-identically to the run that never stopped
// (same threads; a test checks it). --amp runs the forward pass under kt::amp::autocast (the
// Linear layers' GEMMs in bfloat16 or half, fp32 master weights); fp16 also scales the loss
// with kt::amp::GradScaler, as PyTorch's AMP recipe.
//
// --graph (the default on a GPU without --amp fp16, --distributed or --profile) runs the training step
// through kt::StepGraph: on Cuda the step is captured once as a CUDA graph and replayed for
// every full batch (the last, partial batch of an epoch runs the same step eagerly); on host
// devices the step's work is recorded once and replayed. --eager runs every step eagerly. Both
// give the same losses (to rounding on a GPU). The epoch's train loss is summed on the device and
// read once per epoch.
//
// --distributed (a build with kt::dist, -DKT_ENABLE_MPI=ON) trains data-parallel on the ranks of
// an MPI job, as PyTorch's DistributedDataParallel + DistributedSampler recipe:
//   mpirun -np 2 ./build/examples/fashion_mnist/fashion_mnist --distributed
// --batch-size stays the global batch (256 = 2 ranks x 128); rank 0 prints and writes the
// summary.
//
// This file reads the command line and makes the JSON run summary; train.cpp starts MPI and
// Kokkos and trains (train.hpp; the GPU's training compiles in train_device.cpp). The files
// compile side by side, and this one includes nothing of Kokkos or CUDA, so that a Cuda build
// compiles it with the host compiler alone (CMakeLists.txt).

#include "fashion_mnist.hpp"

#include <kt/core/error.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace fashion_mnist {
namespace {

std::string usage() {
  return "usage: fashion_mnist [--epochs N] [--device auto|openmp|cuda] [--threads N]\n"
         "                     [--batch-size N] [--workers N|auto] [--seed N] [--limit N]\n"
         "                     [--data DIR] [--summary PATH|none] [--profile TRACE.json]\n"
         "                     [--save RUN.safetensors] [--resume RUN.safetensors] [--amp none|bf16|fp16]\n"
         "                     [--graph | --eager] (kt::StepGraph or eager steps; default: graph on a GPU)\n"
         "                     [--distributed] (under mpirun; global --batch-size split over the ranks)\n"
         "                     [--kokkos-...]\n";
}

// Reads our flags (--flag value or --flag=value); --kokkos-* flags are left to kt::Runtime.
Config parse(int argc, char* argv[]) {
  Config c;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    if (arg.rfind("--kokkos-", 0) == 0) continue;
    if (arg == "-h" || arg == "--help") {
      std::cout << usage();
      std::exit(0);
    }
    if (arg == "--distributed") {
      c.distributed = true;
      continue;
    }
    if (arg == "--graph" || arg == "--eager") {
      c.step_mode = arg.substr(2);
      continue;
    }
    const auto eq = arg.find('=');
    if (eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    } else {
      KT_REQUIRE(i + 1 < argc, "fashion_mnist: ", arg, " needs a value\n", usage());
      value = argv[++i];
    }
    if (arg == "--epochs") c.epochs = static_cast<int>(to_int(arg, value, 1));
    else if (arg == "--device") c.device = value;
    else if (arg == "--threads") c.threads = static_cast<int>(to_int(arg, value, 1));
    else if (arg == "--batch-size") c.batch_size = to_int(arg, value, 1);
    else if (arg == "--workers") c.workers = value == "auto" ? -1 : static_cast<int>(to_int(arg, value, 0));
    else if (arg == "--seed") c.seed = static_cast<std::uint64_t>(to_int(arg, value, 0));
    else if (arg == "--limit") c.limit = to_int(arg, value, 1);
    else if (arg == "--data") c.data = value;
    else if (arg == "--summary") c.summary = value;
    else if (arg == "--profile") c.profile = value;
    else if (arg == "--save") c.save = value;
    else if (arg == "--resume") c.resume = value;
    else if (arg == "--amp") c.amp = value;
    else KT_THROW("fashion_mnist: unknown option '", arg, "'\n", usage());
  }
#if !defined(KT_ENABLE_MPI)
  KT_REQUIRE(!c.distributed, "fashion_mnist: --distributed needs a build with kt::dist (configure with "
             "-DKT_ENABLE_MPI=ON and an MPI installed, e.g. Debian's libopenmpi-dev)");
#endif
  KT_REQUIRE(!c.distributed || (c.save.empty() && c.resume.empty()), "fashion_mnist: --save and --resume "
             "are single-process options for now; drop them or --distributed");
  KT_REQUIRE(c.amp == "none" || c.amp == "bf16" || c.amp == "fp16", "fashion_mnist: --amp takes none, bf16 or fp16, got '",
             c.amp, "'\n", usage());
  // The ranks' all-reduce waits, and a profile fences around every kernel: neither fits in a
  // captured step. (The loss scaler does: it decides on the device.)
  KT_REQUIRE(c.step_mode != "graph" || (!c.distributed && c.profile.empty()),
             "fashion_mnist: --graph cannot capture the step with --distributed or --profile (Kokkos Tools fence "
             "around every kernel); use --eager");
  return c;
}

}  // namespace

std::int64_t to_int(const std::string& flag, const std::string& value, std::int64_t min) {
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  KT_REQUIRE(used == value.size() && !value.empty() && v >= min, "fashion_mnist: ", flag,
             " needs an integer >= ", min, ", got '", value, "'\n", usage());
  return v;
}

// The run summary as JSON text (nlohmann-json).
std::string summary_json(const Config& c, const std::string& device, int threads, std::int64_t train_samples,
                         std::int64_t parameters, const std::vector<EpochResult>& epochs, double total_seconds) {
  nlohmann::ordered_json j;
  j["example"] = "fashion_mnist";
  j["config"] = {{"device", device},       {"threads", threads},     {"epochs", c.epochs},
                 {"batch_size", c.batch_size}, {"workers", c.workers}, {"seed", c.seed},
                 {"train_samples", train_samples}, {"model", "784-256-128-10 MLP, ReLU"},
                 {"parameters", parameters}, {"optimizer", "Adam"}, {"lr", 0.001},
                 {"normalize", {kMean, kStd}}, {"data", c.data}, {"resumed_from", c.resume}, {"amp", c.amp},
                 {"step", c.step_mode}};
  j["epochs"] = nlohmann::ordered_json::array();
  for (const auto& e : epochs)
    j["epochs"].push_back({{"epoch", e.epoch}, {"train_loss", e.train_loss}, {"test_accuracy", e.test_accuracy},
                           {"samples_per_s", e.samples_per_s}, {"train_seconds", e.train_seconds},
                           {"eval_seconds", e.eval_seconds}});
  j["final_test_accuracy"] = epochs.empty() ? 0.0 : epochs.back().test_accuracy;
  j["training_seconds"] = total_seconds;
  return j.dump(2) + "\n";
}

}  // namespace fashion_mnist

int main(int argc, char* argv[]) {
  fashion_mnist::Config config;
  try {
    config = fashion_mnist::parse(argc, argv);
  } catch (const kt::Error& e) {  // the same on every rank of an MPI job; MPI has not started
    std::cerr << "error: " << e.message() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  std::string summary = config.summary;
  if (summary.empty()) summary = (std::filesystem::path(argv[0]).parent_path() / "fashion_mnist_summary.json").string();
  if (summary == "none") summary.clear();
  return fashion_mnist::start(config, summary, argc, argv);
}
