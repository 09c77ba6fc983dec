// examples/fashion_mnist/train.cpp: the training (train.hpp) compiled for the host pool and,
// unless train_device.cpp takes it, for kt::DefaultDevice; and the choice of device.

#include "train.hpp"

namespace fashion_mnist {

#if defined(FASHION_MNIST_DEVICE_FILE)
// kt::DefaultDevice's (the GPU's) compiles in train_device.cpp, in parallel (CMakeLists.txt).
extern template int run<kt::DefaultDevice>(Config, const std::string&, const Ranks&);
#endif
template int run<kt::Host>(Config, const std::string&, const Ranks&);

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

}  // namespace fashion_mnist
