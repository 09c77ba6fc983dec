// examples/fashion_mnist/train.cpp: MPI and Kokkos started, the training (train.hpp) compiled
// for the host pool and, unless train_device.cpp takes it, for kt::DefaultDevice; and the
// choice of device.

#include "train.hpp"

#include <kt/core/runtime.hpp>
#if defined(KT_ENABLE_MPI)
#include <kt/dist/environment.hpp>
#endif

#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#if defined(FASHION_MNIST_DEVICE_FILE)
FASHION_MNIST_LAYERS(kt::DefaultDevice, extern template)
#elif defined(FASHION_MNIST_LAYERS_FILE)
FASHION_MNIST_LAYERS(kt::Host, extern template)
#endif

namespace fashion_mnist {

#if defined(FASHION_MNIST_DEVICE_FILE)
// kt::DefaultDevice's (the GPU's) compiles in train_device.cpp, in parallel (CMakeLists.txt).
extern template int run<kt::DefaultDevice>(Config, const std::string&, const Ranks&);
#endif
template int run<kt::Host>(Config, const std::string&, const Ranks&);

namespace {

// --device picks the device, through kt::dispatch_device: run<D>() is compiled for
// kt::DefaultDevice and kt::Host — the GPU and the host pool in a Cuda build, the host pool
// alone in a host build (`--threads 1` is the one-thread run), as compiling it for Serial too
// took 1.5x the compile time — and runs on the chosen one. The default,
// "auto", takes a GPU when one is present and says so when a Cuda build finds none.
int train(const Config& c, const std::string& summary, const Ranks& ranks) {
  const std::string device = c.device.empty() ? "auto" : c.device;
#if defined(KOKKOS_ENABLE_CUDA)
  if (device == "auto" && !kt::is_available<kt::Cuda>())
    std::cout << "notice: this is a Cuda build but no GPU is present: running on " << kt::best_device() << "\n";
#endif
  return kt::dispatch_device<kt::DefaultDevice, kt::Host>(
      device, [&](auto tag) { return run<typename decltype(tag)::type>(c, summary, ranks); });
}

}  // namespace

int start(const Config& c, const std::string& summary, int argc, char* argv[]) {
#if defined(KT_ENABLE_MPI)
  // --distributed: MPI until the end of the run; an error on one rank must end every rank
  // (kt::dist::abort), or the others would wait for it forever in the next all-reduce.
  std::optional<kt::dist::Environment> mpi;
  auto fail = [&](const std::string& message) {
    if (mpi) kt::dist::abort(message);
    std::cerr << "error: " << message << "\n";
    return 1;
  };
#else
  auto fail = [](const std::string& message) {
    std::cerr << "error: " << message << "\n";
    return 1;
  };
#endif
  try {
    Ranks ranks;
#if defined(KT_ENABLE_MPI)
    if (c.distributed) mpi.emplace(argc, argv);  // a failure to start MPI is reported as any other
    if (mpi) ranks = {kt::dist::world().rank(), kt::dist::world().size()};
#endif
    // Kokkos sees only the --kokkos-* flags (Kokkos 3 also reads a bare --threads or --device
    // as its own), plus --threads N as its thread count; otherwise it uses OMP_NUM_THREADS.
    std::vector<std::string> kokkos_args{argv[0]};
    for (int i = 1; i < argc; ++i)
      if (std::string(argv[i]).rfind("--kokkos-", 0) == 0) kokkos_args.emplace_back(argv[i]);
#if defined(KT_ENABLE_MPI)
    if (mpi && kt::dist::runtime_options().device_id() >= 0)  // Cuda: one GPU per rank of a node
      kokkos_args.push_back("--kokkos-device-id=" + std::to_string(kt::dist::runtime_options().device_id()));
#endif
#if KOKKOS_VERSION >= 40000
    if (c.threads > 0) kokkos_args.push_back("--kokkos-num-threads=" + std::to_string(c.threads));
#else
    if (c.threads > 0) kokkos_args.push_back("--kokkos-threads=" + std::to_string(c.threads));
#endif
    std::vector<char*> kokkos_argv;
    for (auto& a : kokkos_args) kokkos_argv.push_back(a.data());
    kokkos_argv.push_back(nullptr);
    int kokkos_argc = static_cast<int>(kokkos_args.size());
    kt::Runtime runtime(kokkos_argc, kokkos_argv.data());  // starts Kokkos, stops it at the end
    return train(c, summary, ranks);
  } catch (const kt::Error& e) {
    return fail(e.message());
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}

}  // namespace fashion_mnist
